import ArgumentParser
import Foundation
import NLUKit

/// `nlu embed train`: fine-tunes a sentence-transformers model on pairs (sentence-transformers'
/// MultipleNegativesRankingLoss or CosineSimilarityLoss) and writes a model folder `nlu embed`,
/// `nlu index` and sentence-transformers load.
struct EmbedTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Fine-tune a sentence-transformers model on text pairs.",
        discussion: """
        --pairs is a JSON Lines file, one example per line, in one of two shapes: \
        {"anchor": ..., "positive": ..., "negative": ...} (negative optional, on every line or none) trains \
        with MultipleNegativesRankingLoss (mnrl: each anchor should be nearer its positive than the other \
        examples of its batch; batches never repeat a text); {"sentence1": ..., "sentence2": ..., "score": -1...1} \
        trains with CosineSimilarityLoss (cosine). A broken line is an error naming it. --validation-file takes \
        either shape and scores it after each epoch as sentence-transformers' evaluators do: scored pairs by the \
        Spearman correlation of their cosine similarities with the scores, anchor/positive pairs by how each \
        anchor ranks every positive (and negative) of the file (accuracy@1, MRR@10); --validation-split F holds \
        that share of the pairs out of training instead. --keep-best SCORE \
        (spearman, pearson, accuracy-at-1, mrr-at-10) writes the epoch with the best score instead of the last \
        (sentence-transformers' save_best_model); --early-stopping N ends the run N epochs after it.

        Defaults are sentence-transformers' recipe: 1 epoch, batches of 16, AdamW at 2e-5 with 10 % warm-up and \
        linear decay, weight decay 0.01, gradients clipped at norm 1, dropout 0.1, scale 20. Progress goes to \
        stderr (with --json, one JSON object per step and epoch on stdout).

        -o may name a new path, an empty folder or a model folder nlu fine-tuned earlier; anything else is \
        refused (exit 1). The model folder is written atomically after every epoch (with the run's state, \
        for --resume); over an earlier model the epochs go to OUTPUT.partial, which replaces it at the end. \
        An interrupted run keeps the last epoch's checkpoint: the same command with --resume continues it \
        (-o OUTPUT.partial when it was written there).

        Examples:
          nlu embed train sentence-transformers/all-MiniLM-L6-v2 --pairs pairs.jsonl -o minilm-tuned
          nlu embed train ./all-MiniLM-L6-v2 --pairs sts.jsonl --loss cosine --epochs 4 -o minilm-sts
          nlu embed --model minilm-tuned "How do I reset my password?"
        """)

    @Argument(help: ArgumentHelp("The model to start from: a folder or a Hugging Face id found in the cache.", valueName: "model"))
    var model: String

    @Option(help: ArgumentHelp("The training pairs, JSON Lines.", valueName: "file.jsonl"))
    var pairs: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write the fine-tuned model to.", valueName: "dir"))
    var output: String

    @Option(help: ArgumentHelp("mnrl or cosine (default: from the pairs file's shape).", valueName: "loss"))
    var loss: LossName?

    @Option(help: ArgumentHelp("Passes over the pairs (1-1000).", valueName: "n"))
    var epochs = 1

    @Option(help: ArgumentHelp("Examples per batch (1-4096; at least 2 for mnrl without negatives).", valueName: "n"))
    var batchSize = 16

    @Option(help: ArgumentHelp("Peak AdamW learning rate (above 0, at most 1).", valueName: "rate"))
    var learningRate: Float = 2e-5

    @Option(help: ArgumentHelp("Share of the steps spent warming the rate up from 0 (0-1).", valueName: "ratio"))
    var warmupRatio: Double = 0.1

    @Option(help: ArgumentHelp("Tokens per text, [CLS] and [SEP] included (default: the model's max_seq_length).", valueName: "n"))
    var maxLength: Int?

    @Option(help: ArgumentHelp("Seeds the batch order and dropout.", valueName: "n"))
    var seed: UInt64 = 42

    @Option(help: ArgumentHelp("Held-out pairs (either shape) scored after each epoch: Spearman's correlation for scored pairs, accuracy@1 and MRR@10 for anchor/positive pairs. A report unless --keep-best: the last epoch is kept.",
                               valueName: "file.jsonl"))
    var validationFile: String?

    @Option(help: ArgumentHelp("Instead of --validation-file: this share of the pairs (above 0, at most 0.5), drawn with --seed, held out of training and scored after each epoch.",
                               valueName: "fraction"))
    var validationSplit: Double?

    @Option(help: ArgumentHelp("With --validation-file or --validation-split: the score that picks the epoch written: spearman or pearson (scored pairs), accuracy-at-1 or mrr-at-10 (anchor/positive pairs). Default: the last epoch.",
                               valueName: "score"))
    var keepBest: SentenceFineTuningMetric?

    @Option(help: ArgumentHelp("With --keep-best: stop once this many epochs in a row have not improved on the best score (default: every epoch runs).",
                               valueName: "epochs"))
    var earlyStopping: Int?

    @Flag(help: "Continue the interrupted run whose checkpoint is at --output.")
    var resume = false

    @Flag(help: "Print progress as JSON lines on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    enum LossName: String, ExpressibleByArgument, CaseIterable {
        case mnrl, cosine
    }

    var options: SentenceFineTuningOptions {
        var options = SentenceFineTuningOptions()
        options.loss = loss.map { $0 == .mnrl ? .multipleNegativesRanking(scale: SentenceTrainingLoss.defaultRankingScale) : .cosineSimilarity }
        options.epochs = epochs
        options.batchSize = batchSize
        options.learningRate = learningRate
        options.warmupRatio = warmupRatio
        options.maxSequenceLength = maxLength
        options.seed = seed
        options.keepBest = keepBest
        options.earlyStoppingPatience = earlyStopping
        return options
    }

    func validate() throws {
        if earlyStopping != nil, keepBest == nil {
            throw ValidationError("--early-stopping needs --keep-best SCORE: the score whose best epoch it counts from")
        }
        if let validationSplit {
            guard validationFile == nil else {
                throw ValidationError("--validation-file and --validation-split both give the held-out pairs: give one")
            }
            try TrainingFlags.check(flag: "--validation-split") {
                try HeldOutSplit.checkFraction(validationSplit, of: "the pairs")
            }
        }
        if keepBest != nil, validationFile == nil, validationSplit == nil {
            throw ValidationError("--keep-best needs --validation-file FILE or --validation-split F: the held-out pairs whose score picks the epoch")
        }
        try TrainingFlags.check { try options.validate() }
    }

    func run() throws {
        try Console.checkOutput(output, inputs: [pairs, model] + (validationFile.map { [$0] } ?? []))
        let modelURL = try ModelLocator.resolve(model)
        let tuner = try SentenceEncoderFineTuner(model: modelURL, options: options)
        var examples = try TrainingPairs.read(from: URL(fileURLWithPath: pairs), name: pairs)
        var validation = try validationFile.map { try TrainingPairs.read(from: URL(fileURLWithPath: $0), name: $0) }
        if let validationSplit {
            do {
                (examples, validation) = try examples.heldOutSplit(fraction: validationSplit, seed: seed)
            } catch let error as TrainingSettingError {
                throw InputError("\(pairs): --validation-split \(error.value): needs \(error.requirement)")
            }
            Console.log("validation: \(validation?.count ?? 0) of the \(examples.count + (validation?.count ?? 0)) pairs held out (--validation-split \(validationSplit)), scored after each epoch")
        }
        let heldOutName = validationFile ?? validationSplit.map { "the pairs --validation-split \($0) held out of \(pairs)" } ?? "--validation-file"
        let reporter = ProgressReporter(json: json, keepBest: keepBest, earlyStopping: earlyStopping, epochs: epochs)
        let result: SentenceEncoderFineTuner.Result
        do {
            result = try tuner.train(examples, validation: validation, output: URL(fileURLWithPath: output), resume: resume,
                                     onEvent: reporter.report)
        } catch let error as TrainingSettingError where error.setting == "keepBest" {
            throw InputError("\(heldOutName): --keep-best \(error.value) needs \(error.requirement)")
        }
        let last = result.steps.last.map { String(format: "; last step's loss %.4f", $0.loss) } ?? ""
        Interruption.note = nil
        if json {
            Console.print(try Console.json(Saved(event: "saved", output: output, steps: result.trainer.optimizerSteps,
                                                 validation: reporter.keptEvaluation ?? reporter.lastEvaluation,
                                                 keptEpoch: keepBest == nil ? nil : result.keptEpoch,
                                                 trainedEpochs: keepBest == nil ? nil : reporter.lastEvaluation?.epoch)))
        } else {
            Console.print("Saved \(output): \(result.trainer.optimizerSteps) steps\(last)")
            if let metric = keepBest, let kept = reporter.keptEvaluation, let score = metric.score(kept) {
                BestEpochLines.printKept(epoch: kept.epoch, trained: reporter.lastEvaluation?.epoch ?? epochs, score: metric.rawValue,
                                         value: String(format: "%.4f", score),
                                         on: validationFile == nil ? "the held-out pairs" : "the validation file")
            }
        }
    }

    private struct Saved: Encodable {
        var event: String
        var output: String
        var steps: Int
        /// The scores on --validation-file of the epoch written (the last one, or --keep-best's).
        var validation: SentenceFineTuningEvaluation?
        /// With --keep-best: the epoch written, and the epochs trained (fewer than --epochs after early stopping).
        var keptEpoch: Int?
        var trainedEpochs: Int?
    }

    /// Progress on stderr, a line every ~2 % of the run and at each epoch's end; or JSON lines on stdout.
    private final class ProgressReporter {
        let json: Bool
        let keepBest: SentenceFineTuningMetric?
        let earlyStopping: Int?
        let epochs: Int
        private(set) var lastEvaluation: SentenceFineTuningEvaluation?
        /// The epoch --keep-best keeps so far.
        private(set) var keptEvaluation: SentenceFineTuningEvaluation?
        init(json: Bool, keepBest: SentenceFineTuningMetric?, earlyStopping: Int?, epochs: Int) {
            self.json = json
            self.keepBest = keepBest
            self.earlyStopping = earlyStopping
            self.epochs = epochs
        }

        private struct ValidationLine: Encodable {
            var event = "validation"
            var epoch: Int
            var validation: SentenceFineTuningEvaluation
        }

        private struct Line: Encodable {
            var event: String
            var epoch: Int?
            var step: Int?
            var totalSteps: Int?
            var loss: Float?
            var learningRate: Float?
            var examplesPerSecond: Double?
            var secondsLeft: Double?
            var checkpoint: String?
        }

        func report(_ event: SentenceFineTuningEvent) {
            switch event {
            case let .started(examples, loss, totalSteps, epochsDone):
                if !json {
                    Console.log("training on \(examples) examples with \(loss.name == "mnrl" ? "MultipleNegativesRankingLoss" : "CosineSimilarityLoss"), "
                                + "\(totalSteps) steps" + (epochsDone > 0 ? "; resuming after epoch \(epochsDone)" : ""))
                }
            case .step(let progress):
                if json {
                    emit(Line(event: "step", epoch: progress.epoch, step: progress.step, totalSteps: progress.totalSteps, loss: progress.loss,
                              learningRate: progress.learningRate, examplesPerSecond: progress.examplesPerSecond, secondsLeft: progress.secondsLeft))
                    return
                }
                let interval = max(1, progress.totalSteps / 50)
                guard progress.step % interval == 0 || progress.step == progress.totalSteps else { return }
                Console.log(String(format: "epoch %d/%d  step %d/%d  loss %.4f  lr %.2e  %.1f examples/s  ",
                                   progress.epoch, progress.epochs, progress.step, progress.totalSteps, progress.loss,
                                   progress.learningRate, progress.examplesPerSecond) + Self.duration(progress.secondsLeft) + " left")
            case .evaluated(let score):
                lastEvaluation = score
                if score.isBest == true { keptEvaluation = score }
                if json {
                    if let text = try? Console.json(ValidationLine(epoch: score.epoch, validation: score)) { Console.print(text) }
                    return
                }
                let figures = if let accuracy = score.accuracyAt1, let mrr = score.mrrAt10 {
                    String(format: "accuracy@1 %.4f, MRR@10 %.4f over %d anchors", accuracy, mrr, score.pairs)
                } else {
                    "Spearman \(Self.figure(score.spearman)) (Pearson \(Self.figure(score.pearson))) over \(score.pairs) pairs"
                }
                Console.log("epoch \(score.epoch) validation: " + figures + (score.isBest == true ? " *" : ""))
                BestEpochLines.logEarlyStop(after: score.epoch, of: epochs, bestEpoch: keptEvaluation?.epoch, patience: earlyStopping,
                                            score: keepBest?.rawValue ?? "score")
            case let .epochFinished(epoch, meanLoss, checkpoint):
                // What Ctrl-C keeps from here on, set before the line is printed so a signal sent on seeing it finds it.
                Interruption.note = "interrupted: \(checkpoint.path) holds the epochs done so far; continue with the same command, "
                    + "--resume and -o \(checkpoint.path)"
                if json {
                    emit(Line(event: "epoch", epoch: epoch, loss: meanLoss, checkpoint: checkpoint.path))
                } else {
                    Console.log(String(format: "epoch %d done: mean loss %.4f; written to ", epoch, meanLoss) + checkpoint.path)
                }
            }
        }

        private func emit(_ line: Line) {
            if let text = try? Console.json(line) { Console.print(text) }
        }

        /// "0.8123", or "n/a" where a correlation is undefined (no variation).
        static func figure(_ value: Double?) -> String { value.map { String(format: "%.4f", $0) } ?? "n/a" }

        static func duration(_ seconds: Double) -> String {
            let whole = Int(seconds.rounded())
            return whole >= 60 ? "\(whole / 60)m \(String(format: "%02d", whole % 60))s" : "\(whole)s"
        }
    }
}

extension SentenceFineTuningMetric: ExpressibleByArgument {}

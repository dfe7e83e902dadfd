import ArgumentParser
import Foundation
import NLUKit

/// `nlu qa train`: fine-tunes a BERT-family checkpoint for extractive question answering on a SQuAD file.
struct QATrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Fine-tune a checkpoint for question answering on a SQuAD v1.1 / v2.0 file.",
        discussion: """
        Windows and loss as transformers' run_qa: the question first, the context second, windows of \
        --max-length tokens overlapping by --doc-stride; each window learns the first answer's start and end \
        tokens, or [CLS] when the answer is not wholly inside it or the question has none (SQuAD 2.0: a file \
        with version "v2.0" or questions marked is_impossible, or --version-2-with-negative). Start/end \
        cross-entropy, AdamW with a linear decay, gradient clipping at 1. An answer whose text is not the \
        context's at answer_start skips its question with a warning naming it (--strict refuses the file); a \
        question without an answer in a v1.1 file is an error. --model is a checkpoint directory or Hub id \
        (BERT, DistilBERT, RoBERTa / XLM-R, MPNet; a sentence-transformers folder such as all-MiniLM-L6-v2 \
        works: its encoder is used, and a new qa_outputs head is added). -o receives a \
        *ForQuestionAnswering checkpoint in the Hugging Face layout (config.json, model.safetensors, tokenizer \
        files) that nlu qa ask / evaluate and transformers' pipeline load; it may be a new path, an empty \
        folder or a folder nlu saved before, and is written only when training ends (Ctrl-C leaves it as it \
        was). Progress goes to stderr. --validation-file answers a SQuAD file's questions after each epoch with \
        the windows of training (--max-length, --doc-stride) and prints their exact match and F1; \
        --keep-best exact-match|f1 then keeps the epoch with the best score (Trainer's load_best_model_at_end) and \
        --early-stopping N stops after N epochs without improvement.
        """)

    @Option(help: ArgumentHelp("The SQuAD-format JSON training file (\"-\": standard input).", valueName: "file"))
    var squad: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The checkpoint to start from: a directory or Hub id.", valueName: "model"))
    var model: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the fine-tuned checkpoint (a folder).", valueName: "dir"))
    var output: String

    @Option(help: "Passes over the training windows (1-1000).")
    var epochs = 2

    @Option(help: "Windows per batch (1-4096).")
    var batchSize = 12

    @Option(help: "The peak learning rate (above 0, at most 1).")
    var learningRate: Float = 3e-5

    @Option(help: "The share of steps over which the learning rate rises from 0 (0-1).")
    var warmupRatio: Double = 0

    @Option(help: "AdamW weight decay, not on biases and layer norms (0-1).")
    var weightDecay: Float = 0

    @Option(help: "Dropout in the encoder's hidden states and attention (0 to below 1).")
    var dropout: Float = 0.1

    @Option(help: "Tokens per window, special tokens included (8 to the model's positions).")
    var maxLength = 384

    @Option(help: "Tokens of context shared by consecutive windows of a long context (below what a window leaves for it).")
    var docStride = 128

    @Option(help: "Seeds a new head, the batch order and dropout.")
    var seed: UInt64 = 42

    @Flag(help: "Questions may have no answer (SQuAD 2.0), whatever the file's version says.")
    var version2WithNegative = false

    @Flag(help: "Refuse the file when an answer's text is not the context's at answer_start, instead of skipping the question.")
    var strict = false

    @Option(help: ArgumentHelp("A SQuAD-format JSON file of held-out questions, answered and scored (exact match, F1) after each epoch, as nlu qa evaluate scores them. A report unless --keep-best: the last epoch is kept.",
                               valueName: "file"))
    var validationFile: String?

    @Option(help: ArgumentHelp("With --validation-file: the score that picks the epoch written to -o: exact-match or f1. The best epoch's weights are put back at the end (default: the last epoch).",
                               valueName: "score"))
    var keepBest: QuestionAnsweringFineTuningOptions.Metric?

    @Option(help: ArgumentHelp("With --keep-best: stop once this many epochs in a row have not improved on the best score (default: every epoch runs).",
                               valueName: "epochs"))
    var earlyStopping: Int?

    @Flag(help: "Print a JSON summary on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    var options: QuestionAnsweringFineTuningOptions {
        var options = QuestionAnsweringFineTuningOptions()
        options.epochs = epochs
        options.batchSize = batchSize
        options.learningRate = learningRate
        options.warmupRatio = warmupRatio
        options.weightDecay = weightDecay
        options.dropout = dropout
        options.maxSequenceLength = maxLength
        options.documentStride = docStride
        options.seed = seed
        options.allowsUnanswerable = version2WithNegative ? true : nil
        options.strict = strict
        options.keepBest = keepBest
        options.earlyStoppingPatience = earlyStopping
        return options
    }

    func validate() throws {
        guard !output.isEmpty else { throw ValidationError("--output is empty; give a folder such as minilm-squad") }
        if squad == "-", validationFile == "-" {
            throw ValidationError("--squad and --validation-file both read standard input; give one of them as a file")
        }
        if earlyStopping != nil, keepBest == nil {
            throw ValidationError("--early-stopping needs --keep-best SCORE: the score whose best epoch it counts from")
        }
        if keepBest != nil, validationFile == nil {
            throw ValidationError("--keep-best needs --validation-file FILE: the held-out questions whose score picks the epoch")
        }
        try TrainingFlags.check { try options.validate() }
    }

    private struct Summary: Encodable {
        var output: String
        var questions: Int
        var unanswerable: Int
        var skipped: [String]
        var windows: Int
        var steps: Int
        var final_loss: Float?
        var seconds: Double
        /// The scores on --validation-file of the epoch written (the last one, or --keep-best's).
        var validation: ValidationSummary?
        /// With --keep-best: the epoch written, and the epochs trained (fewer than --epochs after early stopping).
        var kept_epoch: Int?
        var trained_epochs: Int?
    }

    private struct ValidationSummary: Encodable {
        var epoch: Int
        var exact_match: Double
        var f1: Double
        var questions: Int
    }

    func run() throws {
        try Console.checkOutput(output, inputs: [squad, model] + (validationFile.map { [$0] } ?? []))
        let base = try ModelLocator.resolve(model)
        let destination = URL(fileURLWithPath: output)
        try TrainableEncoder.checkSaveDestination(destination, source: base)
        let file = squad == "-" ? "standard input" : squad
        let dataset = try SQuADDataset(data: Console.readData(path: squad), file: file)
        let validation = try validationFile.map { try SQuADDataset(data: Console.readData(path: $0), file: $0 == "-" ? "standard input" : $0) }
        // Only the window can be out of range here, against the checkpoint's positions.
        let tuner = try TrainingFlags.check { try QuestionAnsweringFineTuner(checkpoint: base, options: options) }
        let set: QuestionAnsweringTrainingSet
        do {
            set = try tuner.trainingSet(dataset)
        } catch let error as QuestionAnsweringTrainingError {
            throw InputError("\(file): \(error)")
        } catch let error as QuestionAnsweringError {
            throw InputError("\(file): \(error)")
        }
        if !set.skippedQuestionIDs.isEmpty {
            let ids = set.skippedQuestionIDs
            Console.log("warning: skipped \(ids.count) question\(ids.count == 1 ? "" : "s") whose answer text is not the context's at answer_start: "
                        + ids.prefix(20).joined(separator: ", ") + (ids.count > 20 ? ", ..." : "") + " (--strict refuses the file)")
        }
        let batches = (set.windows.count + batchSize - 1) / batchSize
        Console.log("training on \(set.questionCount) questions (\(set.unanswerableCount) without answer), \(set.windows.count) windows "
                    + "of up to \(maxLength) tokens; \(epochs) epoch\(epochs == 1 ? "" : "s") of \(batches) steps")
        // A signal ends the run at once; nothing is written before the end, so the output stays as it was.
        Interruption.note = "interrupted: nothing was saved; \(output) is as it was"
        var lastLine = Date.distantPast
        var bestEpoch: Int?
        if let validation {
            Console.log("validation: \(validation.questions.count) question\(validation.questions.count == 1 ? "" : "s") of \(validationFile ?? ""), "
                        + "answered after each epoch")
        }
        let result: QuestionAnsweringFineTuner.Result
        do {
            result = try tuner.train(set, validation: validation, progress: { progress in
                guard progress.step == 1 || progress.step == progress.totalSteps || Date().timeIntervalSince(lastLine) >= 5 else { return }
                lastLine = Date()
                let left = progress.seconds / Double(progress.step) * Double(progress.totalSteps - progress.step)
                Console.log(String(format: "epoch %d  step %d/%d  loss %.4f  %.1f windows/s  ", progress.epoch, progress.step,
                                   progress.totalSteps, progress.loss, progress.windowsPerSecond) + Self.duration(left) + " left")
            }, validated: { scored in
                Console.log(String(format: "epoch %d validation: exact match %.2f, F1 %.2f over %d questions", scored.epoch,
                                   scored.report.exactMatch, scored.report.f1, scored.report.count) + (scored.isBest == true ? " *" : ""))
                if scored.isBest == true { bestEpoch = scored.epoch }
                BestEpochLines.logEarlyStop(after: scored.epoch, of: epochs, bestEpoch: bestEpoch, patience: earlyStopping,
                                            score: keepBest?.rawValue ?? "score")
            })
        } catch let error as QuestionAnsweringError {
            // Training questions were read before the run; a question that cannot be answered here is a validation one.
            throw InputError("\(validationFile ?? file): \(error)")
        }
        try result.trainer.save(to: destination, source: base)
        Interruption.note = nil
        let summary = Summary(output: output, questions: set.questionCount, unanswerable: set.unanswerableCount,
                              skipped: set.skippedQuestionIDs, windows: set.windows.count, steps: result.steps.count,
                              final_loss: result.steps.last?.loss, seconds: (result.seconds * 10).rounded() / 10,
                              validation: (result.validations.first { $0.epoch == result.keptEpoch } ?? result.validations.last).map {
                                  ValidationSummary(epoch: $0.epoch, exact_match: $0.report.exactMatch, f1: $0.report.f1, questions: $0.report.count)
                              }, kept_epoch: keepBest == nil ? nil : result.keptEpoch,
                              trained_epochs: keepBest == nil ? nil : result.validations.last?.epoch)
        if json {
            Console.print(try Console.json(summary, sortedKeys: false))
        } else {
            Console.print("saved \(output): \(result.steps.count) steps on \(set.windows.count) windows, final loss "
                          + String(format: "%.4f", result.steps.last?.loss ?? 0) + ", " + Self.duration(result.seconds))
            if let metric = keepBest, let kept = result.validations.first(where: { $0.epoch == result.keptEpoch }) {
                BestEpochLines.printKept(epoch: kept.epoch, trained: result.validations.last?.epoch ?? epochs, score: metric.rawValue,
                                         value: String(format: "%.2f", metric.score(kept.report)))
            }
        }
    }

    /// "1h02m", "3m05s", "12s".
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole >= 3600 { return String(format: "%dh%02dm", whole / 3600, whole % 3600 / 60) }
        if whole >= 60 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
        return "\(whole)s"
    }
}

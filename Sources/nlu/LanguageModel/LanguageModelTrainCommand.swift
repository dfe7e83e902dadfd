import ArgumentParser
import Foundation
import NLUKit

/// `nlu lm train`: trains a language model on plain-text files.
struct LanguageModelTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a language model on plain-text corpus files.",
        discussion: """
        Each non-empty line ends with the end token </s>. The vocabulary keeps the --max-vocabulary most frequent \
        tokens (seen at least --min-count times); the rest become <unk>. The last --validation-split of the text is \
        held out and its perplexity printed after every epoch. Progress goes to stderr; the model package is written \
        atomically after every epoch, and --resume continues from it. Over an existing model (without --resume) the \
        epochs' checkpoints go to OUTPUT.partial and the model is replaced only when training ends; an interrupted \
        run keeps the old model (--resume -o OUTPUT.partial continues). --output may name a new path, an empty \
        folder or a language-model package; anything else there is refused (exit 1). --report FILE.html also \
        writes the training loss and validation perplexity per epoch as one self-contained page; it replaces \
        only an earlier nlu report page (or an empty file) unless --force is given.
        """)

    @Argument(help: "Plain-text UTF-8 corpus files.")
    var corpus: [String]

    @Option(name: .shortAndLong, help: "Where to write the model package (NAME.nlumodel).")
    var output: String

    // The architecture options are optional so that a resumed run can tell a choice from a default.
    @Option(help: "Token level: word or character (default: word).")
    var level: LanguageModelConfiguration.Level?

    @Option(help: "Recurrent cell: lstm or gru (default: lstm).")
    var cell: RecurrentCell?

    @Option(help: "Stacked recurrent layers (default: 2).")
    var layers: Int?

    @Option(help: "Hidden units per layer (default: 256).")
    var hidden: Int?

    @Option(help: "Embedding size (default: 128).")
    var embedding: Int?

    @Option(help: "Epochs (passes over the training text).")
    var epochs: Int = 10

    @Option(help: "Steps of truncated back-propagation through time.")
    var sequenceLength: Int = 35

    @Option(help: "Parallel streams per mini-batch.")
    var batchSize: Int = 20

    @Option(help: "Adam learning rate.")
    var learningRate: Float = 0.002

    @Option(help: "Dropout probability (embeddings, between layers, RNN output).")
    var dropout: Float = 0.2

    @Option(help: "Largest vocabulary, <unk> and </s> included.")
    var maxVocabulary: Int = 10_000

    @Option(help: "Tokens seen fewer times become <unk>.")
    var minCount: Int = 1

    @Option(help: "Fraction of the text (its end) held out for validation perplexity.")
    var validationSplit: Float = 0.1

    @Option(help: "Largest global gradient norm.")
    var clipNorm: Float = 5

    @Option(help: "Random seed (initialization, dropout).")
    var seed: UInt64 = 42

    @Flag(help: "Keep letter case (default: lowercase the text).")
    var keepCase = false

    @Flag(help: "Continue training the package at --output up to --epochs.")
    var resume = false

    @Option(help: ArgumentHelp("Also write the training curves as a self-contained HTML page.", valueName: "FILE.html"))
    var report: String?

    @Flag(help: "Replace a model package of another kind at --output (never a file or a folder that is not a package), and a file at --report that is not an nlu report page.")
    var force = false

    @Flag(help: "Print the per-epoch report as JSON on stdout.")
    var json = false

    var options: LanguageModelTrainingOptions {
        LanguageModelTrainingOptions(
            cell: cell ?? .lstm, level: level ?? .word, lowercase: !keepCase, layers: layers ?? 2, hiddenSize: hidden ?? 256,
            embeddingSize: embedding ?? 128,
            epochs: epochs, sequenceLength: sequenceLength, batchSize: batchSize, learningRate: learningRate,
            dropout: dropout, maxVocabulary: maxVocabulary, minimumCount: minCount, validationSplit: validationSplit,
            seed: seed, clipNorm: clipNorm)
    }

    @OptionGroup var inputSize: InputSizeOption

    func validate() throws {
        guard !corpus.isEmpty else { throw ValidationError("give at least one CORPUS file") }
        guard !output.isEmpty else { throw ValidationError("--output is empty; give a path such as model.nlumodel") }
        do {
            try options.validate()
        } catch let error as LanguageModelError {
            guard case let .invalidOption(name, reason) = error else { throw error }
            let flags = ["hiddenSize": "--hidden", "embeddingSize": "--embedding", "minimumCount": "--min-count",
                         "sequenceLength": "--sequence-length", "batchSize": "--batch-size", "learningRate": "--learning-rate",
                         "maxVocabulary": "--max-vocabulary", "validationSplit": "--validation-split", "clipNorm": "--clip-norm"]
            throw ValidationError("\(flags[name] ?? "--" + name) \(reason)")
        }
    }

    func run() throws {
        try Console.checkOutput(output, inputs: corpus)
        if let report {
            try Console.checkOutput(report, flag: "--report", inputs: corpus + [output])
            try ReportPage.outputFile.checkReplaceable(URL(fileURLWithPath: report), force: force,
                                                       remedy: "choose another path, move it away, or pass --force to replace it")
        }
        var texts: [String] = []
        for path in corpus {
            texts.append(try Console.readText(path: path))
        }
        let url = URL(fileURLWithPath: output)
        let (model, history) = try LanguageModelTrainer(options: options).train(
            texts: texts, names: corpus, checkpoint: url, resume: resume,
            resumeChoices: LanguageModelArchitectureChoices(cell: cell, level: level, embeddingSize: embedding, hiddenSize: hidden,
                                                            layers: layers, lowercase: keepCase ? false : nil),
            replacing: force ? .anyModelPackage : .sameKind, onEvent: logProgress)
        if let report { try writeReport(to: report, model: model, history: history) }
        if json {
            Console.print(try Console.json(history))
        } else {
            let perplexity = history.last?.validationPerplexity.map { String(format: ", validation perplexity %.2f", $0) } ?? ""
            Console.print("Saved \(output): \(model.configuration.layers)-layer \(model.configuration.cell.rawValue), "
                  + "\(model.configuration.level.rawValue) level, vocabulary \(model.vocabulary.count), "
                  + "\(history.last?.epoch ?? 0) epoch(s)\(perplexity)")
        }
    }

    /// The --report page: training loss and validation perplexity per epoch.
    private func writeReport(to path: String, model: LanguageModel, history: [LanguageModelEpochReport]) throws {
        func curve(_ name: String, _ value: (LanguageModelEpochReport) -> Double?) -> TrainingReportPage.Curve {
            TrainingReportPage.Curve(name: name, points: history.compactMap { epoch in
                value(epoch).map { TrainingReportPage.Point(x: Double(epoch.epoch), y: $0) }
            })
        }
        var charts = [TrainingReportPage.Chart(title: "Training loss per epoch", curves: [curve("training loss") { $0.trainingLoss }])]
        let perplexity = curve("validation perplexity") { $0.validationPerplexity }
        if !perplexity.points.isEmpty { charts.append(TrainingReportPage.Chart(title: "Validation perplexity per epoch", curves: [perplexity])) }
        var facts = [ReportFact("model", "\(model.configuration.layers)-layer \(model.configuration.cell.rawValue), \(model.configuration.level.rawValue) level"),
                     ReportFact("vocabulary", "\(model.vocabulary.count)"), ReportFact("epochs", "\(history.last?.epoch ?? 0)")]
        if let last = history.last?.validationPerplexity { facts.append(ReportFact("validation perplexity", String(format: "%.2f", last))) }
        let seconds = history.reduce(0) { $0 + $1.seconds }
        facts.append(ReportFact("seconds", String(format: "%.1f", seconds)))
        try TrainingReportPage(title: corpus.joined(separator: ", "), subtitle: "nlu lm train -o \(output)", facts: facts, charts: charts)
            .write(to: URL(fileURLWithPath: path))
        Console.log("report written: \(path)")
    }

    private func logProgress(_ event: LanguageModelTrainingEvent) {
        switch event {
        case let .prepared(vocabularySize, trainingTokens, validationTokens, startEpoch):
            Console.log("vocabulary \(vocabularySize) tokens; training on \(trainingTokens) tokens, "
                                    + "validating on \(validationTokens)"
                                    + (startEpoch > 0 ? "; resuming after epoch \(startEpoch)" : ""))
        case let .progress(epoch, batch, batches, loss, tokensPerSecond):
            Console.log(String(format: "epoch %d  batch %d/%d  loss %.4f  %.0f tokens/s",
                                           epoch, batch, batches, loss, tokensPerSecond))
        case .epochFinished(let report):
            let perplexity = report.validationPerplexity.map { String(format: "  validation perplexity %.3f", $0) } ?? ""
            Console.log(String(format: "epoch %d done in %.1f s  training loss %.4f", report.epoch, report.seconds,
                                           report.trainingLoss) + perplexity)
        case .checkpointSaved(let url):
            // What Ctrl-C keeps from here on, said when it stops the run; set before the line is printed, so a
            // signal sent on seeing the line finds it.
            Interruption.note = "interrupted: \(url.path) holds the epochs done so far; continue with the same command "
                + "and --resume -o \(url.path)"
            Console.log("checkpoint saved: \(url.path)")
        }
    }
}

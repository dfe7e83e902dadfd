import ArgumentParser
import Foundation
import NLUKit

/// `nlu intents evaluate`: scores a model on a labelled test set, or a dataset by k-fold cross-validation.
struct IntentsEvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Evaluate: a model on a labelled test set, or a dataset by k-fold cross-validation.",
        discussion: """
        nlu intents evaluate --model MODEL TEST     scores MODEL on TEST (any importable format)
        nlu intents evaluate DATASET --folds K      trains K classifiers (training options as for train)

        Prints accuracy, macro-F1, per-intent precision/recall/F1/support, the confusion matrix and the most \
        confused pairs; when the test set has counterexamples or an out-of-scope label, out-of-scope recall and \
        in-scope accuracy at the threshold. --json prints {"accuracy", "macroF1", "perIntent", "confusion", ...}.

        --report FILE.html also writes the report as one self-contained page (no network requests): the \
        confusion matrix with the largest confusions first, per-intent and per-entity precision/recall/F1, a \
        histogram of the confidence of right and wrong predictions, and the worst errors with their text. It \
        replaces only an earlier nlu report page (or an empty file) unless --force is given.
        """)

    @Argument(help: "The test set (with --model) or the dataset to cross-validate (with --folds).")
    var dataset: [String]

    @Option(name: .shortAndLong, help: "The model package to evaluate.")
    var model: String?

    @Option(help: "Cross-validate DATASET with this many folds instead.")
    var folds: Int?

    @Option(help: "Confidence under which the answer is no intent (default: the model's, 0 for --folds).")
    var threshold: Float?

    @OptionGroup var input: DatasetInputOptions
    @OptionGroup var training: IntentsTrainingArguments

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: ArgumentHelp("Also write the report as a self-contained HTML page.", valueName: "FILE.html"))
    var report: String?

    @Flag(help: "Replace a file at --report that is not an nlu report page.")
    var force = false

    @OptionGroup var inputSize: InputSizeOption
    @OptionGroup var precision: PrecisionOption

    func validate() throws {
        switch (model, folds) {
        case (nil, nil): throw ValidationError("give --model MODEL to score a test set, or --folds K to cross-validate")
        case (.some, .some): throw ValidationError("--model and --folds exclude each other")
        case (nil, .some(let k)) where !(2...1000).contains(k): throw ValidationError("--folds must be between 2 and 1000, got \(k)")
        default: break
        }
        if let threshold, !(0...1).contains(threshold) {
            throw ValidationError("--threshold must be between 0 and 1, got \(threshold)")
        }
        // Cross-validation trains bag-of-words models; the joint tagger needs a fine-tuned encoder per fold.
        if folds != nil, training.tagger == .transformer {
            throw ValidationError("""
                --folds does not train the transformer tagger (it fine-tunes an encoder): train it with nlu intents train \
                DATA --fine-tune MODEL --tagger transformer -o M.nlumodel, then score a test set with --model M.nlumodel
                """)
        }
    }

    func run() throws {
        if let report {
            try Console.checkOutput(report, flag: "--report", inputs: dataset + (model.map { [$0] } ?? []))
            try ReportPage.outputFile.checkReplaceable(URL(fileURLWithPath: report), force: force,
                                                       remedy: "choose another path, move it away, or pass --force to replace it")
        }
        let data = try input.load(dataset).dataset
        let evaluation: IntentEvaluation
        let subtitle: String
        var foldAccuracies: [Double] = []
        if let model {
            let classifier = try IntentClassifier.loadWithSentenceFeatures(from: URL(fileURLWithPath: model), precision: precision.precision)
            // Intents the model was never trained on can only be missed: say so rather than score them silently.
            let known = Set(classifier.intents)
            let unknown = data.intents.filter { !known.contains($0.name) && !$0.utterances.isEmpty }
            if !unknown.isEmpty {
                let count = unknown.reduce(0) { $0 + $1.utterances.count }
                let names = unknown.prefix(5).map(\.name).joined(separator: ", ") + (unknown.count > 5 ? ", ..." : "")
                Console.log("warning: \(Console.count(count, "test utterance")) of \(Console.count(unknown.count, "intent")) the model does not have (\(names)): each counts as a miss")
            }
            // A test set the model was trained on scores what it memorised, not what new text gets.
            if let trainingTexts = classifier.trainingTexts {
                let texts = data.intents.flatMap { $0.utterances.map(\.text) } + data.counterexamples.map(\.text)
                let seen = trainingTexts.count(of: texts)
                if !texts.isEmpty, 2 * seen >= texts.count {
                    Console.log("warning: \(seen) of \(Console.count(texts.count, "test utterance")) are in the model's training data: "
                                + "the scores overstate what new text gets; evaluate on held-out utterances (intents import's test "
                                + "split) or with --folds")
                }
            }
            evaluation = classifier.evaluate(on: data, threshold: threshold)
            subtitle = "nlu intents evaluate --model \(model)"
        } else {
            let k = folds ?? 5
            let options = try training.trainingOptions()
            evaluation = try IntentClassifier.crossValidate(
                data, folds: k, features: training.featureOptions(), training: options,
                entities: training.entityOptions(),
                threshold: threshold, file: dataset.joined(separator: ", "), log: { Console.log($0) }) { fold, foldReport in
                Console.log(String(format: "fold %d/%d: accuracy %.4f", fold, k, foldReport.accuracy))
                foldAccuracies.append(foldReport.accuracy)
            }
            subtitle = "nlu intents evaluate --folds \(k) (stratified cross-validation, seed \(options.seed))"
        }
        if let report {
            let facts = foldAccuracies.min().map { lowest in
                [ReportFact("fold accuracy", String(format: "%.1f–%.1f %%", lowest * 100, (foldAccuracies.max() ?? lowest) * 100))]
            } ?? []
            try EvaluationReportPage(evaluation: evaluation, title: dataset.joined(separator: ", "), subtitle: subtitle, facts: facts)
                .write(to: URL(fileURLWithPath: report))
            Console.log("report written: \(report)")
        }
        Console.print(json ? try Console.json(evaluation) : evaluation.table())
    }
}

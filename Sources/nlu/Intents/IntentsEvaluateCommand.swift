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

    @OptionGroup var inputSize: InputSizeOption

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
    }

    func run() throws {
        let data = try input.load(dataset).dataset
        let report: IntentEvaluation
        if let model {
            let classifier = try IntentClassifier.loadWithSentenceFeatures(from: URL(fileURLWithPath: model))
            // Intents the model was never trained on can only be missed: say so rather than score them silently.
            let known = Set(classifier.intents)
            let unknown = data.intents.filter { !known.contains($0.name) && !$0.utterances.isEmpty }
            if !unknown.isEmpty {
                let count = unknown.reduce(0) { $0 + $1.utterances.count }
                let names = unknown.prefix(5).map(\.name).joined(separator: ", ") + (unknown.count > 5 ? ", ..." : "")
                Console.log("warning: \(Console.count(count, "test utterance")) of \(Console.count(unknown.count, "intent")) the model does not have (\(names)): each counts as a miss")
            }
            report = classifier.evaluate(on: data, threshold: threshold)
        } else {
            let k = folds ?? 5
            report = try IntentClassifier.crossValidate(
                data, folds: k, features: training.featureOptions(), training: training.trainingOptions(),
                entities: training.entityOptions(),
                threshold: threshold, file: dataset.joined(separator: ", ")) { fold, foldReport in
                Console.log(String(format: "fold %d/%d: accuracy %.4f", fold, k, foldReport.accuracy))
            }
        }
        Console.print(json ? try Console.json(report) : report.table())
    }
}

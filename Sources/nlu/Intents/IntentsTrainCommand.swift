import ArgumentParser
import Foundation
import NLUKit

/// `nlu intents train`: trains an intent classifier and saves it as an .nlumodel package.
struct IntentsTrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train an intent classifier on a dataset (NLUKit JSON or any importable export).",
        discussion: """
        Counterexamples and out-of-scope labels train a "none" class. Progress per epoch (loss, validation \
        accuracy) goes to stderr; the best epoch on the validation split is kept. The model package is written \
        atomically: an existing package at --output stays intact if anything fails. --output may name a new path, \
        an empty folder or an intent model package (replaced); anything else there is refused (exit 1).
        """)

    @Argument(help: "The dataset: NLUKit JSON or a platform export (several are merged).")
    var dataset: [String]

    @Option(name: .shortAndLong, help: "Where to write the model package (NAME.nlumodel).")
    var output: String

    @OptionGroup var input: DatasetInputOptions
    @OptionGroup var training: IntentsTrainingArguments

    @Option(help: ArgumentHelp(
        "Append this sentence-transformers model's sentence embedding to the bag of words, and give the slot tagger its contextual word vectors (see --tagger) (a directory or a Hub id in the Hugging Face cache); the package records it and prediction loads it again.",
        valueName: "MODEL"))
    var embeddings: String?

    @Option(help: "Default confidence threshold stored in the model (under it: no intent).")
    var threshold: Float = 0

    @Flag(help: "Replace a model package of another kind at --output (never a file or a folder that is not a package).")
    var force = false

    @Flag(help: "Print a JSON summary on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func validate() throws {
        guard threshold >= 0, threshold <= 1 else { throw ValidationError("--threshold must be between 0 and 1, got \(threshold)") }
        guard !output.isEmpty else { throw ValidationError("--output is empty; give a path such as model.nlumodel") }
        if let embeddings, embeddings.isEmpty { throw ValidationError("--embeddings is empty; give a model directory or Hub id") }
        if training.tagger == .encoder, embeddings == nil {
            throw ValidationError("--tagger encoder needs --embeddings MODEL (the encoder whose word vectors it uses)")
        }
    }

    func run() throws {
        try Console.checkOutput(output, inputs: dataset)
        try ModelPackage.checkDestination(URL(fileURLWithPath: output), kind: IntentClassifier.modelKind, replacing: replacement)
        let result = try input.load(dataset)
        let data = result.dataset
        let sentenceFeaturizer = try embeddings.map { try EmbedderSentenceFeaturizer(model: $0) }
        if let sentenceFeaturizer {
            Console.log("sentence features: \(sentenceFeaturizer.reference.model) (\(sentenceFeaturizer.reference.dimension) values per utterance)")
        }
        Console.log("training on \(data.intents.count) intents, \(data.utteranceCount) utterances, \(data.counterexamples.count) counterexamples")
        let clock = ContinuousClock()
        let start = clock.now
        var epochs = 0
        var classifier = try IntentClassifier.train(
            on: data, features: training.featureOptions(), training: training.trainingOptions(),
            entities: training.entityOptions(), file: dataset.joined(separator: ", "), sentenceFeaturizer: sentenceFeaturizer,
            wordVectors: sentenceFeaturizer, progress: { report in
            epochs = report.epoch
            var line = String(format: "epoch %d: loss %.4f", report.epoch, report.trainingLoss)
            if let accuracy = report.validationAccuracy, let loss = report.validationLoss {
                line += String(format: ", validation accuracy %.4f, validation loss %.4f", accuracy, loss)
                if report.isBest { line += " *" }
            }
            Console.log(line)
        }, entityProgress: { iteration, loss in
            if iteration == 1 || iteration % 10 == 0 { Console.log(String(format: "slot tagger iteration %d: loss %.4f", iteration, loss)) }
        }, entityLog: { Console.log($0) })
        let elapsed = clock.now - start
        classifier.threshold = threshold
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        try classifier.save(to: URL(fileURLWithPath: output), metadata: [
            "trainedWith": "nlu intents train", "nlukitVersion": NLUKitVersion.string,
            "utterances": "\(data.utteranceCount)", "counterexamples": "\(data.counterexamples.count)",
        ], replacing: replacement)
        let summary = Summary(output: output, intents: classifier.intents.count, noneClass: classifier.hasNoneClass,
                              features: classifier.featurizer.dimension, sentenceEmbeddings: classifier.sentenceFeaturizer?.reference,
                              minDocumentFrequency: classifier.featurizer.options.minDocumentFrequency ?? 1, epochs: epochs,
                              seconds: (seconds * 100).rounded() / 100,
                              tagger: classifier.entityExtractor?.tagger?.kind.rawValue,
                              slotLabels: classifier.entityExtractor?.tagger?.crf.labelCount ?? 0,
                              slotFeatures: classifier.entityExtractor?.tagger?.crf.stateFeatureCount ?? 0,
                              entityDefinitions: classifier.entityExtractor?.definitions.count ?? 0)
        if json {
            Console.print(try Console.json(summary, sortedKeys: false))
        } else {
            Console.print("saved \(output): \(summary.intents) intents\(summary.noneClass ? " + none class" : ""), \(summary.features) features (min-df \(summary.minDocumentFrequency))\(summary.sentenceEmbeddings.map { " + \($0.dimension) from \($0.model)" } ?? ""), \(summary.epochs) epochs, \(String(format: "%.2f", seconds)) s")
            if summary.slotLabels > 0 || summary.entityDefinitions > 0 {
                Console.print("entities: \(summary.tagger == "encoder" ? "encoder " : "")slot tagger with \(summary.slotLabels) tags and \(summary.slotFeatures) state features, \(summary.entityDefinitions) entity definitions")
            }
        }
    }

    private var replacement: ModelPackage.Replacement { force ? .anyModelPackage : .sameKind }

    struct Summary: Encodable {
        var output: String
        var intents: Int
        var noneClass: Bool
        var features: Int
        var sentenceEmbeddings: SentenceFeaturizerReference?
        var minDocumentFrequency: Int
        var epochs: Int
        var seconds: Double
        var tagger: String?
        var slotLabels: Int
        var slotFeatures: Int
        var entityDefinitions: Int
    }
}

import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench intents`: trains on the Snips training files and evaluates on the validation files in
/// one process; prints accuracy, macro-F1, training seconds, single-utterance latency and load time
/// as JSON (benchmarks/intents.py puts scikit-learn's figures next to them).
struct IntentsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intents",
        abstract: "Train and evaluate an intent classifier; print accuracy and timings as JSON.")

    @Option(parsing: .upToNextOption, help: "Training files (any importable format).")
    var train: [String]

    @Option(parsing: .upToNextOption, help: "Test files.")
    var test: [String]

    @Option(help: "Hidden layer sizes, comma-separated.")
    var hidden: String?

    @Option(help: "Maximum epochs.") var epochs: Int?
    @Option(help: "Mini-batch size.") var batchSize: Int?
    @Option(help: "Learning rate.") var learningRate: Float?
    @Option(help: "Dropout.") var dropout: Float?
    @Option(help: "Weight decay.") var weightDecay: Float?
    @Option(help: "Character n-grams, e.g. 2-5, or 'none'.") var charNgrams: String?
    @Option(help: "Word n-grams, e.g. 1-2.") var wordNgrams: String?
    @Option(help: "Minimum document frequency.") var minDf: Int?
    @Flag(help: "Disable stemming.") var noStemming = false
    @Option(help: "Seed.") var seed: UInt64 = 42
    @Option(help: "Repetitions of the latency pass over the test utterances.") var latencyPasses: Int = 3

    func run() throws {
        var training = TrainingOptions()
        var features = FeatureOptions()
        if let hidden { training.hiddenSizes = hidden.split(separator: ",").compactMap { Int($0) } }
        if let epochs { training.epochs = epochs }
        if let batchSize { training.batchSize = batchSize }
        if let learningRate { training.learningRate = learningRate }
        if let dropout { training.dropout = dropout }
        if let weightDecay { training.weightDecay = weightDecay }
        if let charNgrams { features.characterNGrams = Self.range(charNgrams) }
        if let wordNgrams, let range = Self.range(wordNgrams) { features.wordNGrams = range }
        if let minDf { features.minDocumentFrequency = minDf }
        if noStemming { features.stemming = false }
        training.seed = seed

        let trainSet = try IntentImporter.importDataset(from: train.map { URL(fileURLWithPath: $0) }).dataset
        let testSet = try IntentImporter.importDataset(from: test.map { URL(fileURLWithPath: $0) }).dataset
        let clock = ContinuousClock()
        var epochsRun = 0
        let start = clock.now
        let classifier = try IntentClassifier.train(on: trainSet, features: features, training: training, entities: nil) { report in
            epochsRun = report.epoch
            FileHandle.standardError.write(Data(String(format: "epoch %d loss %.4f val %.4f\n", report.epoch, report.trainingLoss,
                                                       report.validationAccuracy ?? 0).utf8))
        }
        let trainSeconds = (clock.now - start).seconds

        let report = classifier.evaluate(on: testSet)
        let utterances = testSet.intents.flatMap { $0.utterances.map(\.text) }
        var latencies: [Double] = []
        for _ in 0..<max(1, latencyPasses) {
            for text in utterances {
                let begin = clock.now
                let prediction = classifier.predict(text, top: 1)
                latencies.append((clock.now - begin).seconds)
                withExtendedLifetime(prediction) {}
            }
        }
        latencies.sort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nlu-bench-intents-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let modelURL = directory.appendingPathComponent("snips.nlumodel")
        try classifier.save(to: modelURL)
        var loads: [Double] = []
        for _ in 0..<5 {
            let begin = clock.now
            let loaded = try IntentClassifier.load(from: modelURL)
            _ = loaded.predict("warm up", top: 1)
            loads.append((clock.now - begin).seconds)
        }
        loads.sort()
        let result: [String: Any] = [
            "accuracy": report.accuracy, "macroF1": report.macroF1, "trainSeconds": trainSeconds,
            "epochs": epochsRun, "features": classifier.featurizer.dimension,
            "hidden": training.hiddenSizes, "latencyP50Microseconds": latencies[latencies.count / 2] * 1e6,
            "latencyP99Microseconds": latencies[min(latencies.count - 1, latencies.count * 99 / 100)] * 1e6,
            "loadMilliseconds": loads[loads.count / 2] * 1e3, "testUtterances": report.count,
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    static func range(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2, parts[0] >= 1, parts[0] <= parts[1] else { return nil }
        return parts[0]...parts[1]
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}

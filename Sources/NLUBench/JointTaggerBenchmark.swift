import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench joint-tagger`: fine-tunes the joint intent + slot model (``JointIntentSlotFineTuner``)
/// on training files and parses the test utterances; prints one JSON object: the training time, the
/// per-utterance parse latency and each test utterance's intent and entities; with `--baseline`, the
/// same for today's intents model (bag-of-words intents + CRF slot tagger) trained on the same utterances.
struct JointTaggerBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "joint-tagger",
        abstract: "Fine-tune the joint intent + slot model and parse the test utterances; prints JSON.")

    @Option(help: "The checkpoint to fine-tune (a Hugging Face or sentence-transformers folder).") var model: String
    @Option(parsing: .upToNextOption, help: "Training files (any importable format).") var train: [String]
    @Option(parsing: .upToNextOption, help: "Test files (any importable format).") var test: [String]
    @Flag(help: "A CRF layer over the words' tags.") var crf = false
    @Option(help: "Epochs.") var epochs = 3
    @Option(help: "Utterances per batch.") var batchSize = 32
    @Option(help: "Peak learning rate.") var learningRate: Float = 5e-5
    @Option(help: "The first N utterances of each training intent (0: all).") var perIntent = 0
    @Flag(help: "Also train and run today's intents model (bag of words + CRF tagger) on the same split.") var baseline = false

    func run() throws {
        guard perIntent >= 0 else { throw ValidationError("--per-intent must be at least 0, got \(perIntent)") }
        var trainSet = try IntentImporter.importDataset(from: train.map { URL(fileURLWithPath: $0) }).dataset
        if perIntent > 0 {
            for index in trainSet.intents.indices { trainSet.intents[index].utterances = Array(trainSet.intents[index].utterances.prefix(perIntent)) }
        }
        let testSet = try IntentImporter.importDataset(from: test.map { URL(fileURLWithPath: $0) }).dataset
        var options = JointIntentSlotOptions()
        options.crf = crf
        options.training.epochs = epochs
        options.training.batchSize = batchSize
        options.training.learningRate = learningRate
        let tuner = try JointIntentSlotFineTuner(checkpoint: URL(fileURLWithPath: model), options: options)
        let clock = ContinuousClock()
        let began = clock.now
        let result = try tuner.train(trainSet) { progress in
            if progress.step % 50 == 0 || progress.step == progress.totalSteps {
                FileHandle.standardError.write(Data("epoch \(progress.epoch) step \(progress.step)/\(progress.totalSteps) loss \(progress.loss) \(Int(progress.examplesPerSecond)) utterances/s\n".utf8))
            }
        }
        let trainingSeconds = (clock.now - began).seconds
        var latencies: [Double] = []
        var predictions: [[String: Any]] = []
        for intent in testSet.intents {
            for utterance in intent.utterances {
                let start = clock.now
                let parse = try result.tagger.parse(utterance.text)
                latencies.append((clock.now - start).seconds)
                predictions.append(["text": utterance.text, "intent": parse.intents.first?.name ?? "",
                                    "entities": parse.entities.map { ["entity": $0.entity, "start": $0.start, "end": $0.end] as [String: Any] }])
            }
        }
        latencies.sort()
        var output: [String: Any] = [
            "trainingUtterances": trainSet.intents.reduce(0) { $0 + $1.utterances.count }, "crf": crf, "epochs": epochs,
            "trainingSeconds": trainingSeconds, "optimizerSteps": result.steps.count,
            "parseLatencyP50Milliseconds": latencies.isEmpty ? 0 : latencies[latencies.count / 2] * 1000,
            "predictions": predictions,
        ]
        if baseline {
            let start = clock.now
            let classifier = try IntentClassifier.train(on: trainSet)
            output["baselineTrainingSeconds"] = (clock.now - start).seconds
            output["baselinePredictions"] = testSet.intents.flatMap { intent in
                intent.utterances.map { utterance -> [String: Any] in
                    let prediction = classifier.predict(utterance.text, top: 1)
                    return ["text": utterance.text, "intent": prediction.intent ?? "",
                            "entities": prediction.entities.map { ["entity": $0.entity, "start": $0.start, "end": $0.end] as [String: Any] }]
                }
            }
        }
        let data = try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys])
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}

import ArgumentParser
import Foundation
import NLUKit

extension FineTuningMetric: ExpressibleByArgument {}

/// `nlu-bench joint-tagger`: trains the joint intent + slot model as `nlu intents train --fine-tune MODEL
/// --tagger transformer` does (``IntentClassifier/fineTuneJoint(on:model:options:entities:file:validation:saving:resume:checkpointSaved:progress:validated:entityLog:)``),
/// saves it as a package, loads it as `nlu intents predict` does (F32 and INT8) and predicts the test
/// utterances; prints one JSON object: the training time, the per-utterance prediction latency (intent and
/// entities, median) at each precision and each test utterance's intent and entities; with `--baseline`, the
/// same for today's intents model (bag-of-words intents + CRF slot tagger) trained on the same utterances.
/// With `--curve`, the test utterances are also scored after each epoch (``FineTuningValidation``: a learning
/// curve for reading how much the figures move from epoch to epoch; the model predicted from is still the
/// last epoch's, nothing is chosen on the test set). With `--validation FILE --keep-best SCORE`, held-out
/// utterances (a development split) are scored after each epoch instead and the run keeps its best epoch by
/// SCORE, as `nlu intents train --validation-file --keep-best` does: a model chosen as the joint papers choose
/// theirs, on development data, never on the test set.
struct JointTaggerBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "joint-tagger",
        abstract: "Fine-tune the joint intent + slot model, predict the test utterances from its package; prints JSON.")

    @Option(help: "The checkpoint to fine-tune (a Hugging Face or sentence-transformers folder, or a Hub id in the cache).") var model: String
    @Option(parsing: .upToNextOption, help: "Training files (any importable format).") var train: [String]
    @Option(parsing: .upToNextOption, help: "Test files (any importable format).") var test: [String]
    @Flag(inversion: .prefixedNo, help: "A CRF layer over the words' tags (default: the joint model's).") var crf: Bool?
    @Flag(inversion: .prefixedNo, help: "The words' shapes in the slot head (default: the joint model's).") var wordShapes: Bool?
    @Option(help: "The slot loss's weight beside the intent loss (default: the joint model's).") var slotLossWeight: Float?
    @Option(help: "Epochs (default: the joint model's, JointBERT's 10).") var epochs = JointIntentSlotOptions.defaultEpochs
    @Option(help: "Utterances per batch.") var batchSize = 32
    @Option(help: "Peak learning rate.") var learningRate: Float = 5e-5
    @Option(help: "Peak learning rate of the heads and the CRF (default: the joint model's).") var headLearningRate: Float?
    @Option(help: "The first N utterances of each training intent (0: all).") var perIntent = 0
    @Option(help: "The first N test utterances (0: all).") var testLimit = 0
    @Option(help: "Seeds the heads' initial weights, the batch order and dropout.") var seed: UInt64 = 42
    @Flag(help: "Also train and run today's intents model (bag of words + CRF tagger) on the same split.") var baseline = false
    @Flag(help: "Also score the test utterances after each epoch (a learning curve; the last epoch is still the one predicted from).")
    var curve = false
    @Option(parsing: .upToNextOption, help: "Development files scored after each epoch, for --keep-best (not with --curve).")
    var validation: [String] = []
    @Option(help: "The score on --validation whose best epoch the run keeps (accuracy, loss, slot-f1, exact-slots, frame-accuracy).")
    var keepBest: FineTuningMetric?

    func run() throws {
        guard validation.isEmpty || !curve else { throw ValidationError("--curve scores the test set after each epoch; --validation a development set: give one") }
        guard (keepBest == nil) == validation.isEmpty else { throw ValidationError("--keep-best and --validation go together") }
        guard perIntent >= 0 else { throw ValidationError("--per-intent must be at least 0, got \(perIntent)") }
        guard testLimit >= 0 else { throw ValidationError("--test-limit must be at least 0, got \(testLimit)") }
        var trainSet = try IntentImporter.importDataset(from: train.map { URL(fileURLWithPath: $0) }).dataset
        if perIntent > 0 {
            for index in trainSet.intents.indices { trainSet.intents[index].utterances = Array(trainSet.intents[index].utterances.prefix(perIntent)) }
        }
        let testSet = try IntentImporter.importDataset(from: test.map { URL(fileURLWithPath: $0) }).dataset
        var texts = testSet.intents.flatMap { $0.utterances.map(\.text) }
        if testLimit > 0 { texts = Array(texts.prefix(testLimit)) }
        var options = JointIntentSlotOptions()
        options.crf = crf ?? options.crf
        options.wordShapes = wordShapes ?? options.wordShapes
        options.slotLossCoefficient = slotLossWeight ?? options.slotLossCoefficient
        options.training.epochs = epochs
        options.training.batchSize = batchSize
        options.training.learningRate = learningRate
        options.training.seed = seed
        if let headLearningRate { options.training.headLearningRate = headLearningRate }
        options.training.keepBest = keepBest
        let development = validation.isEmpty ? nil : try IntentImporter.importDataset(from: validation.map { URL(fileURLWithPath: $0) }).dataset
        let clock = ContinuousClock()
        let began = clock.now
        var steps = 0
        var curvePoints: [[String: Any]] = []
        let classifier = try IntentClassifier.fineTuneJoint(on: trainSet, model: model, options: options, file: train.joined(separator: ", "),
                                                            validation: curve ? testSet : development, progress: { progress in
            steps = progress.step
            if progress.step % 50 == 0 || progress.step == progress.totalSteps {
                FileHandle.standardError.write(Data("epoch \(progress.epoch) step \(progress.step)/\(progress.totalSteps) loss \(progress.loss) \(Int(progress.examplesPerSecond)) utterances/s\n".utf8))
            }
        }, validated: { score in
            // Every test utterance (--test-limit cuts the predictions only).
            // No loss when no test utterance's intent was trained (JSONSerialization takes no optionals).
            var point: [String: Any] = ["epoch": score.epoch, "intentAccuracy": score.intentAccuracy,
                                        "slotF1": score.slots?.f1 ?? 0, "exactUtterances": score.slots?.exactUtterances ?? 0,
                                        "frameAccuracy": score.slots?.frameAccuracy ?? 0, "isBest": score.isBest ?? false]
            if let loss = score.loss { point["loss"] = loss }
            curvePoints.append(point)
        })
        let trainingSeconds = (clock.now - began).seconds
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nlu-bench-joint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = folder.appendingPathComponent("joint.nlumodel")
        try classifier.save(to: package)

        var output: [String: Any] = [
            "trainingUtterances": trainSet.intents.reduce(0) { $0 + $1.utterances.count }, "crf": options.crf, "wordShapes": options.wordShapes, "slotLossWeight": Double(options.slotLossCoefficient), "epochs": epochs,
            "headLearningRate": options.training.headLearningRate.map { Double($0) } ?? Double(learningRate),
            "trainingSeconds": trainingSeconds, "optimizerSteps": steps,
        ]
        if curve { output["curve"] = curvePoints }
        if development != nil {
            output["validationCurve"] = curvePoints
            output["keptEpoch"] = curvePoints.last { $0["isBest"] as? Bool == true }?["epoch"] ?? epochs
        }
        for (key, precision) in [("", Precision.f32), ("Int8", Precision.int8)] {
            let loaded = try IntentClassifier.loadWithSentenceFeatures(from: package, precision: precision)
            let run = Self.predict(loaded, texts, clock: clock)
            output["predictions" + key] = run.predictions
            output["latencyP50Milliseconds" + key] = run.latencyP50 * 1000
        }
        if baseline {
            let start = clock.now
            let bagOfWords = try IntentClassifier.train(on: trainSet)
            output["baselineTrainingSeconds"] = (clock.now - start).seconds
            let run = Self.predict(bagOfWords, texts, clock: clock)
            output["baselinePredictions"] = run.predictions
            output["baselineLatencyP50Milliseconds"] = run.latencyP50 * 1000
        }
        let data = try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys])
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// Each text's intent and entities as `nlu intents predict` gives them, and the median time of one prediction.
    static func predict(_ classifier: IntentClassifier, _ texts: [String], clock: ContinuousClock) -> (predictions: [[String: Any]], latencyP50: Double) {
        var latencies: [Double] = []
        let predictions = texts.map { text -> [String: Any] in
            let start = clock.now
            let prediction = classifier.predict(text, top: 1)
            latencies.append((clock.now - start).seconds)
            return ["text": text, "intent": prediction.intent ?? "",
                    "entities": prediction.entities.map { ["entity": $0.entity, "start": $0.start, "end": $0.end] as [String: Any] }]
        }
        latencies.sort()
        return (predictions, latencies.isEmpty ? 0 : latencies[latencies.count / 2])
    }
}

import Foundation
import NLUCore
import NLUIntents
import NLUPipelines
import NLUTestSupport
import NLUTransformers
import Testing

/// A fine-tuned intent model as a package: saved with its encoder inside, loaded through
/// NLUPipelines (the one loader every front uses), it answers with the trainer's own logits.
@Suite struct FineTunedIntentPackageTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let checkpoint = fixtures.appendingPathComponent("embeddings/minilm-tiny")

    static func dataset() -> IntentDataset {
        IntentDataset(intents: [
            Intent(name: "play_music", utterances: ["play some jazz", "put on music", "play a song", "start the radio"]),
            Intent(name: "weather", utterances: ["is it raining", "weather tomorrow", "how cold is it", "will it snow"]),
            Intent(name: "lights_on", utterances: ["turn the lights on", "switch on the lamp", "lights please", "more light"]),
        ])
    }

    static func options() -> IntentFineTuningOptions {
        var options = IntentFineTuningOptions()
        options.epochs = 3
        options.batchSize = 4
        options.learningRate = 5e-3
        options.seed = 11
        return options
    }

    static func temporaryPackage() throws -> URL {
        let folder = try TestScratch.folder("finetuned")
        return folder.appendingPathComponent("tuned.nlumodel")
    }

    /// The loaded package's probabilities against softmax of `EncoderClassifierTrainer.logits` after the
    /// same seeded run: the encoder is rerun by the inference encoder (packed GEMM) rather than the
    /// training one, and the head by the network: within 1e-4 absolute (measured about 1e-6).
    @Test func loadedPackageAnswersWithTheTrainersLogits() throws {
        let dataset = Self.dataset()
        let texts = ["play jazz please", "is it cold outside", "lamp on", "something else entirely"]
        let tuner = try IntentFineTuner(checkpoint: Self.checkpoint, options: Self.options())
        let run = try tuner.train(dataset)
        let batch = try EncoderBatch(tokenIDs: texts.map { tuner.tokenIDs($0) }, padID: tuner.padID)
        let logits = try run.trainer.logits(batch)

        let classifier = try IntentClassifier.fineTune(on: dataset, checkpoint: Self.checkpoint, options: Self.options(), entities: nil)
        let url = try Self.temporaryPackage()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try classifier.save(to: url)
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("encoder/model.safetensors").path))
        // Only the Transformer and Pooling modules: the head reads the pooled vector, not minilm-tiny's Dense output.
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathComponent("encoder/2_Dense").path))
        let loaded = try IntentClassifier.loadWithSentenceFeatures(from: url)
        #expect(loaded.fineTuning == Self.options() && loaded.network.hiddenSizes.isEmpty)
        #expect(loaded.intents == run.intents)

        let classes = run.intents.count
        var worst: Float = 0
        for (row, text) in texts.enumerated() {
            var expected = Array(logits.scalars[row * classes..<(row + 1) * classes])
            let largest = expected.max() ?? 0
            expected = expected.map { expf($0 - largest) }
            let sum = expected.reduce(0, +)
            let inMemory = classifier.probabilities(for: text), reloaded = loaded.probabilities(for: text)
            for (index, intent) in run.intents.enumerated() {
                let reference = expected[index] / sum
                worst = max(worst, abs((inMemory[intent] ?? -1) - reference), abs((reloaded[intent] ?? -1) - reference))
            }
        }
        #expect(worst < 1e-4, "largest probability difference \(worst)")
        print("fine-tuned package vs trainer logits: largest probability difference \(worst)")
    }

    /// A package that the bag of words wrote keeps loading, and a fine-tuned one saved again (from
    /// its loaded form) carries its encoder along.
    @Test func reloadedFineTunedPackageSavesItsEncoderAgain() throws {
        let classifier = try IntentClassifier.fineTune(on: Self.dataset(), checkpoint: Self.checkpoint, options: Self.options(), entities: nil)
        let url = try Self.temporaryPackage()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try classifier.save(to: url)
        let loaded = try IntentClassifier.loadWithSentenceFeatures(from: url)
        let copy = url.deletingLastPathComponent().appendingPathComponent("copy.nlumodel")
        try loaded.save(to: copy)
        let again = try IntentClassifier.loadWithSentenceFeatures(from: copy)
        #expect(again.probabilities(for: "play jazz") == loaded.probabilities(for: "play jazz"))
        // Saving over a fine-tuned package replaces it, encoder folder included.
        try loaded.save(to: url)
    }

    /// A few-shot package whose head reads the bag of words beside the sentence vector (the default):
    /// the head spans the vocabulary and the pooled width, the package records the setting, and the
    /// loaded package answers as the trained classifier (within 1e-5); without it the head reads the
    /// vector alone. A manifest from before the setting (no `bagOfWords`) reads as nil: the vector alone.
    @Test func fewShotPackageReadsTheBagOfWordsBesideTheVector() throws {
        var options = SetFitOptions()
        options.iterations = 2
        options.learningRate = 5e-3
        options.headRegularization = 10
        let classifier = try IntentClassifier.fewShotFineTune(on: Self.dataset(), checkpoint: Self.checkpoint, options: options, entities: nil)
        let pooled = try #require(classifier.sentenceFeaturizer?.reference.dimension)
        #expect(classifier.featurizer.dimension > 20 && classifier.network.inputDimension == classifier.featurizer.dimension + pooled)
        #expect(classifier.fewShot?.bagOfWords == true && classifier.sentenceFeaturizer?.reference.normalized == true)
        let url = try Self.temporaryPackage()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try classifier.save(to: url)
        let loaded = try IntentClassifier.loadWithSentenceFeatures(from: url)
        #expect(loaded.fewShot == classifier.fewShot && loaded.featurizer.terms == classifier.featurizer.terms)
        var worst: Float = 0
        for text in ["play jazz please", "is it cold outside", "lamp on", "something else entirely"] {
            let inMemory = classifier.probabilities(for: text), reloaded = loaded.probabilities(for: text)
            for (intent, probability) in inMemory { worst = max(worst, abs(probability - (reloaded[intent] ?? -1))) }
        }
        #expect(worst <= 1e-5, "largest probability difference \(worst)")

        options.bagOfWords = false
        let vectorOnly = try IntentClassifier.fewShotFineTune(on: Self.dataset(), checkpoint: Self.checkpoint, options: options, entities: nil)
        #expect(vectorOnly.featurizer.dimension == 0 && vectorOnly.network.inputDimension == pooled)

        var saved = try JSONSerialization.jsonObject(with: JSONEncoder().encode(options)) as? [String: Any] ?? [:]
        saved["bagOfWords"] = nil
        let older = try JSONDecoder().decode(SetFitOptions.self, from: JSONSerialization.data(withJSONObject: saved))
        #expect(older.bagOfWords == nil && SetFitOptions().bagOfWords == true)
    }
}

import Foundation
import NLUTestSupport
import Testing
import NLUCore
@testable import NLUIntents

/// Sentence features appended to the bag of words: where they go in the input, what the package
/// records, and that loading asks for the same featurizer again.
@Suite struct SentenceFeaturesTests {
    /// Features worked out by hand: [character count, number of "o" letters, 0.5].
    struct CountingFeaturizer: SentenceFeaturizer {
        var reference = SentenceFeaturizerReference(model: "test/counting", revision: "r1", dimension: 3)
        func features(for texts: [String]) -> [[Float]] {
            texts.map { [Float($0.count), Float($0.filter { $0 == "o" }.count), 0.5] }
        }
    }

    @Test func sentenceFeaturesFollowTheVocabulary() throws {
        let dataset = try ClassifierTests.smallDataset()
        let classifier = try IntentClassifier.train(on: dataset, training: ClassifierTests.quickOptions(seed: 1),
                                                    entities: nil, sentenceFeaturizer: CountingFeaturizer())
        let vocabulary = classifier.featurizer.dimension
        #expect(classifier.network.inputDimension == vocabulary + 3)
        let text = "turn the radio on"
        let input = classifier.inputs(for: [text])[0]
        let words = classifier.featurizer.vector(for: text)
        #expect(Array(input.indices.prefix(words.count)) == words.indices)
        #expect(Array(input.values.prefix(words.count)) == words.values)
        // 17 characters, 2 "o" (radio, on), then the constant.
        #expect(Array(input.indices.dropFirst(words.count)) == [Int32(vocabulary), Int32(vocabulary + 1), Int32(vocabulary + 2)])
        #expect(Array(input.values.dropFirst(words.count)) == [17, 2, 0.5])
    }

    @Test func packageRecordsTheEmbedderAndLoadingNeedsIt() throws {
        let dataset = try ClassifierTests.smallDataset()
        let classifier = try IntentClassifier.train(on: dataset, training: ClassifierTests.quickOptions(seed: 2),
                                                    entities: nil, sentenceFeaturizer: CountingFeaturizer())
        let url = try TestScratch.folder().appendingPathComponent("car.nlumodel")
        try classifier.save(to: url)

        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("manifest.json"))) as? [String: Any]
        let recorded = (manifest?["config"] as? [String: Any])?["sentenceEmbeddings"] as? [String: Any]
        #expect(recorded?["model"] as? String == "test/counting")
        #expect(recorded?["revision"] as? String == "r1")
        #expect(recorded?["dimension"] as? Int == 3)

        #expect(throws: IntentClassifierError.sentenceFeaturizerRequired(
            model: url.path, needed: CountingFeaturizer().reference,
            reason: "load it with NLUKit (nlu intents predict does), which finds that model")) {
            try IntentClassifier.load(from: url)
        }
        var asked: SentenceFeaturizerReference?
        let loaded = try IntentClassifier.load(from: url) { reference in
            asked = reference
            return CountingFeaturizer()
        }
        #expect(asked == CountingFeaturizer().reference)
        for text in ["turn the heater off", "will it snow", "ring my brother"] {
            #expect(loaded.predict(text, top: 3) == classifier.predict(text, top: 3))
        }
        var narrow = CountingFeaturizer()
        narrow.reference.dimension = 2
        #expect(throws: IntentClassifierError.self) { try IntentClassifier.load(from: url) { _ in narrow } }
    }

    /// `maxFeatures` 0: no bag of words, the sentence features are the whole input; the package saves,
    /// loads and predicts the same. Without sentence features that leaves nothing to train on.
    @Test func sentenceFeaturesAloneWithoutABagOfWords() throws {
        let dataset = try ClassifierTests.smallDataset()
        var features = FeatureOptions()
        features.maxFeatures = 0
        let classifier = try IntentClassifier.train(on: dataset, features: features, training: ClassifierTests.quickOptions(seed: 3),
                                                    entities: nil, sentenceFeaturizer: CountingFeaturizer())
        #expect(classifier.featurizer.dimension == 0)
        #expect(classifier.network.inputDimension == 3)
        let input = classifier.inputs(for: ["turn the radio on"])[0]
        #expect(input.indices == [0, 1, 2])
        #expect(input.values == [17, 2, 0.5])
        let url = try TestScratch.folder().appendingPathComponent("embeddings-only.nlumodel")
        try classifier.save(to: url)
        let loaded = try IntentClassifier.load(from: url) { _ in CountingFeaturizer() }
        #expect(loaded.featurizer.dimension == 0)
        for text in ["turn the heater off", "will it snow", "ring my brother"] {
            #expect(loaded.predict(text, top: 3) == classifier.predict(text, top: 3))
        }
        #expect(throws: IntentClassifierError.noFeatures(
            reason: "maxFeatures is 0 (no bag of words) and no sentence embeddings are given: the model would have no features")) {
            try IntentClassifier.train(on: dataset, features: features, training: ClassifierTests.quickOptions(seed: 3), entities: nil)
        }
    }

    @Test func modelsWithoutSentenceFeaturesLoadAsBefore() throws {
        let dataset = try ClassifierTests.smallDataset()
        let classifier = try IntentClassifier.train(on: dataset, training: ClassifierTests.quickOptions(seed: 1), entities: nil)
        let url = try TestScratch.folder().appendingPathComponent("plain.nlumodel")
        try classifier.save(to: url)
        var asked = false
        let loaded = try IntentClassifier.load(from: url) { _ in asked = true; return CountingFeaturizer() }
        #expect(!asked)
        #expect(loaded.sentenceFeaturizer == nil)
        #expect(loaded.predict("volume up") == classifier.predict("volume up"))
    }
}

import Foundation
import Testing
@testable import NLUIntents

/// The vocabulary pruning adapts to the dataset's size: a few examples per intent keep every term,
/// a large dataset drops rare ones; an explicit minimum always wins.
@Suite struct MinimumDocumentFrequencyTests {
    /// Three intents of three utterances, no word shared by three of them: the size of a chat bot
    /// sketched in an afternoon.
    static let tinyDataset = IntentDataset(intents: [
        Intent(name: "weather", utterances: [Utterance("will it rain tomorrow"), Utterance("what is the forecast"), Utterance("is it sunny outside")]),
        Intent(name: "music", utterances: [Utterance("play some jazz"), Utterance("put on a song"), Utterance("play music by queen")]),
        Intent(name: "lights", utterances: [Utterance("turn off the lights"), Utterance("switch the lamp on"), Utterance("dim the lights")]),
    ])

    @Test func automaticMinimumGrowsWithTheNumberOfTrainingUtterances() {
        let expected = [0: 1, 1: 1, 9: 1, 499: 1, 500: 2, 4_999: 2, 5_000: 3, 12_406: 3, 1_000_000: 3]
        for (count, minimum) in expected {
            #expect(FeatureOptions.automaticMinimumDocumentFrequency(trainingUtterances: count) == minimum, "\(count) utterances")
            #expect(FeatureOptions().minimumDocumentFrequency(trainingUtterances: count) == minimum, "\(count) utterances")
        }
    }

    @Test func explicitMinimumWinsAtAnySize() {
        var options = FeatureOptions()
        options.minDocumentFrequency = 5
        for count in [0, 9, 500, 50_000] { #expect(options.minimumDocumentFrequency(trainingUtterances: count) == 5) }
        options.minDocumentFrequency = 0   // the same as 1: every term occurs at least once
        #expect(options.minimumDocumentFrequency(trainingUtterances: 50_000) == 1)
    }

    @Test func fitKeepsTermsAsTheMinimumSaysAndRecordsIt() {
        var options = FeatureOptions()
        options.stemming = false
        options.characterNGrams = nil
        let texts = ["play jazz", "play rock", "play jazz now"]
        // Worked by hand: "play" is in 3 texts, "jazz" and "play jazz" in 2, the rest in 1.
        let automatic = TextFeaturizer.fit(texts, options: options)
        #expect(automatic.terms == ["jazz", "jazz now", "now", "play", "play jazz", "play rock", "rock"])
        #expect(automatic.options.minDocumentFrequency == 1)
        options.minDocumentFrequency = 2
        let two = TextFeaturizer.fit(texts, options: options)
        #expect(two.terms == ["jazz", "play", "play jazz"])
        #expect(two.options.minDocumentFrequency == 2)
        options.minDocumentFrequency = 3
        #expect(TextFeaturizer.fit(texts, options: options).terms == ["play"])
    }

    @Test func tinyDatasetClassifiesItsExamplesAndParaphrases() throws {
        let paraphrases = [
            ("is it going to rain today", "weather"), ("what's the weather forecast", "weather"),
            ("play a song by abba", "music"), ("put on some music", "music"),
            ("switch off the lamp", "lights"), ("turn the lights on", "lights"),
        ]
        for seed: UInt64 in [1, 2, 42] {
            var training = TrainingOptions()
            training.seed = seed
            let classifier = try IntentClassifier.train(on: Self.tinyDataset, training: training)
            #expect(classifier.featurizer.options.minDocumentFrequency == 1)
            for intent in Self.tinyDataset.intents {
                for utterance in intent.utterances {
                    #expect(classifier.predict(utterance.text).intent == intent.name, "seed \(seed): \(utterance.text)")
                }
            }
            for (text, intent) in paraphrases {
                #expect(classifier.predict(text).intent == intent, "seed \(seed): \(text)")
            }
        }
    }

    @Test func explicitMinimumIsRespectedInTraining() throws {
        // Pruning below 3 (the former default) leaves only the terms of "the" (in 4 of the 9 utterances).
        var features = FeatureOptions()
        features.minDocumentFrequency = 3
        let pruned = try IntentClassifier.train(on: Self.tinyDataset, features: features)
        #expect(pruned.featurizer.options.minDocumentFrequency == 3)
        let extractor = TermExtractor(options: features)
        let utteranceTerms = Self.tinyDataset.intents.flatMap(\.utterances).map { Set(extractor.terms(in: $0.text)) }
        #expect(!pruned.featurizer.terms.isEmpty)
        for term in pruned.featurizer.terms { #expect(utteranceTerms.filter { $0.contains(term) }.count >= 3, "\(term)") }
        #expect(pruned.featurizer.terms.allSatisfy { $0.contains("th") || $0.contains("he") })

        features.minDocumentFrequency = 5
        #expect(throws: IntentClassifierError.noFeatures(reason: "dataset: no term occurs in at least 5 training utterances (minimum document frequency)")) {
            try IntentClassifier.train(on: Self.tinyDataset, features: features)
        }
    }
}

import Foundation
import NLUTestSupport
import Testing
import NLUCore
import NLUText
@testable import NLUIntents

/// The encoder slot tagger: clusters of an encoder's word vectors as CRF features, how the tagger kind
/// is chosen, what the package records, and that loading asks for the same encoder. The encoder here
/// is a stand-in whose vectors are worked out by hand (NLUEmbeddings' own tests check the real one
/// against sentence-transformers).
@Suite struct EncoderTaggerTests {
    /// Knows colours: [1, 0] for a colour word, [0, 1] for any other — what no word, affix or
    /// context feature of the CRF tells in "i like X things".
    struct ColourEncoder: WordVectorFeaturizer, SentenceFeaturizer {
        static let colours: Set<String> = ["red", "blue", "green", "teal", "mauve", "ochre", "amber", "cyan"]
        var reference = SentenceFeaturizerReference(model: "test/colours", revision: "c1", dimension: 1)
        var wordVectorDimension: Int { 2 }
        func wordVectors(for texts: [String], words: [[Range<Int>]]) -> [[[Float]]] {
            zip(texts, words).map { text, ranges in
                let scalars = Array(text.unicodeScalars)
                return ranges.map { range in
                    let word = String(String.UnicodeScalarView(scalars[range])).lowercased()
                    return Self.colours.contains(word) ? [1, 0] : [0, 1]
                }
            }
        }
        func features(for texts: [String]) -> [[Float]] { texts.map { [Float($0.count) / 10] } }
    }

    /// "i like [colour](colour) things" and "i like big things": the context is the same, only the
    /// word tells; the test colours never occur in training.
    static var colours: IntentDataset {
        let marked = ["red", "blue", "green", "cyan"].flatMap { colour in
            [EntityTests.marked("i like [\(colour)](colour) things"), EntityTests.marked("paint it [\(colour)](colour) now")]
        }
        let plain = ["big", "small", "old", "new", "cheap", "odd"].flatMap { word in
            [EntityTests.marked("i like \(word) things"), EntityTests.marked("paint it \(word) now")]
        }
        return IntentDataset(language: "en", intents: [Intent(name: "talk", utterances: marked + plain),
                                                       Intent(name: "other", utterances: [EntityTests.marked("what time is it")])])
    }

    static func options(_ kind: SlotTaggerOptions.Kind) -> SlotTaggerOptions {
        var options = SlotTaggerOptions()
        options.kind = kind
        options.wordClusterSizes = [4]
        options.gazetteerFolds = 0
        return options
    }

    @Test func wordClustersFindWhatTheWordFeaturesCannot() throws {
        let plain = try #require(try SlotTagger.train(on: Self.colours, options: Self.options(.crf), wordVectors: ColourEncoder()))
        let encoder = try #require(try SlotTagger.train(on: Self.colours, options: Self.options(.encoder), wordVectors: ColourEncoder()))
        #expect(plain.kind == .crf && plain.wordVectors == nil)
        #expect(encoder.kind == .encoder && encoder.wordVectors?.clusters.centroids.map(\.k) == [4])
        #expect(encoder.crf.attributes.contains { $0.hasPrefix("e4=") })
        // Each token gets its cluster and its neighbours' (the CRF keeps those whose weight L1 left non-zero).
        let attributes = try #require(encoder.wordVectors?.clusters.attributes([[1, 0], [0, 1]]))
        #expect(attributes.count == 2 && attributes[0].count == 2 && attributes[1].count == 2)
        #expect(attributes[0][0].hasPrefix("e4=") && attributes[0][1].hasPrefix("e4[+1]="))
        #expect(attributes[1][0].hasPrefix("e4=") && attributes[1][1].hasPrefix("e4[-1]="))
        #expect(attributes[0][0] != attributes[1][0])
        #expect(attributes[0][1] == "e4[+1]=" + attributes[1][0].dropFirst(3))
        for text in ["i like teal things", "paint it mauve now"] {
            let found = encoder.entities(in: text)
            #expect(found.map(\.entity) == ["colour"], "\(text)")
            #expect(found.first.map { ColourEncoder.colours.contains($0.text) } == true)
            #expect((found.first?.confidence ?? 0) > 0.5)
            // The plain CRF has only the context, which colour and non-colour share: it cannot be sure.
            let guess = plain.entities(in: text)
            #expect(guess.isEmpty || (guess.first?.confidence ?? 1) < (found.first?.confidence ?? 0), "\(text)")
        }
        #expect(encoder.entities(in: "i like odd things").isEmpty)
    }

    @Test func partTimesCoverEachPartOfTaggingInOrder() throws {
        let plain = try #require(try SlotTagger.train(on: Self.colours, options: Self.options(.crf), wordVectors: ColourEncoder()))
        let encoder = try #require(try SlotTagger.train(on: Self.colours, options: Self.options(.encoder), wordVectors: ColourEncoder()))
        #expect(plain.partSeconds("i like teal things").map(\.part) == [.features, .crf])
        let started = ContinuousClock.now
        let parts = encoder.partSeconds("i like teal things")
        let whole = ContinuousClock.now - started
        #expect(parts.map(\.part) == [.features, .wordVectors, .clusters, .crf])
        // Seconds, laps of the one call: together within the time the call took, however loaded the machine.
        let sum = parts.map(\.seconds).reduce(0, +)
        #expect(parts.allSatisfy { $0.seconds >= 0 })
        #expect(sum <= Double(whole.components.seconds) + Double(whole.components.attoseconds) * 1e-18, "parts \(sum) s, the call \(whole)")
        #expect(encoder.partSeconds("").isEmpty)
    }

    @Test func automaticKindFollowsTheAnnotatedUtteranceCount() throws {
        var options = Self.options(.automatic)
        options.encoderMinimumUtterances = 8    // the dataset has 8 annotated utterances
        #expect(try SlotTagger.train(on: Self.colours, options: options, wordVectors: ColourEncoder())?.kind == .encoder)
        options.encoderMinimumUtterances = 9
        #expect(try SlotTagger.train(on: Self.colours, options: options, wordVectors: ColourEncoder())?.kind == .crf)
        options.encoderMinimumUtterances = 0
        #expect(try SlotTagger.train(on: Self.colours, options: options)?.kind == .crf)   // no encoder given
        // The default threshold, measured on Snips subsets (docs/entities.md): 8 annotated utterances are too few.
        #expect(SlotTaggerOptions().encoderMinimumUtterances == 100)
        #expect(try SlotTagger.train(on: Self.colours, options: Self.options(.automatic), wordVectors: ColourEncoder())?.kind == .crf)
        #expect(throws: EntityTaggerError.invalidOption(option: "tagger kind",
                                                        reason: "the encoder tagger needs an encoder (sentence embeddings model) for its word vectors")) {
            try SlotTagger.train(on: Self.colours, options: Self.options(.encoder))
        }
        var bad = Self.options(.encoder)
        bad.wordClusterSizes = [1]
        #expect(throws: EntityTaggerError.self) { try SlotTagger.train(on: Self.colours, options: bad, wordVectors: ColourEncoder()) }
        bad.wordClusterSizes = [4]
        bad.encoderMinimumUtterances = -1
        #expect(throws: EntityTaggerError.self) { try SlotTagger.train(on: Self.colours, options: bad, wordVectors: ColourEncoder()) }
    }

    @Test func tooFewWordsForTheClustersGivesThePlainCRF() throws {
        var options = Self.options(.encoder)
        options.wordClusterSizes = [64]    // 84 training words: fewer than 8 per cluster
        let tagger = try #require(try SlotTagger.train(on: Self.colours, options: options, wordVectors: ColourEncoder()))
        #expect(tagger.kind == .crf)
    }

    @Test func packageRecordsTheEncoderAndLoadingNeedsTheSameOne() throws {
        let classifier = try IntentClassifier.train(on: Self.colours, training: ClassifierTests.quickOptions(seed: 3),
                                                    entities: Self.options(.encoder), wordVectors: ColourEncoder())
        #expect(classifier.entityExtractor?.tagger?.kind == .encoder)
        let url = try TestScratch.folder().appendingPathComponent("colours.nlumodel")
        try classifier.save(to: url)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("manifest.json"))) as? [String: Any]
        let tagger = (((manifest?["config"] as? [String: Any])?["entities"] as? [String: Any])?["tagger"] as? [String: Any])
        let recorded = tagger?["wordVectors"] as? [String: Any]
        #expect((recorded?["encoder"] as? [String: Any])?["model"] as? String == "test/colours")
        #expect((recorded?["encoder"] as? [String: Any])?["revision"] as? String == "c1")
        #expect(recorded?["dimension"] as? Int == 2)
        #expect(recorded?["clusterSizes"] as? [Int] == [4])

        // No encoder to give: refused, naming the model.
        #expect(throws: IntentClassifierError.self) { try IntentClassifier.load(from: url) }
        // The same encoder: the same answers.
        var asked: [SentenceFeaturizerReference] = []
        let loaded = try IntentClassifier.load(from: url) { reference in
            asked.append(reference)
            return ColourEncoder()
        }
        #expect(asked == [ColourEncoder().reference])
        for text in ["i like amber things", "paint it ochre now", "what time is it"] {
            #expect(loaded.predict(text) == classifier.predict(text), "\(text)")
        }
        // Another revision, or vectors of another width: refused.
        var other = ColourEncoder()
        other.reference.revision = "c2"
        #expect(throws: EntityTaggerError.self) { try IntentClassifier.load(from: url) { _ in other } }
        struct Wide: WordVectorFeaturizer {
            var reference = ColourEncoder().reference
            var wordVectorDimension: Int { 3 }
            func wordVectors(for texts: [String], words: [[Range<Int>]]) -> [[[Float]]] { words.map { $0.map { _ in [0, 0, 0] } } }
        }
        #expect(throws: EntityTaggerError.self) {
            try SlotTagger.load(try #require(classifier.entityExtractor?.tagger?.configuration),
                                tensor: { name in try #require(classifier.entityExtractor?.tagger?.namedWeights[name]) },
                                file: "colours.nlumodel", wordVectors: { _ in Wide() })
        }
    }

    @Test func storedCentroidsAreChecked() throws {
        #expect(throws: EntityTaggerError.self) {
            try WordVectorClusters.load(sizes: [4], dimension: 2) { _ in Tensor<Float>(shape: [3, 2], scalars: [Float](repeating: 0, count: 6)) }
        }
        #expect(throws: EntityTaggerError.self) {
            try WordVectorClusters.load(sizes: [4], dimension: 2) { _ in Tensor<Float>(shape: [4, 2], scalars: [Float](repeating: .nan, count: 8)) }
        }
        #expect(throws: EntityTaggerError.self) {
            try WordVectorClusters.load(sizes: [1], dimension: 2) { _ in Tensor<Float>(shape: [1, 2], scalars: [0, 0]) }
        }
    }
}

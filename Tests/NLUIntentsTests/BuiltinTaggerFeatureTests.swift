import Foundation
import NLUBuiltins
import NLUTestSupport
import NLUText
import Testing
@testable import NLUIntents

/// Built-in matches as slot-tagger features (`bi:KIND`): which tokens get them, when they are on, that
/// they change what the CRF learns, and that they are saved with the tagger (older taggers have none).
@Suite struct BuiltinTaggerFeatureTests {
    func dataset(builtins: Bool) -> IntentDataset {
        func utterance(_ text: String, _ word: String) -> Utterance {
            let range = text.range(of: word)!
            let start = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound)
            return Utterance(text, entities: [EntityAnnotation(start: start, end: start + word.unicodeScalars.count, entity: "when", value: word)])
        }
        return IntentDataset(intents: [
            Intent(name: "book", utterances: [utterance("book it for tomorrow", "tomorrow"), utterance("a table on friday", "friday"),
                                              utterance("book for next monday please", "next monday")]),
            Intent(name: "greet", utterances: ["hello", "hi there", "good morning"]),
        ], entities: builtins ? [EntityDefinition(name: "when", builtin: "date")] : [])
    }

    /// "i like [five](count) things" and "i like big things": the context is the same and number words share
    /// no affix or shape the CRF could use; only "inside a number match" tells. The test words never occur
    /// in training.
    static var numbers: IntentDataset {
        let marked = ["two", "three", "five", "six"].flatMap { number in
            [EntityTests.marked("i like [\(number)](count) things"), EntityTests.marked("paint it [\(number)](count) now")]
        }
        let plain = ["big", "small", "old", "new", "cheap", "odd"].flatMap { word in
            [EntityTests.marked("i like \(word) things"), EntityTests.marked("paint it \(word) now")]
        }
        return IntentDataset(language: "en", intents: [Intent(name: "talk", utterances: marked + plain),
                                                       Intent(name: "other", utterances: [EntityTests.marked("what time is it")])])
    }

    static func options(_ builtins: SlotTaggerOptions.BuiltinFeatures) -> SlotTaggerOptions {
        var options = SlotTaggerOptions()
        options.builtinFeatures = builtins
        options.gazetteerFolds = 0
        options.kind = .crf
        return options
    }

    @Test func tokensInsideABuiltinMatchGetItsKindAsAFeature() {
        let text = "book 2 tables for tomorrow"
        let tokens = WordTokenizer().tokens(in: text)
        let features = SlotFeatureExtractor(builtins: BuiltinRecognizer(types: [.date, .number])).attributes(tokens, in: text)
        #expect(features.map { $0.filter { $0.hasPrefix("bi:") } } == [[], ["bi:number"], [], [], ["bi:date"]])
        #expect(SlotFeatureExtractor().attributes(tokens, in: text).allSatisfy { !$0.contains { $0.hasPrefix("bi:") } })
    }

    @Test func builtinFeaturesFindWhatTheWordFeaturesCannot() throws {
        let with = try #require(try SlotTagger.train(on: Self.numbers, options: Self.options(.all)))
        let without = try #require(try SlotTagger.train(on: Self.numbers, options: Self.options(.none)))
        #expect(with.crf.attributes.contains("bi:number"))
        #expect(!without.crf.attributes.contains { $0.hasPrefix("bi:") })
        for (text, number) in [("i like eleven things", "eleven"), ("paint it twenty now", "twenty"), ("i like nine things", "nine")] {
            let found = with.entities(in: text)
            #expect(found.map(\.entity) == ["count"] && found.map(\.text) == [number], "\(text): \(found)")
            #expect((found.first?.confidence ?? 0) > 0.5, "\(text)")
            // Without the feature only the context is left, which numbers and other words share: it cannot be sure.
            let guess = without.entities(in: text)
            #expect(guess.isEmpty || (guess.first?.confidence ?? 1) < (found.first?.confidence ?? 0), "\(text): \(guess)")
        }
        #expect(with.entities(in: "i like odd things").isEmpty)
    }

    @Test func featuresAreOnOnlyWhenTheDatasetUsesBuiltinsAndSurviveSaving() throws {
        let without = try #require(try SlotTagger.train(on: dataset(builtins: false)))
        #expect(!without.crf.attributes.contains { $0.hasPrefix("bi:") })
        let with = try #require(try SlotTagger.train(on: dataset(builtins: true)))
        #expect(with.crf.attributes.contains("bi:date"))
        #expect(with.configuration.builtinFeatures == [.date])
        var forced = SlotTaggerOptions()
        forced.builtinFeatures = .all
        #expect(try SlotTagger.train(on: dataset(builtins: false), options: forced)?.configuration.builtinFeatures == BuiltinEntityType.allCases)

        let classifier = try IntentClassifier.train(on: dataset(builtins: true))
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("m.nlumodel")
        try classifier.save(to: url)
        let loaded = try IntentClassifier.load(from: url)
        #expect(loaded.entityExtractor?.tagger?.configuration.builtinFeatures == [.date])
        #expect(loaded.entityExtractor?.tagger?.features.builtins != nil)
        let text = "a table for tomorrow"
        #expect(loaded.predict(text, reference: BuiltinPredictionTests.reference).entities
                == classifier.predict(text, reference: BuiltinPredictionTests.reference).entities)
    }

    @Test func taggerSavedBeforeBuiltinFeaturesLoadsWithNone() throws {
        let tagger = try #require(try SlotTagger.train(on: Self.numbers, options: Self.options(.all)))
        // What a package written before this option holds: neither the tagger's kinds nor the option.
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(tagger.configuration)) as? [String: Any])
        #expect(object["builtinFeatures"] != nil)
        object["builtinFeatures"] = nil
        var options = try #require(object["options"] as? [String: Any])
        options["builtinFeatures"] = nil
        object["options"] = options
        let old = try JSONDecoder().decode(SlotTagger.Configuration.self, from: JSONSerialization.data(withJSONObject: object))
        let weights = tagger.namedWeights
        let loaded = try SlotTagger.load(old, tensor: { name in
            guard let tensor = weights[name] else { throw EntityTaggerError.invalidModel("no tensor \(name)") }
            return tensor
        }, file: "old.nlumodel", wordVectors: { _ in throw EntityTaggerError.invalidModel("no encoder") })
        #expect(loaded.builtinFeatureTypes.isEmpty && loaded.features.builtins == nil)
        #expect(loaded.options.builtinFeatures == SlotTaggerOptions.BuiltinFeatures.none)
    }
}

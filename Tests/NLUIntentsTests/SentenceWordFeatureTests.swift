import Foundation
import NLUText
import Testing
@testable import NLUIntents

/// The utterance's other words as slot-tagger features (`L=w` before the token, `R=w` after it): which
/// attributes a token gets, that they tell slots apart whose cue is further away than the ±2-word window
/// (ATIS's arrival vs departure times), the default, and that taggers saved before the option load without them.
@Suite struct SentenceWordFeatureTests {
    /// "… arriving in CITY late at [T](arrive_time)" and "… leaving from CITY late at [T](depart_time)": the
    /// time's ±2 words are the same ("late at", end), the cue is 4-5 words away.
    static var arrivals: IntentDataset {
        var utterances: [Utterance] = []
        for city in ["boston", "denver", "dallas"] {
            for hour in 1...6 {
                utterances.append(EntityTests.marked("i want a flight arriving in \(city) late at [\(hour) pm](arrive_time)"))
                utterances.append(EntityTests.marked("i want a flight leaving from \(city) late at [\(hour) pm](depart_time)"))
            }
        }
        return IntentDataset(language: "en", intents: [Intent(name: "flight", utterances: utterances),
                                                       Intent(name: "other", utterances: [EntityTests.marked("what time is it")])])
    }

    static func options(sentenceWords: Bool) -> SlotTaggerOptions {
        var options = SlotTaggerOptions()
        options.sentenceWords = sentenceWords
        options.sentenceWordsMinimumUtterances = 0
        options.gazetteerFolds = 0
        options.kind = .crf
        return options
    }

    /// A long text gets a bounded number of sentence words per token (linear, not quadratic, in its
    /// length): the `sentenceWordWindow` words on each side, no further.
    @Test func sentenceWordsReachAWindowOfWordsOnEachSide() {
        let window = SlotFeatureExtractor.sentenceWordWindow
        let text = (0..<(3 * window)).map { "w\($0)" }.joined(separator: " ")
        let tokens = WordTokenizer().tokens(in: text)
        let features = SlotFeatureExtractor(sentenceWords: true).attributes(tokens, in: text)
        let middle = features[window + 10]
        #expect(middle.filter { $0.hasPrefix("L=") } == (10..<(window + 10)).map { "L=w\($0)" })
        #expect(middle.filter { $0.hasPrefix("R=") } == ((window + 11)..<(2 * window + 11)).map { "R=w\($0)" })
        #expect(features.allSatisfy { $0.filter { $0.hasPrefix("L=") || $0.hasPrefix("R=") }.count <= 2 * window })
    }

    @Test func eachTokenGetsTheOtherWordsBySideOnceEach() {
        let text = "Fly from Boston to boston now"
        let tokens = WordTokenizer().tokens(in: text)
        let features = SlotFeatureExtractor(sentenceWords: true).attributes(tokens, in: text)
        let sides = features.map { $0.filter { $0.hasPrefix("L=") || $0.hasPrefix("R=") } }
        #expect(sides[0] == ["R=from", "R=boston", "R=to", "R=now"])
        #expect(sides[3] == ["L=fly", "L=from", "L=boston", "R=boston", "R=now"])
        #expect(sides[4] == ["L=fly", "L=from", "L=boston", "L=to", "R=now"])
        #expect(sides[5] == ["L=fly", "L=from", "L=boston", "L=to"])
        // Off: the attributes are exactly those of the plain extractor (the crfsuite parity fixture's).
        #expect(SlotFeatureExtractor().attributes(tokens, in: text) == features.map { $0.filter { !$0.hasPrefix("L=") && !$0.hasPrefix("R=") } })
        #expect(SlotFeatureExtractor(sentenceWords: true).attributes([], in: "").isEmpty)
    }

    @Test func sentenceWordsTellSlotsWhoseCueIsOutsideTheWindow() throws {
        #expect(SlotTaggerOptions().sentenceWords && SlotTaggerOptions().sentenceWordsMinimumUtterances == 1000)
        let with = try #require(try SlotTagger.train(on: Self.arrivals, options: Self.options(sentenceWords: true)))
        let without = try #require(try SlotTagger.train(on: Self.arrivals, options: Self.options(sentenceWords: false)))
        #expect(with.crf.attributes.contains("L=arriving") && !without.crf.attributes.contains { $0.hasPrefix("L=") })
        for (text, slot) in [("i want a flight arriving in miami late at 9 pm", "arrive_time"),
                             ("i want a flight leaving from miami late at 9 pm", "depart_time")] {
            let found = with.entities(in: text)
            #expect(found.map(\.entity) == [slot] && found.map(\.text) == ["9 pm"], "\(text): \(found)")
            #expect((found.first?.confidence ?? 0) > 0.8, "\(text): \(found)")
            // Without them the window is the same for both slots: at best a coin toss.
            let guess = without.entities(in: text)
            #expect((guess.first?.confidence ?? 0) < 0.6, "\(text): \(guess)")
        }
    }

    @Test func fewerAnnotatedUtterancesThanTheMinimumTrainWithoutThem() throws {
        var options = Self.options(sentenceWords: true)
        options.sentenceWordsMinimumUtterances = 37   // the dataset has 36 annotated utterances
        let small = try #require(try SlotTagger.train(on: Self.arrivals, options: options))
        #expect(!small.options.sentenceWords && !small.features.sentenceWords)
        #expect(!small.crf.attributes.contains { $0.hasPrefix("L=") || $0.hasPrefix("R=") })
        options.sentenceWordsMinimumUtterances = 36
        let enough = try #require(try SlotTagger.train(on: Self.arrivals, options: options))
        #expect(enough.options.sentenceWords && enough.features.sentenceWords)
        options.sentenceWordsMinimumUtterances = -1
        #expect(throws: EntityTaggerError.self) { try SlotTagger.train(on: Self.arrivals, options: options) }
    }

    @Test func taggerSavedBeforeSentenceWordsLoadsWithoutThem() throws {
        let tagger = try #require(try SlotTagger.train(on: Self.arrivals, options: Self.options(sentenceWords: true)))
        let weights = tagger.namedWeights
        func load(_ configuration: SlotTagger.Configuration) throws -> SlotTagger {
            try SlotTagger.load(configuration, tensor: { name in
                guard let tensor = weights[name] else { throw EntityTaggerError.invalidModel("no tensor \(name)") }
                return tensor
            }, file: "m.nlumodel", wordVectors: { _ in throw EntityTaggerError.invalidModel("no encoder") })
        }
        let data = try JSONEncoder().encode(tagger.configuration)
        let reloaded = try load(JSONDecoder().decode(SlotTagger.Configuration.self, from: data))
        #expect(reloaded.features.sentenceWords && reloaded.options.sentenceWords)
        let text = "i want a flight arriving in miami late at 9 pm"
        let before = tagger.entities(in: text), after = reloaded.entities(in: text)
        // Saved weights are F32: the same mentions, confidences within rounding.
        #expect(after.map(\.entity) == before.map(\.entity) && after.map(\.start) == before.map(\.start) && after.map(\.end) == before.map(\.end))
        #expect(zip(after, before).allSatisfy { abs($0.confidence - $1.confidence) < 1e-4 })
        // What a package written before the option holds: no `sentenceWords` in the options.
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var options = try #require(object["options"] as? [String: Any])
        #expect(options["sentenceWords"] as? Bool == true)
        options["sentenceWords"] = nil
        object["options"] = options
        let old = try load(JSONDecoder().decode(SlotTagger.Configuration.self, from: JSONSerialization.data(withJSONObject: object)))
        #expect(!old.features.sentenceWords && !old.options.sentenceWords)
    }
}

import Foundation
import NLUTestSupport
import Testing
import NLUText
@testable import NLUIntents

/// Entities in intents models: the slot tagger trained from annotations, dictionary and regex entities,
/// value resolution, roles, the overlap policy, saving, and models saved before entities existed.
@Suite struct EntityTests {
    static let entityFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/entities")

    /// "turn on the [radio](device)" → Utterance with the annotation; `[x](e@role)` gives a role.
    static func marked(_ text: String) -> Utterance {
        var builder = "", entities: [EntityAnnotation] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            builder += rest[..<open]
            let close = rest[open...].firstIndex(of: "]")!, end = rest[close...].firstIndex(of: ")")!
            let mention = rest[rest.index(after: open)..<close]
            let label = rest[rest.index(close, offsetBy: 2)..<end].split(separator: "@").map(String.init)
            let start = builder.unicodeScalars.count
            builder += mention
            entities.append(EntityAnnotation(start: start, end: builder.unicodeScalars.count, entity: label[0],
                                             value: String(mention), role: label.count > 1 ? label[1] : nil))
            rest = rest[rest.index(after: end)...]
        }
        builder += rest
        return Utterance(builder, entities: entities)
    }

    static var devices: IntentDataset {
        let on = ["turn on the [radio](device)", "switch the [fog lights](device) on", "put the [heater](device) on please",
                  "turn the [wipers](device) on", "turn on the [high beams](device)", "switch on the [fan](device)",
                  "can you turn on the [radio](device)", "I want the [heater](device) on", "turn on my [seat heating](device)",
                  "please switch the [fan](device) on"]
        let off = ["turn off the [radio](device)", "switch the [fog lights](device) off", "kill the [heater](device)",
                   "turn the [wipers](device) off", "switch off the [high beams](device)", "stop the [fan](device)",
                   "no more [radio](device)", "turn off my [seat heating](device)", "switch the [fan](device) off",
                   "turn the [heater](device) off"]
        let fly = ["fly from [Berlin](city@departure) to [Paris](city@destination)", "a flight from [Rome](city@departure) to [Oslo](city@destination)",
                   "from [Madrid](city@departure) to [Berlin](city@destination) please", "book a flight to [Lisbon](city@destination) from [Paris](city@departure)",
                   "fly to [Rome](city@destination)", "I leave from [Oslo](city@departure)", "fly from [Lisbon](city@departure) to [Madrid](city@destination)",
                   "flights to [Paris](city@destination) from [Rome](city@departure)", "flight 12345 from [Oslo](city@departure)",
                   "check flight 54321", "is flight 11223 late"]
        return IntentDataset(language: "en", intents: [
            Intent(name: "turn_on", utterances: on.map(marked)), Intent(name: "turn_off", utterances: off.map(marked)),
            Intent(name: "fly", utterances: fly.map(marked)),
        ], entities: [
            EntityDefinition(name: "device", values: [EntityValue("radio", synonyms: ["stereo"]), EntityValue("fog lights")]),
            EntityDefinition(name: "coffee", values: [EntityValue("espresso", synonyms: ["short black"])], extensible: false),
            EntityDefinition(name: "media", values: [EntityValue("radio")]),
            EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["\\b\\d{5}\\b"])]),
        ])
    }

    static func fastTraining() -> TrainingOptions {
        var training = TrainingOptions()
        training.hiddenSizes = [16]
        training.epochs = 10
        training.validationSplit = 0
        return training
    }

    @Test func entityScoresAreExactSpanAndTypeMicroAveraged() {
        typealias M = EntityEvaluation.Mention
        // Hand-worked: 4 annotated, 4 predicted; right: city 7..<12 and date 0..<5; a wrong span, a wrong type.
        let expected = [[M(entity: "city", start: 7, end: 12), M(entity: "date", start: 0, end: 5)],
                        [M(entity: "city", start: 0, end: 6), M(entity: "city", start: 10, end: 14)], []]
        let predicted = [[M(entity: "city", start: 7, end: 12), M(entity: "date", start: 0, end: 5)],
                         [M(entity: "city", start: 0, end: 5), M(entity: "date", start: 10, end: 14)], []]
        let report = EntityEvaluation(expected: expected, predicted: predicted)
        #expect(report.microPrecision == 0.5 && report.microRecall == 0.5 && report.microF1 == 0.5)
        #expect(report.perEntity["city"] == .init(precision: 0.5, recall: 1.0 / 3, f1: 0.4, support: 3))
        #expect(abs((report.perEntity["date"]?.f1 ?? 0) - 2 * 0.5 / 1.5) < 1e-12)
        #expect(abs(report.exactUtterances - 2.0 / 3) < 1e-12)
        // Annotations are trimmed to the tokens they cover ("Paris " → "Paris").
        let utterance = Utterance("fly to Paris now", entities: [EntityAnnotation(start: 7, end: 13, entity: "city")])
        #expect(EntityEvaluation.mentions(of: utterance) == [M(entity: "city", start: 7, end: 12)])
    }

    @Test func evaluationReportsEntitiesAndSentenceAccuracy() throws {
        let classifier = try IntentClassifier.train(on: Self.devices, training: Self.fastTraining())
        let test = IntentDataset(intents: [Intent(name: "turn_on", utterances: [Self.marked("turn on the [radio](device)"), Self.marked("switch on the [fan](device)")])])
        let report = classifier.evaluate(on: test)
        let entities = try #require(report.entities)
        // Recomputed here from the predictions themselves.
        let predicted = test.intents[0].utterances.map { classifier.predict($0.text) }
        let right = predicted.filter { $0.intent == "turn_on" && $0.entities.map(\.text) == [["turn on the radio": "radio", "switch on the fan": "fan"][$0.text]!] }.count
        #expect(report.sentenceAccuracy == Double(right) / 2)
        #expect(entities.perEntity["device"]?.support == 2)
        #expect(report.table().contains("sentence accuracy (intent and all entities right)"))
        #expect(try IntentClassifier.train(on: Self.devices, training: Self.fastTraining(), entities: nil).evaluate(on: test).entities == nil)
    }

    @Test func tagBIOEncodingAndSpansRoundTrip() {
        let utterance = Self.marked("fly from [New York](city@departure) to [Paris](city)")
        let tokens = WordTokenizer().tokens(in: utterance.text)
        let tags = SlotTagScheme.tags(for: utterance, tokens: tokens)
        #expect(tags == ["O", "O", "B-city@departure", "I-city@departure", "O", "B-city"])
        let spans = SlotTagScheme.spans(tags)
        #expect(spans.map(\.slot) == ["city@departure", "city"])
        #expect(spans.map(\.tokens) == [2..<4, 5..<6])
        // A stray I- starts a mention, as CoNLL's evaluation reads it; a different slot ends one.
        #expect(SlotTagScheme.spans(["I-a", "I-a", "I-b", "O", "B-a"]).map(\.tokens) == [0..<2, 2..<3, 4..<5])
        #expect(SlotTagScheme.Slot(key: "city@departure#g1") == SlotTagScheme.Slot(entity: "city", role: "departure", group: "g1"))
    }

    @Test func trainedModelTagsEntitiesWithRolesAndKeepsThemAcrossSaveAndLoad() throws {
        let classifier = try IntentClassifier.train(on: Self.devices, training: Self.fastTraining())
        let tagger = try #require(classifier.entityExtractor?.tagger)
        #expect(tagger.crf.labels.contains("B-city@departure"))

        let prediction = classifier.predict("switch the radio on")
        let device = try #require(prediction.entities.first)
        #expect((device.entity, device.start, device.end, device.text, device.extractor) == ("device", 11, 16, "radio", .crf))
        #expect(device.confidence > 0.5 && device.confidence <= 1)

        let trip = classifier.predict("fly from Oslo to Rome").entities
        #expect(trip.map(\.text) == ["Oslo", "Rome"])
        #expect(trip.map(\.role) == ["departure", "destination"])

        let directory = TestScratch.file("nlukit-entities", extension: "nlumodel")
        defer { try? FileManager.default.removeItem(at: directory) }
        try classifier.save(to: directory)
        let loaded = try IntentClassifier.load(from: directory)
        for text in ["switch the radio on", "fly from Oslo to Rome", "a short black to 75001"] {
            let before = classifier.predict(text).entities, after = loaded.predict(text).entities
            #expect(before.map(\.text) == after.map(\.text) && before.map(\.role) == after.map(\.role))
            for (a, b) in zip(before, after) { #expect(abs(a.confidence - b.confidence) < 1e-4) }   // weights stored as F32
        }
    }

    @Test func entitiesCanBeTurnedOff() throws {
        let classifier = try IntentClassifier.train(on: Self.devices, training: Self.fastTraining(), entities: nil)
        #expect(classifier.entityExtractor == nil)
        #expect(classifier.predict("switch the radio on").entities.isEmpty)
    }

    @Test func modelSavedBeforeEntitiesLoadsAndPredictsIntentsWithoutEntities() throws {
        // Written by `nlu intents train` at commit ed9e49a (before entities); see scripts/fixtures/pre_entities_model.sh.
        let classifier = try IntentClassifier.load(from: Self.entityFixtures.appendingPathComponent("pre-entities.nlumodel"))
        #expect(classifier.entityExtractor == nil)
        let prediction = classifier.predict("turn on the stereo")
        #expect(prediction.entities.isEmpty)
        // What that build printed for the same input.
        #expect(prediction.intent == "greet")
        #expect(abs(prediction.confidence - 0.3468871) < 1e-6)
    }

    @Test func dictionaryEntitiesMatchWholeWordsCaseAndAccentInsensitiveLongestFirst() throws {
        let extractor = try EntityExtractor(tagger: nil, definitions: [
            EntityDefinition(name: "coffee", values: [EntityValue("espresso", synonyms: ["short black"]), EntityValue("café au lait")]),
            EntityDefinition(name: "city", values: [EntityValue("New York", synonyms: ["NYC"]), EntityValue("York")]),
            EntityDefinition(name: "county", values: [EntityValue("york")]),
        ])
        let found = extractor.entities(in: "A SHORT BLACK and a Cafe au Lait in new york, not yorkshire")
        #expect(found.map(\.entity) == ["coffee", "coffee", "city"])
        #expect(found.map(\.value) == ["espresso", "café au lait", "New York"])
        #expect(found.map(\.text) == ["SHORT BLACK", "Cafe au Lait", "new york"])
        #expect(found.map(\.start) == [2, 20, 36])
        #expect(found.allSatisfy { $0.extractor == .dictionary && $0.confidence == 1 })
        // Same length, same place: the entity listed first (sorted by name) wins.
        #expect(extractor.entities(in: "York").map(\.entity) == ["city"])
    }

    /// Merging takes time linear in the mentions: each candidate used to be compared with every mention
    /// kept before it, so a 100,000-character `/model/parse` text of 14,000 dictionary matches took seconds.
    /// 10 × the mentions must take well under 40 × the CPU time (linear: about 10; the old merge: 100).
    @Test func mergingManyMentionsTakesLinearTime() throws {
        let extractor = try EntityExtractor(tagger: nil, definitions: [
            EntityDefinition(name: "appliance", values: [EntityValue("radio", synonyms: ["stereo"])]),
            EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["\\b\\d{5}\\b"])]),
        ])
        let texts = [1_000: String(repeating: "stereo 75001 ", count: 1_000), 10_000: String(repeating: "stereo 75001 ", count: 10_000)]
        let growth = linearWorkGrowth(count: 1_000) { count in
            let found = extractor.entities(in: texts[count] ?? "")
            #expect(found.count == 2 * count)
            #expect(found.last?.entity == "zip" && found.dropLast().last?.value == "radio")
        }
        #expect(growth.ratio < linearWorkBound, "1,000 mentions of each kind → 10,000: \(growth)")
    }

    @Test func closedEntitiesKeepOnlyTheirValues() {
        let dictionaries = EntityDictionaries([
            EntityDefinition(name: "coffee", values: [EntityValue("espresso", synonyms: ["short black"])], extensible: false),
            EntityDefinition(name: "drink", values: [EntityValue("tea")]),
        ])
        #expect(dictionaries.resolve(entity: "coffee", text: "Short  Black") == "espresso")
        #expect(dictionaries.resolve(entity: "coffee", text: "latte") == nil)
        #expect(dictionaries.resolve(entity: "drink", text: "Tea") == "tea")
        #expect(dictionaries.resolve(entity: "drink", text: "mate") == "mate")
        #expect(dictionaries.resolve(entity: "undefined", text: "x") == "x")
    }

    @Test func phraseListsAreNotReturnedAsEntities() throws {
        // A LUIS `@ phraselist` imports as a feature-only definition: a tagger feature, never an entity itself.
        let extractor = try EntityExtractor(tagger: nil, definitions: [
            EntityDefinition(name: "cities", values: [EntityValue("Paris"), EntityValue("Rome")], featureOnly: true),
            EntityDefinition(name: "coffee", values: [EntityValue("espresso")]),
        ])
        let found = extractor.entities(in: "an espresso in Paris")
        #expect(found.map(\.entity) == ["coffee"])
    }

    @Test func regexEntitiesAreMatchedAndAreTaggerFeatures() throws {
        let definitions = [EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["\\b\\d{5}\\b"])])]
        let extractor = try EntityExtractor(tagger: nil, definitions: definitions)
        let found = extractor.entities(in: "ship to 75001 or 123456")
        #expect(found.map(\.text) == ["75001"] && found.first?.extractor == .regex && found.first?.start == 8)
        let text = "ship to 75001"
        let features = SlotFeatureExtractor(patterns: try RegexEntityMatcher(definitions)).attributes(WordTokenizer().tokens(in: text), in: text)
        #expect(features[2].contains("re:zip") && !features[1].contains("re:zip"))
    }

    /// `(a+)+$` backtracks exponentially on a run of "a" that does not reach the end: ICU alone would take
    /// hours on this text. The pattern gives up after its budget and matches nothing there; the other
    /// pattern still matches, and a short text the runaway pattern does match is still found.
    @Test func aRunawayPatternStopsAtItsBudgetAndTheOthersStillMatch() throws {
        let definitions = [EntityDefinition(name: "runaway", values: [EntityValue("a", patterns: ["(a+)+$"])]),
                           EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["\\b\\d{5}\\b"])])]
        let matcher = try RegexEntityMatcher(definitions)
        let text = "ship to 75001 " + String(repeating: "a", count: 40) + "!"
        let start = ContinuousClock.now
        let found = matcher.matches(in: text, tokens: WordTokenizer().tokens(in: text))
        let elapsed = ContinuousClock.now - start
        #expect(found == [RegexEntityMatcher.Match(entity: "zip", tokens: 2..<3)])
        // A hang bound, not a speed target: wide enough for a busy machine.
        #expect(elapsed < RegexEntityMatcher.timeBudget(forUTF16Length: text.utf16.count) + .seconds(60), "\(elapsed)")
        let short = "say aaaa"
        #expect(matcher.matches(in: short, tokens: WordTokenizer().tokens(in: short)) == [RegexEntityMatcher.Match(entity: "runaway", tokens: 1..<2)])
    }

    /// A model trained on benign text may hold several patterns that run away on a crafted one: they
    /// share the text's budget, so ten of them cost about what one does (each had a budget of its own,
    /// and ten held a prediction five seconds), and a benign pattern after them still matches.
    @Test func runawayPatternsShareOneBudgetPerText() throws {
        func matcher(runaways: Int) throws -> RegexEntityMatcher {
            try RegexEntityMatcher((0..<runaways).map { EntityDefinition(name: "runaway\($0)", values: [EntityValue("a", patterns: ["(a+)+$"])]) }
                                   + [EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["\\b\\d{5}\\b"])])])
        }
        let text = "ship to 75001 " + String(repeating: "a", count: 40) + "!"
        let tokens = WordTokenizer().tokens(in: text)
        let one = try matcher(runaways: 1), ten = try matcher(runaways: 10)
        // Budget time is counted, not measured: the clock advances a fixed step at each reading, so what the
        // patterns spend is the same on a loaded machine as on an idle one.
        let budget = RegexEntityMatcher.timeBudget(forUTF16Length: text.utf16.count)
        let oneClock = SteppingClock(), tenClock = SteppingClock()
        var found = RegexEntityMatcher.$budgetClock.withValue(oneClock) { one.matches(in: text, tokens: tokens) }
        #expect(found == [RegexEntityMatcher.Match(entity: "zip", tokens: 2..<3)])
        var timeouts: [RegexEntityMatcher.Timeout] = []
        found = RegexEntityMatcher.$budgetClock.withValue(tenClock) { ten.matches(in: text, tokens: tokens, timeouts: &timeouts) }
        #expect(found == [RegexEntityMatcher.Match(entity: "zip", tokens: 2..<3)])
        #expect(timeouts.map(\.entity) == (0..<10).map { "runaway\($0)" })
        // Together the ten stay within the text's one budget (give or take a few readings per pattern past its
        // share); a budget each would spend ten of them.
        #expect(oneClock.elapsed > .zero)
        #expect(tenClock.elapsed <= budget + tenClock.step * 4 * 11, "10 runaway patterns spent \(tenClock.elapsed) of a \(budget) budget")
        #expect(tenClock.elapsed < oneClock.elapsed * 4, "1 runaway pattern: \(oneClock.elapsed), 10: \(tenClock.elapsed)")
    }

    /// Many matches in one long text: each match's tokens are found by binary search (a linear filter per
    /// match made 20,000 matches in 20,000 tokens cost 400 million comparisons).
    @Test func manyMatchesFindTheirTokensExactly() throws {
        let matcher = try RegexEntityMatcher([EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["\\d{5}( \\d{5})?"])])])
        let text = Array(repeating: "75001 x 12345 67890 zz", count: 3_000).joined(separator: " ")
        let tokens = WordTokenizer().tokens(in: text)
        let found = matcher.matches(in: text, tokens: tokens)
        var expected: [RegexEntityMatcher.Match] = []
        for (index, token) in tokens.enumerated() where token.text == "75001" || token.text == "12345" {
            expected.append(RegexEntityMatcher.Match(entity: "zip", tokens: token.text == "75001" ? index..<(index + 1) : index..<(index + 2)))
        }
        #expect(found == expected)
    }

    @Test func invalidRegexIsAnErrorNamingEntityAndPattern() {
        #expect(throws: EntityTaggerError.self) {
            _ = try RegexEntityMatcher([EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["(\\d"])])])
        }
        do {
            _ = try RegexEntityMatcher([EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["(\\d"])])])
        } catch {
            #expect("\(error)".contains("'zip'") && "\(error)".contains("(\\d"))
        }
    }

    @Test func taggerWinsOverlapsAndDictionaryFillsTheRest() throws {
        let classifier = try IntentClassifier.train(on: Self.devices, training: Self.fastTraining())
        // "radio" is tagged by the CRF (its value canonical through the dictionary: "stereo" → "radio");
        // "short black" only the closed dictionary knows; "75001" only the regex.
        let found = classifier.predict("turn on the stereo, a short black, code 75001").entities
        // The "media" dictionary lists "radio" too: where the tagger found a mention, it stands.
        #expect(classifier.predict("switch the radio on").entities.map(\.entity) == ["device"])
        #expect(classifier.predict("the radio").entities.map(\.extractor) == [.crf])
        #expect(found.map(\.entity) == ["device", "coffee", "zip"])
        #expect(found.map(\.value) == ["radio", "espresso", "75001"])
        #expect(found.map(\.extractor) == [.crf, .dictionary, .regex])
    }

    @Test func aSavedTaggerWithAnInvalidRegexFailsNamingThePackage() throws {
        let tagger = try #require(try SlotTagger.train(on: Self.devices))
        var configuration = tagger.configuration
        #expect(configuration.patterns.map(\.name) == ["zip"])
        configuration.patterns = [EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["(unclosed"])])]
        let weights = tagger.namedWeights
        #expect {
            _ = try SlotTagger.load(configuration, tensor: { weights[$0]! }, file: "damaged.nlumodel",
                                    wordVectors: { _ in throw EntityTaggerError.invalidModel("no encoder") })
        } throws: { error in
            "\(error)".contains("damaged.nlumodel") && "\(error)".contains("(unclosed")
        }
    }
}

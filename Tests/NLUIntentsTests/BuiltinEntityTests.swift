import Foundation
import NLUBuiltins
import NLUTestSupport
import Testing
@testable import NLUIntents

/// Each importer maps its platform's system entities to NLUKit built-ins (PlatformBuiltins), and a model
/// trained on such a dataset returns the built-ins, resolved, in its predictions.
@Suite struct BuiltinImportTests {
    func load(_ name: String) throws -> ImportResult {
        try IntentImporter.importDataset(from: fixture(name))
    }

    func builtins(_ dataset: IntentDataset) -> [String: String] {
        var result: [String: String] = [:]
        for definition in dataset.entities { if let builtin = definition.builtin { result[definition.name] = builtin } }
        return result
    }

    @Test func watsonSystemEntitiesAreBuiltinsAndUnknownOnesAreWarnedAboutOnce() throws {
        let result = try load("builtins/watson-system-entities.json")
        #expect(builtins(result.dataset) == ["sys-date": "date", "sys-number": "number"])
        // The unknown system entities stay ordinary entities (their annotations keep training the tagger).
        #expect(result.dataset.entities.map(\.name).filter { !$0.hasPrefix("sys-d") && $0 != "sys-number" } == ["sys-location", "sys-person", "topic"])
        #expect(result.warnings.filter { $0.contains("sys-location") }.count == 1)
        #expect(result.warnings.contains { $0.contains("system entity sys-person has no NLUKit built-in") })
    }

    @Test func lexV1BuiltInSlotTypeIsABuiltinUnderTheSlotsName() throws {
        #expect(builtins(try load("lex-v1-bot.json").dataset) == ["PickupDate": "date"])
    }

    @Test func lexV2BuiltInSlotTypeIsABuiltinUnderTheSlotsName() throws {
        #expect(builtins(try load("lexv2-bot").dataset) == ["Quantity": "number"])
    }

    @Test func alexaBuiltInSlotTypeIsABuiltinAndCustomTypesAreNot() throws {
        let result = try load("alexa-model.json")
        #expect(builtins(result.dataset) == ["days": "number"])
        #expect(result.dataset.entities.first { $0.name == "SPEED" }?.builtin == nil)
    }

    @Test func dialogflowSystemEntityParameterIsABuiltin() throws {
        #expect(builtins(try load("dialogflow-agent").dataset) == ["sys.date": "date"])
    }

    /// Dialogflow's amounts with units (`@sys.unit-length` "3 meters", `@sys.age`) are dimensions and ages; a unit's
    /// name alone (`@sys.unit-length-name` "km") is no amount, and stays an ordinary entity with a warning.
    @Test func dialogflowAmountsWithUnitsAreDimensionsAndAges() throws {
        let result = try load("builtins/dialogflow-units")
        #expect(builtins(result.dataset) == ["sys.unit-area": "dimension", "height": "dimension", "sys.unit-weight": "dimension",
                                             "sys.unit-volume": "dimension", "sys.age": "age", "sys.unit-information": "dimension",
                                             "sys.unit-speed": "dimension"])
        #expect(result.warnings.contains { $0.contains("system entity sys.unit-length-name has no NLUKit built-in") })
    }

    /// Lex V2's `AMAZON.Currency` is money; `AMAZON.WeightUnit` holds a unit's name alone, no dimension.
    @Test func lexV2CurrencySlotIsMoneyAndAUnitNameSlotIsNoBuiltin() throws {
        let result = try load("builtins/lexv2-units")
        #expect(builtins(result.dataset) == ["Price": "currency"])
        #expect(result.warnings.contains { $0.contains("slot type AMAZON.WeightUnit has no NLUKit built-in") })
    }

    @Test func luisPrebuiltEntitiesAreBuiltinsAndUnknownOnesWarned() throws {
        let result = try load("builtins/luis-prebuilt.json")
        #expect(builtins(result.dataset) == ["money": "currency", "datetimeV2": "datetime", "age": "age"])
        #expect(result.warnings.contains { $0.contains("prebuilt entity geographyV2 has no NLUKit built-in") })
        #expect(!result.warnings.contains { $0.contains("prebuilt entity age") })
    }

    @Test func rasaProjectConfigDucklingDimensionsAreBuiltins() throws {
        let result = try load("builtins/rasa-duckling/data")
        #expect(builtins(result.dataset) == ["time": "datetime", "number": "number", "amount-of-money": "currency", "distance": "dimension"])
        #expect(result.warnings.contains { $0.contains("Duckling dimension credit-card-number has no NLUKit built-in") })
    }

    /// Duckling's `distance`, `volume` and `quantity` ("3 pounds") are dimensions; `credit-card-number`, which NLUKit
    /// has no recognizer for, is annotated data like any other entity.
    @Test func rasaFileAnnotatedWithDucklingUnitsGetsDimensions() throws {
        let result = try load("builtins/rasa-duckling-units.yml")
        #expect(builtins(result.dataset) == ["distance": "dimension", "volume": "dimension", "quantity": "dimension"])
        #expect(!result.dataset.entities.contains { $0.name == "credit-card-number" })
        #expect(result.dataset.intents.flatMap(\.utterances).flatMap(\.entities).contains { $0.entity == "credit-card-number" })
    }

    @Test func rasaFileAnnotatedWithDucklingNamesGetsThoseBuiltinsOnly() throws {
        let result = try load("builtins/rasa-annotated.yml")
        #expect(builtins(result.dataset) == ["amount-of-money": "currency", "time": "datetime"])
    }

    @Test func datasetWithBuiltinsRoundTripsThroughNLUKitJSON() throws {
        let dataset = try load("lex-v1-bot.json").dataset
        let data = try JSONEncoder().encode(dataset)
        #expect(try IntentDataset.decode(data, file: "x").entities == dataset.entities)
    }
}

@Suite struct BuiltinPredictionTests {
    /// LUIS semantics (docs/builtins.md, LUIS datetimeV2 documentation): "tomorrow" from Monday
    /// 2016-11-07 is 2016-11-08; "$20" is 20 Dollar.
    static let reference = try! ReferenceTime(iso8601: "2016-11-07T10:00:00")

    static func classifier(tagged: Bool) throws -> IntentClassifier {
        func utterance(_ text: String, _ mentions: [(String, String)]) -> Utterance {
            Utterance(text, entities: mentions.map { word, entity in
                let range = text.range(of: word)!
                let start = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound)
                return EntityAnnotation(start: start, end: start + word.unicodeScalars.count, entity: entity, value: word)
            })
        }
        let pay = tagged
            ? [utterance("pay 20 dollars to anna", [("20 dollars", "amount")]), utterance("send $15 to bob", [("$15", "amount")]),
               utterance("transfer 30 euros to my landlord", [("30 euros", "amount")]), utterance("pay the rent", [])]
            : [utterance("pay the landlord", []), utterance("send money to bob", []), utterance("transfer cash to anna", []),
               utterance("pay the rent", [])]
        let dataset = IntentDataset(intents: [
            Intent(name: "pay", utterances: pay),
            Intent(name: "remind", utterances: [utterance("remind me later", []), utterance("set a reminder", []),
                                                utterance("remind me about the meeting", []), utterance("reminder please", [])]),
        ], entities: [EntityDefinition(name: "amount", builtin: "currency"), EntityDefinition(name: "when", builtin: "datetime"),
                      EntityDefinition(name: "count", builtin: "number")])
        var training = TrainingOptions()
        training.hiddenSizes = [8]
        training.epochs = 30
        training.validationSplit = 0
        return try IntentClassifier.train(on: dataset, training: training)
    }

    @Test func predictReturnsBuiltinsResolvedAgainstTheReferenceTime() throws {
        let prediction = try Self.classifier(tagged: false).predict("remind me tomorrow at 7pm to pay $20", reference: Self.reference)
        let when = try #require(prediction.entities.first { $0.entity == "when" })
        #expect(when.text == "tomorrow at 7pm" && when.start == 10 && when.end == 25)
        #expect(when.value == "2016-11-08 19:00:00")
        #expect(when.extractor == .builtin && when.confidence == 1 && when.builtin == .datetime)
        #expect(when.resolution == .dateTimes([DateTimeValue(timex: "2016-11-08T19", type: "datetime", value: "2016-11-08 19:00:00")]))
        let amount = try #require(prediction.entities.first { $0.entity == "amount" })
        #expect(amount.text == "$20" && amount.value == "20" && amount.builtin == .currency)
        if case .value(_, let unit, _) = amount.resolution { #expect(unit == "Dollar") } else { Issue.record("no currency resolution") }
        // The "20" inside "$20" is not also a number.
        #expect(!prediction.entities.contains { $0.entity == "count" })
    }

    @Test func anotherReferenceTimeMovesRelativeDates() throws {
        let prediction = try Self.classifier(tagged: false).predict("remind me tomorrow", reference: try ReferenceTime(iso8601: "2020-02-28"))
        #expect(prediction.entities.map(\.value) == ["2020-02-29"])
    }

    @Test func taggedMentionOfABuiltinEntityGetsTheBuiltinsValue() throws {
        let classifier = try Self.classifier(tagged: true)
        let prediction = classifier.predict("pay 40 dollars to anna", reference: Self.reference)
        let amount = try #require(prediction.entities.first { $0.entity == "amount" })
        // Whichever extractor found it (the tagger when it learned the span), the value is the resolved one.
        #expect(amount.text == "40 dollars")
        #expect(amount.value == "40")
        #expect(amount.builtin == .currency)
        #expect([ExtractedEntity.Extractor.crf, .builtin].contains(amount.extractor))
    }

    @Test func modelWithBuiltinsSavesAndLoadsThem() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("m.nlumodel")
        try Self.classifier(tagged: false).save(to: url)
        let loaded = try IntentClassifier.load(from: url)
        #expect(loaded.entityExtractor?.builtins.typesByEntity["amount"] == [.currency])
        #expect(loaded.predict("pay $20", reference: Self.reference).entities.map(\.value) == ["20"])
    }

    @Test func modelWithoutBuiltinsFindsNone() throws {
        let dataset = IntentDataset(intents: [
            Intent(name: "a", utterances: ["pay the rent", "pay bills"]), Intent(name: "b", utterances: ["hello", "hi there"]),
        ])
        let classifier = try IntentClassifier.train(on: dataset)
        #expect(classifier.predict("pay $20 tomorrow").entities.isEmpty)
    }

    @Test func builtinValueStringsFollowTheDocumentedRules() {
        #expect(BuiltinEntityMatcher.value(of: .value("1500", unit: "Dollar")) == "1500")
        #expect(BuiltinEntityMatcher.value(of: .dateTimes([
            DateTimeValue(timex: "XXXX-WXX-1", type: "date", value: "2016-10-31"),
            DateTimeValue(timex: "XXXX-WXX-1", type: "date", value: "2016-11-07"),
        ])) == "2016-11-07")
        #expect(BuiltinEntityMatcher.value(of: .dateTimes([DateTimeValue(timex: "2016-W46", type: "daterange", start: "2016-11-14", end: "2016-11-21")]))
                == "2016-11-14/2016-11-21")
        #expect(BuiltinEntityMatcher.value(of: .dateTimes([DateTimeValue(timex: "XXXX-WXX-1", type: "set", value: "not resolved")])) == "XXXX-WXX-1")
    }

    @Test func severalEntityNamesOfOneKindLeaveUntaggedMatchesUnderTheKindsName() {
        let matcher = BuiltinEntityMatcher([EntityDefinition(name: "CheckIn", builtin: "date"), EntityDefinition(name: "CheckOut", builtin: "date"),
                                            EntityDefinition(name: "when", builtin: "datetime")])
        #expect(matcher.nameByType[.date] == "date")
        #expect(matcher.nameByType[.time] == "when")
        #expect(matcher.typesByEntity["when"] == BuiltinEntityType.dateTimeTypes)
    }
}

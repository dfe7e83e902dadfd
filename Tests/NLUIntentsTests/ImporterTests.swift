import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// Each importer on a small file written in the platform's real export format.
@Suite struct ImporterTests {
    func load(_ name: String, format: DatasetFormat? = nil) throws -> ImportResult {
        try IntentImporter.importDataset(from: fixture(name), options: ImportOptions(format: format))
    }

    func texts(_ dataset: IntentDataset, _ intent: String) -> [String] {
        dataset.intent(named: intent)?.utterances.map(\.text) ?? []
    }

    @Test func watsonWorkspaceKeepsMentionsCounterexamplesAndEntities() throws {
        let result = try load("watson-workspace.json")
        #expect(result.format == .watson)
        let dataset = result.dataset
        #expect(dataset.language == "en")
        #expect(dataset.intents.map(\.name) == ["turn_on", "weather"])
        #expect(dataset.intents[0].description == "Turn a device on")
        #expect(dataset.intents[0].utterances[0].entities == [EntityAnnotation(start: 14, end: 24, entity: "appliance", value: "headlights")])
        #expect(dataset.intents[1].utterances[1].entities == [EntityAnnotation(start: 27, end: 33, entity: "city", value: "Zürich")])
        #expect(dataset.counterexamples.map(\.text) == ["tell me a joke"])
        #expect(dataset.entities.map(\.name) == ["appliance", "phone"])
        #expect(dataset.entities[0].values[0] == EntityValue("headlights", synonyms: ["lights", "high beams"]))
        #expect(dataset.entities[1].values[0].patterns == ["\\d{3}-\\d{3}-\\d{4}"])
    }

    @Test func watsonWorkspaceWithByteOrderMarkReadsTheSame() throws {
        #expect(try load("watson-workspace-bom.json").dataset == load("watson-workspace.json").dataset)
    }

    @Test func watsonNLCCSVUsesFirstClassAndWarns() throws {
        let result = try load("watson-nlc.csv", format: .watsonNLC)
        #expect(result.dataset.intents.map(\.name) == ["temperature", "conditions"])
        #expect(texts(result.dataset, "temperature")[2] == "Will it be uncomfortably hot, or cold?")
        #expect(texts(result.dataset, "conditions").last == "She said \"umbrella\" twice")
        #expect(result.warnings.contains { $0.contains("several classes") })
    }

    @Test func csvWithHeaderQuotingAndOutOfScopeLabel() throws {
        let result = try load("intents.csv")
        #expect(result.format == .csv)
        #expect(result.dataset.intents.map(\.name) == ["turn_on", "greet"])
        #expect(texts(result.dataset, "turn_on") == ["turn on the radio", "switch on the lights, please"])
        #expect(texts(result.dataset, "greet") == ["say \"hello\" to the car", "hi there"])
        #expect(result.dataset.counterexamples.map(\.text) == ["what's the capital of Peru"])
    }

    @Test func lexV1ExpandsPlaceholdersWithSlotValues() throws {
        let result = try load("lex-v1-bot.json")
        #expect(result.format == .lexV1)
        #expect(result.dataset.language == "en")
        let order = texts(result.dataset, "OrderFlowers")
        #expect(order == ["I would like to pick up flowers", "I would like to order some flowers",
                          "I want tulips for tomorrow", "order lilies"])
        let annotated = try #require(result.dataset.intent(named: "OrderFlowers")?.utterances[2])
        #expect(annotated.entities == [EntityAnnotation(start: 7, end: 13, entity: "FlowerType", value: "tulips"),
                                       EntityAnnotation(start: 18, end: 26, entity: "PickupDate", value: "tomorrow")])
        // A slot type without values becomes the neutral token, still annotated.
        let cancel = try #require(result.dataset.intent(named: "CancelOrder")?.utterances[2])
        #expect(cancel.text == "cancel the \(PlaceholderExpander.neutralToken) ones")
        #expect(cancel.entities.first?.entity == "Color")
        #expect(cancel.entities.first?.value == nil)
        #expect(result.dataset.entities.first?.values.map(\.value) == ["tulips", "lilies", "roses"])
    }

    @Test func lexV2FolderAndZipReadTheSameAndChooseEnglish() throws {
        let folder = try load("lexv2-bot")
        let zip = try load("lexv2-bot.zip")
        #expect(folder.format == .lexV2 && zip.format == .lexV2)
        #expect(folder.dataset == zip.dataset)
        let dataset = zip.dataset
        #expect(dataset.language == "en")
        #expect(dataset.intents.map(\.name).sorted() == ["CancelOrder", "OrderFlowers"])   // the fallback intent has no utterances
        #expect(texts(dataset, "OrderFlowers") == ["I would like to buy flowers", "I want to order lilies", "can I get roses in two days"])
        let utterance = try #require(dataset.intent(named: "OrderFlowers")?.utterances[2])
        #expect(utterance.entities.map(\.entity) == ["FlowerType", "Quantity"])
        #expect(dataset.entities.first?.values[1] == EntityValue("roses", synonyms: ["rose"]))
        #expect(zip.warnings.contains { $0.contains("de_DE") })
    }

    @Test func dialogflowFolderAndZipJoinPartsIntoAnnotatedUtterances() throws {
        let folder = try load("dialogflow-agent")
        let zip = try load("dialogflow-agent.zip")
        #expect(folder.format == .dialogflow && zip.format == .dialogflow)
        #expect(folder.dataset == zip.dataset)
        let dataset = zip.dataset
        #expect(dataset.intents.map(\.name).sorted() == ["Default Welcome Intent", "order.pizza"])
        let pizza = try #require(dataset.intent(named: "order.pizza"))
        #expect(pizza.utterances[0] == Utterance("I'd like a large pizza", entities: [EntityAnnotation(start: 11, end: 16, entity: "size", value: "large")]))
        #expect(pizza.utterances[1].entities == [EntityAnnotation(start: 10, end: 18, entity: "sys.date", value: "tomorrow")])
        #expect(dataset.counterexamples.map(\.text) == ["what is the stock price of apple"])
        #expect(dataset.entities == [EntityDefinition(name: "size", values: [EntityValue("large", synonyms: ["large", "big", "family size"]),
                                                                            EntityValue("small", synonyms: ["small", "tiny"])]),
                                     EntityDefinition(name: "sys.date", builtin: "date")])
    }

    @Test func alexaExpandsSlotsAndSkipsBuiltInsWithoutSamples() throws {
        let result = try load("alexa-model.json")
        #expect(result.format == .alexa)
        #expect(result.dataset.intents.map(\.name) == ["GetPlanetFactIntent", "GetTravelTimeIntent"])
        #expect(texts(result.dataset, "GetPlanetFactIntent") == ["tell me about Mars", "a fact about Jupiter", "what do you know about Mars"])
        #expect(texts(result.dataset, "GetTravelTimeIntent") == ["how long to fly for two days", "travel at \(PlaceholderExpander.neutralToken)"])
        #expect(result.dataset.counterexamples.map(\.text) == ["order a pizza"])
        #expect(result.warnings.contains { $0.contains("AMAZON.StopIntent") })
    }

    @Test func rasaYAMLTurnsMarkupIntoAnnotations() throws {
        let result = try load("rasa-nlu.yml")
        #expect(result.format == .rasaYAML)
        let dataset = result.dataset
        #expect(dataset.intents.map(\.name) == ["greet", "book_flight"])
        let flights = try #require(dataset.intent(named: "book_flight")).utterances
        #expect(flights[0] == Utterance("fly to Paris tomorrow", entities: [EntityAnnotation(start: 7, end: 12, entity: "city", value: "Paris")]))
        #expect(flights[1].text == "book a flight from NYC to Zürich")
        #expect(flights[1].entities == [EntityAnnotation(start: 19, end: 22, entity: "city", value: "New York", role: "origin"),
                                        EntityAnnotation(start: 26, end: 32, entity: "city", value: "Zürich")])
        #expect(flights[2].entities == [EntityAnnotation(start: 9, end: 15, entity: "seat", value: "window seat")])
        #expect(dataset.counterexamples.map(\.text) == ["what is the meaning of life"])
        #expect(dataset.entities.map(\.name) == ["city", "flight_number", "synonyms"])
        #expect(dataset.entities[2].values == [EntityValue("New York", synonyms: ["NYC", "the big apple"])])
    }

    @Test func malformedYAMLSaysWhere() throws {
        #expect {
            try load("rasa-bad.yml")
        } throws: { error in
            let message = "\(error)"
            return message.contains("rasa-bad.yml") && message.contains("line ")
        }
    }

    @Test func legacyRasaJSONAndMarkdown() throws {
        let json = try load("rasa-legacy.json")
        #expect(json.format == .rasaJSON)
        #expect(json.dataset.intents.map(\.name) == ["greet", "restaurant_search", "goodbye"])
        #expect(json.dataset.intents[1].utterances[0].entities == [EntityAnnotation(start: 8, end: 15, entity: "cuisine", value: "chinese")])
        #expect(json.dataset.entities.map(\.name) == ["synonyms", "zipcode", "cuisine"])

        let markdown = try load("rasa-legacy.md")
        #expect(markdown.format == .rasaMarkdown)
        #expect(markdown.dataset.intents.map(\.name) == ["greet", "restaurant_search"])
        let search = markdown.dataset.intents[1].utterances
        #expect(search[0] == Utterance("show me chinese restaurants", entities: [EntityAnnotation(start: 8, end: 15, entity: "cuisine", value: "chinese")]))
        #expect(search[2].entities == [EntityAnnotation(start: 0, end: 6, entity: "cuisine", value: "vegetarian")])
        #expect(markdown.dataset.entities[0].values == [EntityValue("vegetarian", synonyms: ["veggie", "vegg"])])
    }

    @Test func luisInclusiveEndAndNoneIntent() throws {
        let result = try load("luis-app.json")
        #expect(result.format == .luis)
        #expect(result.dataset.intents.map(\.name) == ["HomeAutomation.TurnOn", "HomeAutomation.TurnOff"])
        #expect(result.dataset.intents[0].utterances[0].entities == [EntityAnnotation(start: 12, end: 16, entity: "HomeAutomation.Device", value: "lamp")])
        #expect(result.dataset.intents[0].utterances[1].entities.first?.value == "fan")
        #expect(result.dataset.counterexamples.map(\.text) == ["what time is it"])
        #expect(result.dataset.entities.first?.values.first == EntityValue("kitchen", synonyms: ["cookery", "kitchen"]))
    }

    @Test func snipsJoinsPartsAndFallsBackToLatin1WithAWarning() throws {
        let utf8 = try load("snips-utf8.json")
        #expect(utf8.format == .snips)
        #expect(utf8.warnings.isEmpty)
        let play = try #require(utf8.dataset.intent(named: "PlayMusic")).utterances
        #expect(play[0] == Utterance("play Beyoncé on Spotify", entities: [
            EntityAnnotation(start: 5, end: 12, entity: "artist", value: "Beyoncé"),
            EntityAnnotation(start: 16, end: 23, entity: "service", value: "Spotify")]))

        let latin1 = try load("snips-latin1.json")
        #expect(latin1.warnings.count == 1)
        #expect(latin1.warnings[0].contains("Latin-1"))
        #expect(latin1.dataset.intent(named: "PlayMusic")?.utterances.map(\.text) == ["play Cita Romántica now", "put on some Beyoncé"])
        #expect(latin1.dataset.intent(named: "PlayMusic")?.utterances[0].entities == [EntityAnnotation(start: 5, end: 19, entity: "playlist", value: "Cita Romántica")])
    }

    @Test func nativeDatasetRoundTrips() throws {
        let result = try load("nlukit-dataset.json")
        #expect(result.format == .nlukit)
        let directory = try TestScratch.folder()
        let url = directory.appendingPathComponent("copy.json")
        try result.dataset.save(to: url)
        var warnings: [String] = []
        #expect(try IntentDataset.load(from: url, warnings: &warnings) == result.dataset)
        #expect(warnings.isEmpty)
        #expect(result.dataset.intents[0].utterances[0].entities[0] == EntityAnnotation(start: 12, end: 17, entity: "appliance", value: "radio"))
    }

    /// `IntentDataset.load` read a Latin-1 file and dropped the warning the importers give for it.
    @Test func loadingALatin1DatasetWarns() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("latin1.json")
        let json = #"{"format": "nlukit-intents", "version": 1, "intents": [{"name": "caf\#u{E9}", "utterances": [{"text": "un caf\#u{E9}"}]}, {"name": "b", "utterances": [{"text": "bye"}]}]}"#
        try #require(json.data(using: .isoLatin1)).write(to: url)
        var warnings: [String] = []
        let dataset = try IntentDataset.load(from: url, warnings: &warnings)
        #expect(dataset.intents[0].utterances[0].text == "un caf\u{E9}")
        #expect(warnings == ["\(url.path): not valid UTF-8; read as Latin-1 (Windows-1252)"])
    }

    @Test func severalInputsMerge() throws {
        let merged = try IntentImporter.importDataset(from: [fixture("snips-utf8.json"), fixture("rasa-nlu.yml")])
        #expect(merged.dataset.intents.map(\.name) == ["GetWeather", "PlayMusic", "greet", "book_flight"])
    }

    @Test func textDecodingMapsWindows1252Punctuation() {
        var warnings: [String] = []
        let text = TextDecoding.string(from: Data([0x93, 0x63, 0x61, 0x66, 0xE9, 0x94, 0x20, 0x80]), file: "x", warnings: &warnings)
        #expect(text == "\u{201C}café\u{201D} €")
        #expect(warnings.count == 1)
    }
}

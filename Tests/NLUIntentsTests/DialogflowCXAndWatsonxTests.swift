import Foundation
import Testing
@testable import NLUIntents

/// Dialogflow CX agent packages (scripts/fixtures/dialogflow_cx_agent.py) and watsonx Assistant
/// actions skills (a hand-written fixture in the export's shape).
@Suite struct DialogflowCXAndWatsonxTests {
    func load(_ path: String, language: String? = nil) throws -> ImportResult {
        try IntentImporter.importDataset(from: fixture("platforms/\(path)"), options: ImportOptions(language: language))
    }

    @Test func dialogflowCXFolderAndZipWithANestedRootReadTheSame() throws {
        let folder = try load("dialogflow-cx-agent")
        let zip = try load("dialogflow-cx-agent.zip")
        #expect(folder.format == .dialogflowCX && zip.format == .dialogflowCX)
        #expect(folder.dataset == zip.dataset)
    }

    @Test func dialogflowCXResolvesParametersToEntityTypes() throws {
        let result = try load("dialogflow-cx-agent.zip")
        let dataset = result.dataset
        #expect(dataset.language == "en")
        #expect(dataset.intents.map(\.name) == ["Default Welcome Intent", "order.pizza", "order.status"])
        #expect(dataset.intents.map(\.utterances.count) == [2, 4, 2])
        #expect(dataset.counterexamples.map(\.text) == ["what is the meaning of life"])
        let pizza = try #require(dataset.intent(named: "order.pizza"))
        #expect(pizza.description == "Order a pizza")
        #expect(pizza.utterances[0].text == "I want a large pizza with mushrooms")
        #expect(pizza.utterances[0].entities == [EntityAnnotation(start: 9, end: 14, entity: "size", value: "large"),
                                                  EntityAnnotation(start: 26, end: 35, entity: "topping", value: "mushrooms")])
        #expect(pizza.utterances[1].entities == [EntityAnnotation(start: 6, end: 7, entity: "sys.number", value: "2", role: "count"),
                                                  EntityAnnotation(start: 8, end: 13, entity: "size", value: "small"),
                                                  EntityAnnotation(start: 25, end: 33, entity: "sys.date", value: "tomorrow", role: "delivery_date")])
        // A part whose parameter the intent does not declare stays plain text, with a warning.
        #expect(pizza.utterances[3].entities.isEmpty)
        #expect(result.warnings.contains { $0.contains("parameter 'extra'") && $0.contains("trainingPhrases/en.json") })
        #expect(result.warnings.contains { $0.contains("empty.intent") })
    }

    @Test func dialogflowCXEntityKindsAndSystemEntities() throws {
        let entities = try load("dialogflow-cx-agent").dataset.entities
        #expect(entities.map(\.name) == ["order_id", "size", "topping", "sys.number", "sys.date"])
        #expect(entities[0].values == [EntityValue("order_id_1", patterns: ["PZ-[0-9]{4}"])])
        #expect(entities[1].values == [EntityValue("large", synonyms: ["big", "family size"]), EntityValue("small", synonyms: ["little"])])
        #expect(entities[1].extensible && !entities[2].extensible)
        #expect(entities[2].values == [EntityValue("mushrooms"), EntityValue("ham")])
        #expect(entities[3].builtin == "number" && entities[4].builtin == "date")
    }

    @Test func dialogflowCXLanguageOption() throws {
        let german = try load("dialogflow-cx-agent", language: "de")
        #expect(german.dataset.language == "de")
        #expect(german.dataset.intents.map(\.name) == ["Default Welcome Intent", "order.pizza"])
        #expect(german.dataset.intents[1].utterances[0].entities == [EntityAnnotation(start: 5, end: 10, entity: "size", value: "große")])
        #expect(german.dataset.entities[1].values == [EntityValue("large", synonyms: ["groß", "große"])])
    }

    @Test func watsonxActionsNameTheirIntentsAfterTheActionTitle() throws {
        let result = try load("watsonx-actions.json")
        #expect(result.format == .watsonxActions)
        let dataset = result.dataset
        #expect(dataset.language == "en")
        #expect(dataset.intents.map(\.name) == ["Pay a bill", "check_balance", "Transfer money", "action_99999_intent_1"])
        #expect(dataset.intents.map(\.utterances.count) == [3, 2, 2, 1])
        #expect(dataset.intents[0].utterances[1].entities == [EntityAnnotation(start: 30, end: 38, entity: "account_type", value: "checking")])
        #expect(dataset.counterexamples.map(\.text) == ["tell me a joke"])
        #expect(dataset.entities.map(\.name) == ["account_type", "iban", "sys-number", "sys-date"])
        #expect(dataset.entities[0].values[0] == EntityValue("checking", synonyms: ["current", "checking account"]))
        #expect(dataset.entities[1].values[0].patterns == ["[A-Z]{2}[0-9]{2}[A-Z0-9]{12,30}"])
        #expect(dataset.entities[2].builtin == "number" && dataset.entities[3].builtin == "date")
        #expect(result.warnings.contains { $0.contains("sys-location") })
        #expect(result.warnings.contains { $0.contains("action_99999_intent_1") })
    }
}

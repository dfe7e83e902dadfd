import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// A Rasa project folder as it lies on disk (YAML with Windows line endings, stories and rules to
/// skip, legacy Markdown with a lookup file reference, a broken file) and snips-nlu's own dataset
/// formats (JSON and YAML), plus format detection of every newer format.
@Suite struct RasaProjectAndSnipsNLUTests {
    func load(_ path: String, format: DatasetFormat? = nil) throws -> ImportResult {
        try IntentImporter.importDataset(from: fixture("platforms/\(path)"), options: ImportOptions(format: format))
    }

    @Test func rasaProjectFolderMergesEveryNLUFileAndSkipsTheRest() throws {
        let result = try load("rasa-project/data")
        #expect(result.format == .rasaYAML)
        let dataset = result.dataset
        #expect(dataset.intents.map(\.name) == ["goodbye", "greet", "order_pizza"])
        #expect(dataset.intents.map(\.utterances.count) == [2, 3, 4])
        #expect(dataset.counterexamples.map(\.text) == ["what is the capital of Peru"])
        // CRLF lines read as lines; markup with values and roles.
        let pizza = try #require(dataset.intent(named: "order_pizza")).utterances
        #expect(pizza[0] == Utterance("I want a large pizza", entities: [EntityAnnotation(start: 9, end: 14, entity: "size", value: "large")]))
        #expect(pizza[1].entities == [EntityAnnotation(start: 4, end: 9, entity: "size", value: "small", role: "main"),
                                      EntityAnnotation(start: 16, end: 27, entity: "size", value: "large")])
        #expect(pizza[3].entities == [EntityAnnotation(start: 15, end: 22, entity: "order_id", value: "PZ-1234")])
        #expect(dataset.entities.map(\.name) == ["plates", "topping", "order_id", "synonyms"])
        #expect(dataset.entities[0].values.map(\.value) == ["margherita", "quattro formaggi", "hawaii"])
        #expect(dataset.entities[3].values == [EntityValue("large", synonyms: ["big", "family size"])])
        let warnings = result.warnings
        #expect(warnings.contains { $0.contains("broken.yml") && $0.contains("file skipped") })
        #expect(warnings.contains { $0.contains("legacy.md: line 10") && $0.contains("does-not-exist.txt") })
        #expect(warnings.contains { $0.contains("without NLU data skipped") && $0.contains("stories.yml") && $0.contains("rules.yml") })
        #expect(warnings.contains { $0.contains("'greet' has 1 duplicate") })
        #expect(warnings.contains { $0.contains("empty_intent") })
    }

    @Test func rasaProjectRootFolderIsReadToo() throws {
        // config.yml and domain.yml beside data/: skipped, not an error.
        let result = try load("rasa-project")
        #expect(result.dataset.utteranceCount == 9)
    }

    @Test func snipsNLUJSONKeepsSlotNamesAsRolesAndBuiltins() throws {
        let result = try load("snips-nlu-dataset.json")
        #expect(result.format == .snipsNLU)
        let dataset = result.dataset
        #expect(dataset.language == "en")
        #expect(dataset.intents.map(\.name) == ["setTemperature", "turnLightOn"])
        #expect(dataset.intent(named: "setTemperature")?.utterances[0].entities == [
            EntityAnnotation(start: 23, end: 33, entity: "snips/temperature", value: "19 degrees", role: "roomTemperature"),
            EntityAnnotation(start: 41, end: 48, entity: "room", value: "bedroom")])
        #expect(dataset.intent(named: "turnLightOn")?.utterances[1].entities == [
            EntityAnnotation(start: 26, end: 38, entity: "room", value: "cooking room", role: "lightRoom")])
        #expect(dataset.entities.map(\.name) == ["room", "snips/temperature"])
        #expect(dataset.entities[0] == EntityDefinition(name: "room", values: [EntityValue("kitchen", synonyms: ["cooking room"]), EntityValue("bedroom")], extensible: false))
        #expect(dataset.entities[1].builtin == "temperature")
        #expect(result.warnings.contains { $0.contains("snips/musicAlbum") })
        #expect(result.warnings.contains { $0.contains("emptyIntent") })
    }

    @Test func snipsNLUYAMLReadsLikeItsGeneratedJSON() throws {
        let yaml = try load("snips-nlu-dataset.yaml")
        let json = try load("snips-nlu-dataset.json")
        #expect(yaml.format == .snipsNLU)
        #expect(yaml.dataset.intents.map(\.name) == ["turnLightOn", "setTemperature"])
        for intent in yaml.dataset.intents {
            #expect(intent.utterances == json.dataset.intent(named: intent.name)?.utterances)
        }
        #expect(yaml.dataset.entities == [json.dataset.entities[0]])
    }

    /// Plain YAML scalars are the text written: `yes`, `on`, `42`, `null` were read as a boolean, a number or
    /// nothing and the utterances dropped without a word (an `affirm` intent lost its "yes"), and the entity
    /// value `yes` was written `true`. An item that is not text is skipped with a warning naming it.
    @Test func snipsNLUYAMLKeepsPlainScalarsAsWrittenAndWarnsAboutLists() throws {
        let url = try writeTemporaryFile("""
            type: intent
            name: affirm
            utterances:
              - yes
              - on
              - 42
              - null
              - [x, y]
              - "yes please"
            ---
            type: intent
            name: deny
            utterances:
              - no
            ---
            type: entity
            name: answer
            values:
              - yes
              - [no, off]

            """, name: "yes.yaml")
        let result = try IntentImporter.importDataset(from: url, options: ImportOptions(format: .snipsNLU))
        #expect(result.dataset.intent(named: "affirm")?.utterances.map(\.text) == ["yes", "on", "42", "null", "yes please"])
        #expect(result.dataset.intent(named: "deny")?.utterances.map(\.text) == ["no"])
        #expect(result.dataset.entities == [EntityDefinition(name: "answer", values: [EntityValue("yes"), EntityValue("no", synonyms: ["off"])])])
        #expect(result.warnings.contains { $0.hasSuffix("yes.yaml: document 1 (intent 'affirm'): utterances[4] is not text; skipped (quote an item that starts with '[' or '{': YAML reads it as a list or a mapping)") },
                "\(result.warnings)")
    }

    /// A syntax error inside a snips-nlu YAML document is named with its line: the document
    /// sequence Yams offers ends silently at an error, and the file was reported as having no intents.
    @Test func snipsNLUYAMLSyntaxErrorNamesItsLine() throws {
        let url = try writeTemporaryFile("""
            type: intent
            name: book
            utterances:
              - [x](
              - book a table

            """, name: "broken.yaml")
        #expect {
            try IntentImporter.importDataset(from: url, options: ImportOptions(format: .snipsNLU))
        } throws: { error in
            let text = "\(error)"
            return text.contains("broken.yaml") && text.contains("line 4") && !text.contains("no intents")
        }
    }

    /// Rasa reads YAML 1.2, where `yes`, `on` and `no` are text; read as YAML 1.1 values they were
    /// booleans, and examples in list form, a `synonym: yes` item and lookup values were dropped without a word.
    @Test func rasaYAMLKeepsPlainScalarsAsWritten() throws {
        let url = try writeTemporaryFile("""
            version: "3.1"
            nlu:
            - intent: affirm
              examples:
              - yes
              - on
              - text: sure
              - [a, b]
            - intent: deny
              examples: |
                - no
            - synonym: yes
              examples: |
                - yep
            - lookup: answer
              examples:
              - no
              - off

            """, name: "nlu.yml")
        let result = try IntentImporter.importDataset(from: url, options: ImportOptions(format: .rasaYAML))
        #expect(result.dataset.intent(named: "affirm")?.utterances.map(\.text) == ["yes", "on", "sure"])
        #expect(result.dataset.intent(named: "deny")?.utterances.map(\.text) == ["no"])
        #expect(result.dataset.entities == [EntityDefinition(name: "answer", values: [EntityValue("no"), EntityValue("off")]),
                                            EntityDefinition(name: "synonyms", values: [EntityValue("yes", synonyms: ["yep"])])])
        #expect(result.warnings.contains { $0.hasSuffix("nlu.yml: nlu[0].examples[3] is not text; skipped (quote an item that starts with '[' or '{': YAML reads it as a list or a mapping)") },
                "\(result.warnings)")
    }

    @Test func everyNewFormatIsDetectedAndFormatOverrides() throws {
        let cases: [(String, DatasetFormat)] = [
            ("clu-utf8.json", .clu), ("lu-app/main.lu", .lu), ("lu-app", .lu), ("dialogflow-cx-agent", .dialogflowCX),
            ("dialogflow-cx-agent.zip", .dialogflowCX), ("watsonx-actions.json", .watsonxActions),
            ("rasa-project/data", .rasaYAML), ("snips-nlu-dataset.json", .snipsNLU), ("snips-nlu-dataset.yaml", .snipsNLU),
        ]
        for (path, format) in cases { #expect(try load(path).format == format, "\(path)") }
        // A .lu file under another name is read with --format lu; a wrong --format fails naming the file.
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let renamed = directory.appendingPathComponent("app.txt")
        try FileManager.default.copyItem(at: fixture("platforms/lu-app/chitchat/greetings.lu"), to: renamed)
        #expect(throws: IntentDatasetError.self) { try IntentImporter.importDataset(from: renamed) }
        let forced = try IntentImporter.importDataset(from: renamed, options: ImportOptions(format: .lu))
        #expect(forced.dataset.intents.map(\.name) == ["Greeting", "Goodbye"])
        do {
            _ = try load("watsonx-actions.json", format: .clu)
            Issue.record("a CLU read of a watsonx file must fail")
        } catch {
            #expect("\(error)".contains("watsonx-actions.json"))
        }
    }
}

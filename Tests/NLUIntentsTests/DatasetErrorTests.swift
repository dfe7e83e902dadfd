import Foundation
import Testing
@testable import NLUIntents

/// Bad datasets and exports give errors that name the file and what is wrong.
@Suite struct DatasetErrorTests {
    func write(_ text: String, name: String) throws -> URL { try writeTemporaryFile(text, name: name) }

    func importError(_ url: URL, format: DatasetFormat? = nil) -> IntentDatasetError? {
        do {
            _ = try IntentImporter.importDataset(from: url, options: ImportOptions(format: format))
            return nil
        } catch { return error as? IntentDatasetError }
    }

    @Test func malformedJSONSaysLineAndColumn() throws {
        let url = try write("{\n  \"intents\": [\n    {\"intent\": tru}\n  ]\n}", name: "bad.json")
        let error = try #require(importError(url))
        guard case .malformedJSON(_, let detail) = error else { Issue.record("got \(error)"); return }
        #expect(detail.hasPrefix("line 3, column "))
    }

    @Test func missingFieldNamesThePath() throws {
        let url = try write(#"{"intents": [{"intent": "a", "examples": [{"txt": "x"}]}], "dialog_nodes": []}"#, name: "w.json")
        let error = try #require(importError(url))
        #expect("\(error)".contains("missing field 'text' in intents[0].examples[0]"))
    }

    @Test func unknownFormatIsReported() throws {
        let url = try write(#"{"hello": "world"}"#, name: "x.json")
        guard case .unknownFormat = try #require(importError(url)) else { Issue.record("expected unknownFormat"); return }
        let text = try write("just some words", name: "notes.txt")
        guard case .unknownFormat = try #require(importError(text)) else { Issue.record("expected unknownFormat"); return }
    }

    @Test func zipWithoutExpectedFiles() throws {
        let error = try #require(importError(fixture("empty-export.zip")))
        guard case .missingFiles = error else { Issue.record("got \(error)"); return }
        let forced = try #require(importError(fixture("empty-export.zip"), format: .dialogflow))
        guard case .missingFiles = forced else { Issue.record("got \(forced)"); return }
    }

    @Test func noIntentsOneIntentEmptyUtteranceDuplicates() throws {
        let none = try write(#"{"format": "nlukit-intents", "version": 1, "intents": []}"#, name: "none.json")
        #expect(importError(none) == .noIntents(file: none.path))

        var warnings: [String] = []
        let one = try IntentDataset.load(from: write(#"{"format": "nlukit-intents", "version": 1, "intents": [{"name": "a", "utterances": [{"text": "hi"}]}]}"#, name: "one.json"),
                                         warnings: &warnings)
        #expect(throws: IntentDatasetError.tooFewIntents(file: "one.json", names: ["a"])) { try one.validateForTraining(file: "one.json") }

        let empty = try write(#"{"format": "nlukit-intents", "version": 1, "intents": [{"name": "a", "utterances": [{"text": "hi"}, {"text": "  "}]}]}"#, name: "empty.json")
        #expect(importError(empty) == .emptyUtterance(file: empty.path, intent: "a", index: 1))

        let duplicate = try write(#"{"intents": [{"intent": "a", "examples": [{"text": "x"}]}, {"intent": "a", "examples": [{"text": "y"}]}], "dialog_nodes": []}"#, name: "dup.json")
        #expect(importError(duplicate) == .duplicateIntent(file: duplicate.path, name: "a"))
    }

    /// An invalid regex was found only when the tagger compiled it, and the error named no file.
    @Test func anInvalidPatternIsRefusedBeforeTrainingNamingTheFile() throws {
        let dataset = IntentDataset(intents: [Intent(name: "a", utterances: ["hi"]), Intent(name: "b", utterances: ["bye"])],
                                    entities: [EntityDefinition(name: "phone", values: [EntityValue("phone", patterns: ["(unclosed["])])])
        #expect(throws: IntentDatasetError.invalidEntity(file: "ds.json", entity: "phone",
                                                         detail: "value 'phone': pattern '(unclosed[' is not a valid ICU regular expression")) {
            try dataset.validateForTraining(file: "ds.json")
        }
        #expect {
            _ = try IntentClassifier.train(on: dataset, file: "ds.json")
        } throws: { "\($0)".hasPrefix("ds.json: entity 'phone'") }
    }

    /// Definitions that were accepted and then silently did nothing (or an empty name in the model).
    @Test func uselessNamesAndEntityDefinitionsAreRefused() throws {
        let intents = [Intent(name: "a", utterances: ["hi"]), Intent(name: "b", utterances: ["bye"])]
        func problem(_ dataset: IntentDataset) -> String {
            do { try dataset.validate(file: "ds.json"); return "" } catch { return "\(error)" }
        }
        #expect(problem(IntentDataset(intents: intents + [Intent(name: " ", utterances: ["x"])])) == "ds.json: an intent has an empty name")
        #expect(problem(IntentDataset(intents: intents, entities: [EntityDefinition(name: "")])) == "ds.json: an entity has an empty name")
        #expect(problem(IntentDataset(intents: intents, entities: [EntityDefinition(name: "c"), EntityDefinition(name: "c")]))
            == "ds.json: entity 'c': is defined more than once")
        #expect(problem(IntentDataset(intents: intents, entities: [EntityDefinition(name: "c", values: [EntityValue("x"), EntityValue("")])]))
            == "ds.json: entity 'c': value 1 is empty")
        #expect(problem(IntentDataset(intents: intents, entities: [EntityDefinition(name: "c", builtin: "zipcode")])).contains("builtin 'zipcode' is not one of number, "))
        #expect(problem(IntentDataset(intents: intents, entities: [EntityDefinition(name: "c", builtin: "datetime"), EntityDefinition(name: "d", builtin: "number")])) == "")
        var old = IntentDataset(intents: intents)
        old.version = 0
        #expect(problem(old).contains("field 'version' is 0, expected 1 to 1"))
    }

    @Test func newerDatasetVersionIsRefused() throws {
        let url = try write(#"{"format": "nlukit-intents", "version": 99, "intents": [], "newField": 1}"#, name: "new.json")
        #expect(importError(url) == .newerVersion(file: url.path, found: 99, supported: IntentDataset.currentVersion))
    }

    @Test func annotationOutsideTheTextIsRejected() throws {
        let url = try write(#"{"format": "nlukit-intents", "version": 1, "intents": [{"name": "a", "utterances": [{"text": "hi", "entities": [{"start": 0, "end": 5, "entity": "e"}]}]}]}"#, name: "ann.json")
        guard case .invalidAnnotation = try #require(importError(url)) else { Issue.record("expected invalidAnnotation"); return }
    }
}

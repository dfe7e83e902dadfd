import Foundation
import Testing
@testable import NLUIntents

/// CLU exports of the earlier API versions (top-level `api-version`, no `projectFileVersion`;
/// intents and entities by `name`, utterances in `assets.examples`, spans by `entity`, the kind in
/// `metadata.type`) were not recognised: "no known export has the top-level keys api-version, assets, ...".
@Suite struct CLUEarlierVersionTests {
    @Test func apiVersionExportIsDetectedAndImported() throws {
        let result = try IntentImporter.importDataset(from: fixture("platforms/clu-api-version.json"))
        #expect(result.format == .clu)
        let dataset = result.dataset
        #expect(dataset.language == "en")
        #expect(dataset.intents.map(\.name) == ["Read", "Delete"])
        #expect(dataset.intents.map(\.utterances.count) == [2, 2])
        #expect(dataset.counterexamples.map(\.text) == ["what's the weather"])
        #expect(dataset.intent(named: "Read")?.utterances[0].entities == [EntityAnnotation(start: 20, end: 25, entity: "Sender", value: "carol")])
        #expect(dataset.intent(named: "Delete")?.utterances[0].entities == [EntityAnnotation(start: 26, end: 32, entity: "Sender", value: "martha")])
    }

    /// The shape between the two (`api-version` with `category`, `utterances` and `projectKind`) reads the same.
    @Test func apiVersionWithCategoriesReadsToo() throws {
        let url = try writeTemporaryFile("""
            {"api-version": "2022-03-01-preview", "stringIndexType": "Utf16CodeUnit",
             "metadata": {"projectKind": "Conversation", "language": "en-us"},
             "assets": {"intents": [{"category": "Read"}, {"category": "Delete"}],
                        "utterances": [{"text": "read mail from bob", "intent": "Read", "entities": [{"category": "Sender", "offset": 15, "length": 3}]},
                                       {"text": "delete it", "intent": "Delete"}]}}
            """, name: "project.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let result = try IntentImporter.importDataset(from: url)
        #expect(result.format == .clu)
        #expect(result.dataset.intent(named: "Read")?.utterances[0].entities == [EntityAnnotation(start: 15, end: 18, entity: "Sender", value: "bob")])
    }

    /// An orchestration ("Workflow") project of that time is refused as one, and Azure's other projects of
    /// that time (custom text classification: `classifiers`, `documents`) are not taken for CLU.
    @Test func otherProjectsOfThatTimeAreNotConversations() throws {
        let workflow = try writeTemporaryFile("""
            {"api-version": "2021-11-01-preview", "metadata": {"name": "Orch", "type": "Workflow", "language": "en-us"},
             "assets": {"intents": [{"name": "Greeting"}]}}
            """, name: "workflow.json")
        defer { try? FileManager.default.removeItem(at: workflow.deletingLastPathComponent()) }
        #expect(throws: IntentDatasetError.unknownFormat(file: workflow.path, detail: "metadata.projectKind is 'Workflow'; only Conversation projects hold intents")) {
            _ = try IntentImporter.importDataset(from: workflow)
        }
        #expect(!CLUImporter.isProject(["api-version": "2021-11-01-preview", "assets": ["classifiers": [], "documents": []]]))
    }
}

import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// Messages that name what is wrong: an empty input, a mistyped Watson field, an intent defined in
/// two files.
@Suite struct ImportMessageTests {
    func write(_ text: String, name: String) throws -> URL { try writeTemporaryFile(text, name: name) }

    @Test func emptyInputIsNamedAsSuch() throws {
        for content in ["", "  \n\t\n"] {
            let url = try write(content, name: "standard input")
            #expect(throws: IntentDatasetError.emptyInput(file: url.path)) { _ = try IntentImporter.importDataset(from: url) }
        }
        #expect("\(IntentDatasetError.emptyInput(file: "standard input"))" == "standard input: empty input: expected a dataset or an export")
    }

    /// A Watson workspace whose `intents` is an object looked like a Snips NLU dataset to detection,
    /// which then complained about `entities`; its own keys now decide, and the message names `intents`.
    @Test func aWatsonWorkspaceWithAMistypedIntentsFieldNamesIt() throws {
        let url = try write(#"{"intents":{},"entities":[],"language":"en","dialog_nodes":[]}"#, name: "workspace.json")
        let error = #expect(throws: IntentDatasetError.self) { _ = try IntentImporter.importDataset(from: url) }
        let message = "\(try #require(error))"
        #expect(message.contains("intents") && !message.contains("entities"), "\(message)")
    }

    /// Two intent files with one display name: the message names both files.
    @Test func aDialogflowCXIntentDefinedTwiceNamesBothFiles() throws {
        let folder = try TestScratch.folder().appendingPathComponent("agent")
        try FileManager.default.copyItem(at: fixture("platforms/dialogflow-cx-agent"), to: folder)
        let root = folder  // the fixture's agent.json is at the top
        let original = root.appendingPathComponent("intents/order.status")
        let copy = root.appendingPathComponent("intents/order.status2")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
        try FileManager.default.copyItem(at: original.appendingPathComponent("order.status.json"), to: copy.appendingPathComponent("order.status2.json"))
        let error = #expect(throws: IntentDatasetError.self) { _ = try IntentImporter.importDataset(from: folder) }
        let message = "\(try #require(error))"
        #expect(message.contains("intents/order.status/order.status.json and ") && message.contains("intents/order.status2/order.status2.json: intent 'order.status' is defined more than once"), "\(message)")
    }
}

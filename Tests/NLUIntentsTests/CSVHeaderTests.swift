import Foundation
import Testing
@testable import NLUIntents

/// The first row of a CSV: a `text,intent` header (or another accepted pair, in either order), or an
/// utterance of a file without a header. A header NLUKit does not read (`text,tag`) was imported as an
/// utterance `text` of an intent `tag`.
@Suite struct CSVHeaderTests {
    func load(_ text: String) throws -> IntentDataset {
        let url = try writeTemporaryFile(text, name: "data.csv")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        return try IntentImporter.importDataset(from: url).dataset
    }

    @Test(arguments: ["text,tag", "Utterance,Intent Name", "sentence_text,intent_label", "label,name"])
    func unknownHeaderIsAnErrorNamingLineOneAndTheAcceptedHeaders(_ header: String) throws {
        let url = try writeTemporaryFile("\(header)\nhi,greet\nbye,goodbye\n", name: "data.csv")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let error = #expect(throws: IntentDatasetError.self) { _ = try IntentImporter.importDataset(from: url) }
        let message = "\(try #require(error))"
        #expect(message.hasPrefix("\(url.path): malformed CSV: line 1: '\(header)' looks like a header, but not one NLUKit reads"), "\(message)")
        #expect(message.contains("a text column (example, phrase, query, sentence, text, utterance) with a label column (category, class, intent, intent_name, label)"))
    }

    @Test func acceptedHeadersInEitherOrder() throws {
        let expected = try load("text,intent\nhi,greet\nbye,goodbye\n")
        #expect(expected.intents.map(\.name) == ["greet", "goodbye"])
        #expect(try load("Utterance , Label\nhi,greet\nbye,goodbye\n") == expected)
        // The label first: every row's columns are swapped.
        #expect(try load("intent,text\ngreet,hi\ngoodbye,bye\n") == expected)
    }

    /// A file without a header (Watson NLC, Watson Assistant's intent CSV) is read from its first row.
    @Test func fileWithoutHeaderStartsWithAnUtterance() throws {
        let dataset = try load("How hot is it today?,temperature\nturn the heat up,temperature\nhi,greet\n")
        #expect(dataset.intents.map(\.name) == ["temperature", "greet"])
        #expect(dataset.intents[0].utterances[0].text == "How hot is it today?")
    }
}

import Foundation
import Testing
@testable import NLUIntents

/// A JSON file shaped like an NLUKit dataset but without `"format": "nlukit-intents"` failed with "no
/// known export has the top-level keys intents, version; use --format": it now says what is missing.
@Suite struct DatasetFormatHintTests {
    static let intents = #""intents": [{"name": "greet", "utterances": [{"text": "hi"}]}, {"name": "bye", "utterances": [{"text": "bye"}]}]"#

    func importError(_ json: String) throws -> IntentDatasetError {
        let url = try writeTemporaryFile(json, name: "dataset.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let error = #expect(throws: IntentDatasetError.self) { _ = try IntentImporter.importDataset(from: url) }
        return try #require(error)
    }

    @Test func missingFormatNamesTheFieldAndTheOption() throws {
        let error = try importError("{\"version\": 1, \(Self.intents)}")
        guard case let .unknownFormat(file, detail) = error else { Issue.record("\(error)"); return }
        #expect(file.hasSuffix("dataset.json"))
        #expect(detail == "it looks like an NLUKit dataset without its \"format\" field: add \"format\": \"nlukit-intents\" at the top level, or pass --format nlukit")
    }

    @Test func wrongFormatValueIsNamed() throws {
        let error = try importError("{\"format\": \"nlukit\", \(Self.intents)}")
        #expect("\(error)".contains("its \"format\" is 'nlukit', not 'nlukit-intents'"), "\(error)")
    }

    /// With the format given, the same file imports (the option the hint names exists and works).
    @Test func theHintedOptionImportsTheFile() throws {
        let url = try writeTemporaryFile("{\(Self.intents)}", name: "dataset.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let result = try IntentImporter.importDataset(from: url, options: ImportOptions(format: DatasetFormat(rawValue: "nlukit")))
        #expect(result.dataset.intents.map(\.name) == ["greet", "bye"])
    }

    /// Other JSON keeps the general message: only a dataset's own keys, with named intents, get the hint.
    @Test func otherJSONGetsNoHint() {
        #expect(IntentDataset.formatHint(for: ["intents": [["name": "a"]], "workspace": [:]]) == nil)
        #expect(IntentDataset.formatHint(for: ["intents": [["intent": "a"]]]) == nil)
        #expect(IntentDataset.formatHint(for: ["format": "nlukit-intents", "intents": [["name": "a"]]]) == nil)
    }
}

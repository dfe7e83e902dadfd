import Foundation
import Testing
@testable import NLUIntents

/// `--language` names a language the export has, or the import fails naming the ones it has.
@Suite struct ImportLanguageTests {
    @Test func aLanguageTheAgentLacksIsAnErrorNamingTheOnesItHas() throws {
        for agent in ["dialogflow-cx-agent", "dialogflow-cx-agent.zip"] {
            let url = fixture("platforms/\(agent)")
            #expect(throws: IntentDatasetError.unknownFormat(file: url.path, detail: "--language fr: the agent has training phrases in de, en")) {
                _ = try IntentImporter.importDataset(from: url, options: ImportOptions(language: "fr"))
            }
        }
        // The primary subtag still reads a regional code, and case does not matter.
        let german = try IntentImporter.importDataset(from: fixture("platforms/dialogflow-cx-agent"), options: ImportOptions(language: "DE"))
        #expect(german.dataset.language == "de")
    }
}

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

/// A dataset whose utterances are mostly in a script its language does not use imports with a warning naming
/// the file, the count and the scripts (English when it names no language).
@Suite struct DatasetScriptWarningTests {
    static let chinese = Intent(name: "weather", utterances: ["明天会下雨吗", "今天天气怎么样", "后天热不热"])
    static let english = Intent(name: "alarm", utterances: ["wake me up at seven", "set an alarm"])

    @Test func mostUtterancesInAnotherScriptAreTold() throws {
        let german = IntentDataset(language: "de", intents: [Self.chinese, Self.english])
        #expect(german.scriptMismatchWarning(file: "bot.json") == "bot.json: 3 of 5 utterances are written in Han, not in the Latin script of 'de': its stemmer and built-ins read nothing there; name the dataset's language (its \"language\" field, or --language)")
        #expect(IntentDataset(intents: [Self.chinese])
            .scriptMismatchWarning(file: "bot.json")?.contains("not in the Latin script of 'en' (a dataset that names no language is read as English)") == true)
        #expect(IntentDataset(language: "zh-CN", intents: [Self.chinese]).scriptMismatchWarning(file: "bot.json") == nil)
        // Fewer than half: names and a few foreign utterances are normal.
        #expect(IntentDataset(language: "en", intents: [Self.english, Intent(name: "music", utterances: ["play 周杰伦", "播放音乐吧吧"])])
            .scriptMismatchWarning(file: "bot.json") == nil)
    }

    @Test func theImportSaysIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("script-warning-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("zh.json")
        try JSONEncoder().encode(IntentDataset(intents: [Self.chinese, Intent(name: "greet", utterances: ["你好", "早上好啊"])])).write(to: file)
        let plain = try IntentImporter.importDataset(from: file)
        // "你好" has too few letters to judge.
        #expect(plain.warnings.contains { $0.contains("zh.json: 4 of 5 utterances are written in Han, not in the Latin script of 'en'") }, "\(plain.warnings)")
        let named = try IntentImporter.importDataset(from: file, options: ImportOptions(language: "zh"))
        #expect(!named.warnings.contains { $0.contains("utterances are written in") })
    }
}

import Foundation
import NLUTestSupport
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
        let folder = try TestScratch.folder("script-warning")
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

/// An export or a set of inputs holding several languages imports as one language, chosen (`--language`, else
/// English, else the first, with a warning) or refused with a message that says how; never mixed.
@Suite struct MixedLanguageImportTests {
    func write(_ text: String, _ path: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func dataset(_ language: String?, _ intents: [Intent], in folder: URL, _ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try JSONEncoder().encode(IntentDataset(language: language, intents: intents)).write(to: url)
        return url
    }

    static let english = [Intent(name: "greet", utterances: ["hello there", "hi"]), Intent(name: "bye", utterances: ["goodbye"])]
    static let german = [Intent(name: "gruss", utterances: ["hallo", "guten tag"]), Intent(name: "abschied", utterances: ["tschüss"])]

    @Test func inputsInSeveralLanguagesAreRefusedNamingEachAndSayingHow() throws {
        let folder = try TestScratch.folder("mixed-language")
        defer { try? FileManager.default.removeItem(at: folder) }
        let en = try dataset("en", Self.english, in: folder, "en.json")
        let de = try dataset("de-DE", Self.german, in: folder, "de.json")
        #expect(throws: IntentDatasetError.mixedLanguages(files: ["\(en.path) (en)", "\(de.path) (de-DE)"], wanted: nil)) {
            try IntentImporter.importDataset(from: [en, de])
        }
        #expect(IntentDatasetError.mixedLanguages(files: ["en.json (en)", "de.json (de-DE)"], wanted: nil).description
                == "en.json (en), de.json (de-DE): the inputs are in different languages, and a dataset has one: import each language separately, or give --language to import the inputs in one of them")
        // --language keeps the inputs in it (and those of no language) and says which it leaves out.
        let none = try dataset(nil, [Intent(name: "danke", utterances: ["danke schön"])], in: folder, "none.json")
        let kept = try IntentImporter.importDataset(from: [en, de, none], options: ImportOptions(language: "de"))
        #expect(kept.dataset.language == "de-DE")
        #expect(kept.dataset.intents.map(\.name) == ["gruss", "abschied", "danke"])
        #expect(kept.warnings.contains("\(en.path): in en, not in --language de: left out"), "\(kept.warnings)")
        #expect(throws: IntentDatasetError.mixedLanguages(files: ["\(en.path) (en)", "\(de.path) (de-DE)"], wanted: "fr")) {
            try IntentImporter.importDataset(from: [en, de], options: ImportOptions(language: "fr"))
        }
        // One language (regions aside), or none recorded: merged as before.
        let british = try dataset("en-GB", [Intent(name: "thanks", utterances: ["cheers"])], in: folder, "gb.json")
        #expect(try IntentImporter.importDataset(from: [en, british, none]).dataset.intents.count == 4)
    }

    @Test func aLUFolderOfSeveralCulturesIsReadInOne() throws {
        let folder = try TestScratch.folder("mixed-language")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try write("# Greet\n- hello\n- hi there\n# Bye\n- goodbye\n", "main.en-us.lu", in: folder)
        _ = try write("# Greet\n- bonjour\n- salut\n# Bye\n- au revoir\n", "main.fr-fr.lu", in: folder)
        _ = try write("> !# @app.culture = de-de\n# Greet\n- hallo\n# Bye\n- tschüss\n", "german.lu", in: folder)
        _ = try write("@ prebuilt number\n", "shared.lu", in: folder)
        func texts(_ result: ImportResult) -> Set<String> { Set(result.dataset.intents.flatMap { $0.utterances.map(\.text) }) }

        let english = try IntentImporter.importDataset(from: folder)
        #expect(english.format == .lu)
        #expect(texts(english) == ["hello", "hi there", "goodbye"])
        #expect(english.dataset.language == "en")
        #expect(english.dataset.entities.map(\.name) == ["number"])   // the file of no culture is read with every one
        #expect(english.warnings.contains("\(folder.path): .lu files in the cultures de-de, en-us, fr-fr; reading en-us (--language to choose)"),
                "\(english.warnings)")

        let french = try IntentImporter.importDataset(from: folder, options: ImportOptions(language: "fr"))
        #expect(texts(french) == ["bonjour", "salut", "au revoir"])
        #expect(french.dataset.language == "fr")
        #expect(try texts(IntentImporter.importDataset(from: folder, options: ImportOptions(language: "de-DE"))) == ["hallo", "tschüss"])
        #expect(throws: IntentDatasetError.unknownFormat(file: folder.path, detail: "--language es: .lu files in the cultures de-de, en-us, fr-fr")) {
            try IntentImporter.importDataset(from: folder, options: ImportOptions(language: "es"))
        }
        // One file: its name gives its culture when no header does.
        #expect(try IntentImporter.importDataset(from: folder.appendingPathComponent("main.fr-fr.lu")).dataset.language == "fr")
        #expect(LUCulture.inName("v1.2.lu") == nil && LUCulture.inName("faq.old.lu") == nil && LUCulture.inName("main.zh_CN.lu") == "zh_CN")
    }

    static let alexaModel = #"{"interactionModel": {"languageModel": {"invocationName": "x", "intents": [{"name": "A", "samples": [SAMPLES_A]}, {"name": "B", "samples": [SAMPLES_B]}]}}}"#

    func alexa(_ a: String, _ b: String) -> String {
        Self.alexaModel.replacingOccurrences(of: "SAMPLES_A", with: "\"\(a)\"").replacingOccurrences(of: "SAMPLES_B", with: "\"\(b)\"")
    }

    @Test func anAlexaModelTakesItsLocaleFromItsName() throws {
        let folder = try TestScratch.folder("mixed-language")
        defer { try? FileManager.default.removeItem(at: folder) }
        let german = try write(alexa("wie spät ist es", "spiel musik"), "de-DE.json", in: folder)
        #expect(try IntentImporter.importDataset(from: german).dataset.language == "de")
        let unnamed = try write(alexa("what time is it", "play music"), "model.json", in: folder)
        #expect(try IntentImporter.importDataset(from: unnamed).dataset.language == nil)

        // A skill package: one model per locale.
        let skill = folder.appendingPathComponent("skill")
        _ = try write(alexa("what time is it", "play music"), "interactionModels/custom/en-US.json", in: skill)
        _ = try write(alexa("wie spät ist es", "spiel musik"), "interactionModels/custom/de-DE.json", in: skill)
        _ = try write(#"{"manifest": {}}"#, "skill.json", in: skill)
        let english = try IntentImporter.importDataset(from: skill)
        #expect(english.format == .alexa)
        #expect(english.dataset.language == "en")
        #expect(english.dataset.intents.flatMap { $0.utterances.map(\.text) } == ["what time is it", "play music"])
        #expect(english.warnings.contains("\(skill.path): the skill has interaction models in de-DE, en-US; reading en-US (--language to choose)"),
                "\(english.warnings)")
        let chosen = try IntentImporter.importDataset(from: skill, options: ImportOptions(language: "de"))
        #expect(chosen.dataset.language == "de")
        #expect(chosen.dataset.intents.flatMap { $0.utterances.map(\.text) } == ["wie spät ist es", "spiel musik"])
        #expect(throws: IntentDatasetError.unknownFormat(file: skill.path, detail: "--language ja: the skill has interaction models in de-DE, en-US")) {
            try IntentImporter.importDataset(from: skill, options: ImportOptions(language: "ja"))
        }
    }
}

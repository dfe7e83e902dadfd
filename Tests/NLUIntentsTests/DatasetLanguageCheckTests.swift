import Foundation
import NLUTestSupport
import Testing
import NLUText
@testable import NLUIntents

/// A dataset whose utterances are largely in another Latin-script language than the one it declares imports with
/// one warning naming the language, the count, two examples and `--language`; real English data and short commands
/// raise none. Utterances: xSID 0.7's dev and test sets (`scripts/fixtures/language_check.py`).
@Suite struct DatasetLanguageCheckTests {
    static let xsid: [String: [String]] = {
        let url = intentFixtures.deletingLastPathComponent().appendingPathComponent("languages/xsid-utterances.json")
        struct File: Decodable { var utterances: [String: [String]] }
        return (try? JSONDecoder().decode(File.self, from: Data(contentsOf: url)))?.utterances ?? [:]
    }()

    static func dataset(_ language: String?, _ texts: [String]) -> IntentDataset {
        IntentDataset(language: language, intents: [Intent(name: "any", utterances: texts.map { Utterance(stringLiteral: $0) })])
    }

    /// 800 real English utterances: a handful at most look like another language, far from any warning.
    @Test func realEnglishDataRaisesNoWarning() throws {
        let english = try #require(Self.xsid["en"])
        #expect(english.count == 800)
        let other = english.filter { FunctionWordIdentifier.language(of: $0).map { $0 != .english } ?? false }
        #expect(other.count <= 8, "\(other)")
        #expect(Self.dataset("en", english).languageMismatchWarning(file: "en.json") == nil)
        #expect(Self.dataset(nil, english).languageMismatchWarning(file: "en.json") == nil)
        // The Snips fixtures' short commands too.
        let snips = try IntentImporter.importDataset(from: fixture("snips-utf8.json"))
        #expect(!snips.warnings.contains { $0.contains("utterances look") })
    }

    /// Each other language's own utterances do not warn in their language, and declared English they do.
    @Test func everyOtherLanguageIsToldDeclaredEnglish() throws {
        for (code, language) in [("de", "German"), ("it", "Italian"), ("nl", "Dutch"), ("da", "Danish"), ("no", "Norwegian"), ("id", "Indonesian")] {
            let texts = try #require(Self.xsid[code])
            #expect(Self.dataset(code, texts).languageMismatchWarning(file: "\(code).json") == nil, "\(code)")
            let warning = Self.dataset("en", texts).languageMismatchWarning(file: "\(code).json")
            #expect(warning?.contains("utterances look \(language) (\(code)), not English ('en'") == true, "\(code): \(warning ?? "none")")
        }
        // Danish declared Norwegian is the same group: no warning.
        #expect(Self.dataset("no", try #require(Self.xsid["da"])).languageMismatchWarning(file: "da.json") == nil)
    }

    /// The rule: at least 5 utterances and at least 20 % of them; the message names the count and two examples.
    @Test func theRuleAndTheMessage() throws {
        let german = ["Wie wird das Wetter morgen in Berlin", "Stell einen Wecker für mich auf sieben Uhr",
                      "Ich möchte das Lied von ihr hören", "Erinnere mich an den Termin mit dem Arzt",
                      "Wann ist der nächste Zug nach Hamburg", "Mach das Licht in der Küche aus"]
        let english = Array(try #require(Self.xsid["en"]).prefix(24))
        let warning = Self.dataset(nil, english + german).languageMismatchWarning(file: "bot.json")
        #expect(warning == "bot.json: 6 of 30 utterances look German (de), not English ('en', the dataset's language; a dataset that names no language is read as English), e.g. \"Wie wird das Wetter morgen in Berlin\", \"Stell einen Wecker für mich auf sieben Uhr\": if the dataset is in German, name its language (its \"language\" field, or --language de) so that it is stemmed and its built-ins read in German")
        // Four are too few; six among forty are under 20 %.
        #expect(Self.dataset("en", english + german.prefix(4)).languageMismatchWarning(file: "bot.json") == nil)
        let moreEnglish = Array(try #require(Self.xsid["en"]).prefix(34))
        #expect(Self.dataset("en", moreEnglish + german).languageMismatchWarning(file: "bot.json") == nil)
        // A language the identifier cannot tell apart from its neighbours is not checked.
        #expect(Self.dataset("ca", german + german).languageMismatchWarning(file: "bot.json") == nil)
    }

    /// The import says it once, and with --language naming the language, says nothing.
    @Test func theImportSaysIt() throws {
        let folder = try TestScratch.folder("language-check")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bot.json")
        try JSONEncoder().encode(Self.dataset("en", Array(try #require(Self.xsid["de"]).prefix(60)))).write(to: file)
        let declared = try IntentImporter.importDataset(from: file)
        #expect(declared.warnings.filter { $0.contains("utterances look German (de)") }.count == 1, "\(declared.warnings)")
        #expect(declared.dataset.language == "en")
        let named = try IntentImporter.importDataset(from: file, options: ImportOptions(language: "de"))
        #expect(!named.warnings.contains { $0.contains("utterances look") })
    }
}

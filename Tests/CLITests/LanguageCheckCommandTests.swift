import Foundation
import NLUTestSupport
import Testing

/// A dataset declared English whose utterances are German imports and trains as declared, with one warning on
/// stderr naming German, the count, examples and `--language de`; named German, it says nothing.
@Suite struct LanguageCheckCommandTests {
    @Test func importAndTrainWarnOnceAndChangeNothing() throws {
        struct Fixture: Decodable { var utterances: [String: [String]] }
        let xsid = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: fixturesDirectory.appendingPathComponent("languages/xsid-utterances.json")))
        let german = Array(try #require(xsid.utterances["de"]).prefix(40))
        let folder = try TestScratch.folder("nlu-language-check")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dataset = folder.appendingPathComponent("bot.json")
        let intents = [["name": "weather", "utterances": german.prefix(20).map { ["text": $0] }],
                       ["name": "other", "utterances": german.suffix(20).map { ["text": $0] }]]
        try JSONSerialization.data(withJSONObject: ["format": "nlukit-intents", "language": "en", "intents": intents]).write(to: dataset)

        let imported = try runNLU(["intents", "import", dataset.path, "-o", folder.appendingPathComponent("out.json").path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let warnings = imported.stderr.components(separatedBy: "\n").filter { $0.contains("utterances look German (de), not English ('en'") }
        #expect(warnings.count == 1, "\(imported.stderr)")
        #expect(warnings.first?.contains("--language de") == true)
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("out.json"))) as? [String: Any]
        #expect(saved?["language"] as? String == "en")

        let trained = try runNLU(["intents", "train", dataset.path, "-o", folder.appendingPathComponent("bot.nlumodel").path,
                                  "--epochs", "1", "--hidden", "4"])
        #expect(trained.status == 0, "\(trained.stderr)")
        #expect(trained.stderr.components(separatedBy: "\n").filter { $0.contains("utterances look German") }.count == 1, "\(trained.stderr)")

        let named = try runNLU(["intents", "import", dataset.path, "--language", "de", "-o", folder.appendingPathComponent("de.json").path])
        #expect(named.status == 0 && !named.stderr.contains("utterances look"), "\(named.stderr)")
    }
}

import Foundation
import NLUTestSupport
import Testing

/// `nlu index create --language`: recorded in the index and shown by `index info`; an unknown code is a
/// usage error naming the supported ones; an index made without it is English.
@Suite struct IndexLanguageCommandTests {
    @Test func languageIsRecordedAndShown() throws {
        let directory = try TestScratch.folder("nlu-index-language")
        defer { try? FileManager.default.removeItem(at: directory) }
        let french = directory.appendingPathComponent("fr.sqlite").path
        let created = try runNLU(["index", "create", french, "--model", "hashing", "--language", "fr-CA"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.hasSuffix("keyword terms in french\n"))
        let info = try runNLU(["index", "info", french, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        #expect(object?["language"] as? String == "french")

        let english = directory.appendingPathComponent("en.sqlite").path
        #expect(try runNLU(["index", "create", english, "--model", "hashing"]).status == 0)
        #expect(try runNLU(["index", "info", english]).stdout.contains("language:  english (keyword terms)"))

        let unknown = try runNLU(["index", "create", directory.appendingPathComponent("xx.sqlite").path, "--model", "hashing", "--language", "xx"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no stemmer for language 'xx'") && unknown.stderr.contains("de (german)"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("xx.sqlite").path))
    }
}

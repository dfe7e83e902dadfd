import Foundation
import Testing

/// `nlu stem` end to end: stems of snowballstemmer 3.1.1 (Tests/Fixtures/stemmer), standard input,
/// JSON lines, and an unsupported language as a usage error naming the supported ones.
@Suite struct StemCommandTests {
    @Test func stemsArgumentsAndStandardInput() throws {
        let arguments = try runNLU(["stem", "--language", "fr-FR", "continuellement", "réservations"])
        #expect(arguments.status == 0)
        #expect(arguments.stdout == "continuel\nréserv\n")
        let lines = try runNLU(["stem", "--language", "pt_BR"], input: "corações\n")
        #expect(lines.stdout == "coraçõ\n")
        let json = try runNLU(["stem", "--language", "de", "--json", "häuser"])
        #expect(json.stdout == #"{"stem":"haus","word":"häuser"}"# + "\n")
    }

    @Test func unsupportedLanguageIsAUsageError() throws {
        let run = try runNLU(["stem", "--language", "zh-CN", "词"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("no stemmer for language 'zh-CN'") && run.stderr.contains("fr (french)"))
    }
}

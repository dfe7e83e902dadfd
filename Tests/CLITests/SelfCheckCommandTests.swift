import Foundation
import Testing

@Suite struct SelfCheckCommandTests {
    @Test func selfcheckMultipliesAndPasses() throws {
        let result = try runNLU(["selfcheck", "--size", "33"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("selfcheck: OK"))
    }

    @Test func badSizeIsUsageError() throws {
        let result = try runNLU(["selfcheck", "--size", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--size"))
    }

    @Test func versionPrints() throws {
        let result = try runNLU(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
    }
}

import Foundation
import NLUTestSupport
import Testing

/// A `TMPDIR` that names nothing or a file: where `nlu` copies standard input to a temporary file, the
/// error names the variable and the path (it was "the operation failed").
@Suite struct TemporaryDirectoryCommandTests {
    @Test func unusableTMPDIRIsNamed() throws {
        let work = try TestScratch.folder("nlukit-cli-tmpdir")
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("a-file")
        try Data().write(to: file)
        let missing = work.appendingPathComponent("missing").path
        let csv = try String(contentsOf: fixturesDirectory.appendingPathComponent("intents/intents.csv"), encoding: .utf8)
        let output = work.appendingPathComponent("out.json").path
        for (tmpdir, reason) in [(missing, "which does not exist"), (file.path, "which is not a folder")] {
            let run = try runNLU(["intents", "import", "-", "--format", "csv", "--output", output], input: csv, environment: ["TMPDIR": tmpdir])
            #expect(run.status == 1)
            #expect(run.stderr.hasPrefix("Error: standard input: cannot copy it to a temporary file: TMPDIR is \(tmpdir), \(reason)"), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: output))
        let usable = try runNLU(["intents", "import", "-", "--format", "csv", "--output", output], input: csv, environment: ["TMPDIR": work.path])
        #expect(usable.status == 0, "\(usable.stderr)")
    }
}

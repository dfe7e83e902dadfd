import Foundation
import NLUTestSupport
import Testing

/// `nlu intents import` on the newer platform exports (CLU, .lu, Dialogflow CX, watsonx) and
/// `nlu intents export`, end to end.
@Suite struct IntentsPlatformCommandTests {
    static let platforms = fixturesDirectory.appendingPathComponent("intents/platforms")

    @Test func cluImportWritesTheTestSplitBesideTheDataset() throws {
        let directory = try TestScratch.folder("nlu-platforms-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("email.json").path
        let run = try runNLU(["intents", "import", Self.platforms.appendingPathComponent("clu-utf16.json").path, "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("imported 2 intents, 6 utterances, 1 counterexample, 3 entities (Azure CLU project JSON"))
        let testPath = directory.appendingPathComponent("email.test.json").path
        #expect(run.stdout.contains("test split: 2 utterances → \(testPath)"))
        let test = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: testPath))) as? [String: Any]
        #expect((test?["intents"] as? [Any])?.count == 2)
        #expect(run.stderr.contains("warning:") && run.stderr.contains("Person.Name"))
    }
}

extension IntentsPlatformCommandTests {
    @Test func exportWritesEachFormatAndItImportsBack() throws {
        let directory = try TestScratch.folder("nlu-platforms-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Self.platforms.appendingPathComponent("lu-app/main.lu").path
        for (format, file) in [("rasa", "out.yml"), ("clu", "out.json"), ("lu", "out.lu"), ("dialogflow-cx", "out.zip")] {
            let output = directory.appendingPathComponent(file).path
            let run = try runNLU(["intents", "export", source, "--format", format, "-o", output])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            #expect(run.stdout.contains("exported 3 intents, 11 utterances, 2 counterexamples"), "\(format): \(run.stdout)")
            let back = try runNLU(["intents", "import", output, "-o", directory.appendingPathComponent("\(format).json").path, "--json"])
            #expect(back.status == 0, "\(format): \(back.stderr)")
            let summary = try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as? [String: Any]
            #expect(summary?["intents"] as? Int == 3 && summary?["utterances"] as? Int == 11 && summary?["counterexamples"] as? Int == 2,
                    "\(format): \(back.stdout)")
        }
        let bad = try runNLU(["intents", "export", source, "--format", "xml", "-o", directory.appendingPathComponent("x").path])
        #expect(bad.status == 2)
        let overwrite = try runNLU(["intents", "export", source, "--format", "lu", "-o", source])
        #expect(overwrite.status != 0 && overwrite.stderr.contains("main.lu"))
    }
}

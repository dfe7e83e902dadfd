import Foundation
import NLUCore
import NLUFuzzSupport
import NLUTestSupport
import Testing
@testable import NLUIntents

/// Bounded fuzzing of every dataset reader: valid exports of each format, mutated (see `Mutator`),
/// must import or fail with an error that names the file — never trap, hang or exhaust memory
/// (a crash here ends the test process). `NLUKIT_FUZZ_CASES` raises the number of cases per file
/// for longer runs (scripts/fuzz.sh).
@Suite struct ImportFuzzTests {
    static let files = ["alexa-model.json", "intents.csv", "lex-v1-bot.json", "luis-app.json", "nlukit-dataset.json",
                        "rasa-legacy.json", "rasa-legacy.md", "rasa-nlu.yml", "snips-utf8.json", "watson-nlc.csv",
                        "watson-workspace.json", "platforms/clu-utf8.json", "platforms/watsonx-actions.json",
                        "platforms/lu-app/chitchat/greetings.lu", "platforms/snips-nlu-dataset.json",
                        "platforms/snips-nlu-dataset.yaml", "platforms/rasa-project/data/legacy.md"]

    @Test(arguments: files) func mutatedExportsImportOrFailNamingTheFile(_ name: String) throws {
        let original = Array(try Data(contentsOf: fixture(name)))
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        var mutator = Mutator(seed: name)
        let url = directory.appendingPathComponent((name as NSString).lastPathComponent)
        var failures = 0
        for _ in 0..<FuzzCases.count(default: 250) {
            try Data(mutator.mutate(original)).write(to: url)
            do {
                _ = try IntentImporter.importDataset(from: url)
            } catch {
                failures += 1
                let file = (name as NSString).lastPathComponent
                if let problem = FuzzCases.check({ throw error }, naming: file) { Issue.record("\(name): \(problem)") }
            }
        }
        #expect(failures > 0, "the mutations should break some inputs")
    }
}

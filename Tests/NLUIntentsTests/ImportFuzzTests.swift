import Foundation
import NLUCore
import Testing
@testable import NLUIntents

/// Bounded fuzzing of every dataset reader: valid exports of each format, mutated (bytes flipped,
/// hostile tokens inserted, ranges cut or repeated, truncated), must import or fail with an error
/// that names the file — never trap, hang or exhaust memory (a crash here ends the test process).
/// `NLUKIT_FUZZ_CASES` raises the number of cases per file for longer runs (scripts/fuzz.sh).
@Suite struct ImportFuzzTests {
    static let files = ["alexa-model.json", "intents.csv", "lex-v1-bot.json", "luis-app.json", "nlukit-dataset.json",
                        "rasa-legacy.json", "rasa-legacy.md", "rasa-nlu.yml", "snips-utf8.json", "watson-nlc.csv",
                        "watson-workspace.json", "platforms/clu-utf8.json", "platforms/watsonx-actions.json",
                        "platforms/lu-app/chitchat/greetings.lu", "platforms/snips-nlu-dataset.json",
                        "platforms/snips-nlu-dataset.yaml", "platforms/rasa-project/data/legacy.md"]
    static let tokens = ["9223372036854775807", "-9223372036854775808", "-1", "1e400", "4.5", "null", "\"\"", "[[[[[[[[",
                         "{{{{", "*a", "&a", "\"\\ud800\"", "\u{0}", "\n  - ", "\"", ",", "]", "}", "[", "\r\n", "\u{FEFF}"]

    static var casesPerFile: Int {
        Int(ProcessInfo.processInfo.environment["NLUKIT_FUZZ_CASES"] ?? "") ?? 250
    }

    /// One random mutation of `bytes`.
    static func mutate(_ bytes: [UInt8], _ generator: inout SplitMix64) -> [UInt8] {
        var result = bytes
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = result.isEmpty ? 0 : Int.random(in: 0..<result.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0 where !result.isEmpty: result[position] = UInt8.random(in: 0...255, using: &generator)
            case 1: result.insert(contentsOf: Array(tokens.randomElement(using: &generator)!.utf8), at: position)
            case 2 where !result.isEmpty:
                result.removeSubrange(position..<min(result.count, position + Int.random(in: 1...64, using: &generator)))
            case 3 where !result.isEmpty:
                let chunk = result[position..<min(result.count, position + Int.random(in: 1...256, using: &generator))]
                result.insert(contentsOf: chunk, at: position)
            case 4: result = Array(result.prefix(position))
            default:
                // A number in the text becomes a huge one.
                if let digit = result[position...].firstIndex(where: { (48...57).contains($0) }) {
                    result.replaceSubrange(digit...digit, with: Array("9223372036854775807".utf8))
                }
            }
        }
        return result
    }

    @Test(arguments: files) func mutatedExportsImportOrFailNamingTheFile(_ name: String) throws {
        let original = Array(try Data(contentsOf: fixture(name)))
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SplitMix64(seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        let url = directory.appendingPathComponent((name as NSString).lastPathComponent)
        var failures = 0
        for _ in 0..<Self.casesPerFile {
            try Data(Self.mutate(original, &generator)).write(to: url)
            do {
                _ = try IntentImporter.importDataset(from: url)
            } catch {
                failures += 1
                let message = (error as? LocalizedError)?.errorDescription ?? "\(error)"
                #expect(message.contains((name as NSString).lastPathComponent), "\(name): the error does not name the file: \(message)")
                #expect(!message.contains("NSCocoaErrorDomain") && !message.contains("Error Domain="), "\(message)")
            }
        }
        #expect(failures > 0, "the mutations should break some inputs")
    }
}

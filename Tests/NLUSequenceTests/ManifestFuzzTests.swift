import Foundation
import NLUCore
import NLUFuzzSupport
import NLUTestSupport
import Testing
@testable import NLUSequence
import NLUInputOutput

/// Mutated language-model manifests (sizes, vocabulary, tokens, metadata such as epochsCompleted)
/// load and generate, or fail with an error naming the package — never trap, hang or allocate
/// gigabytes. Resuming training from a mutated checkpoint obeys the same rule.
@Suite struct ManifestFuzzTests {
    @Test(arguments: ["lstm-1", "gru-2"]) func mutatedLanguageModelManifestsLoadOrFailNamingThePackage(_ name: String) throws {
        let directory = try TestScratch.folder("nlukit-lm-fuzz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("fuzzed.nlumodel")
        try FileManager.default.copyItem(at: LanguageModelTests.fixtures.appendingPathComponent("\(name).nlumodel"), to: package)
        let manifest = package.appendingPathComponent("manifest.json")
        let original = Array(try Data(contentsOf: manifest))
        var mutator = Mutator(seed: "lm/" + name)
        for number in 0..<FuzzCases.count(default: 150) {
            try Data(mutator.mutateJSON(original)).write(to: manifest)
            let problem = FuzzCases.check({
                let model = try LanguageModel(contentsOf: package)
                _ = try model.generate(prompt: "the cat", options: GenerationOptions(maxTokens: 3, seed: 1))
            }, naming: package.lastPathComponent)
            if let problem { Issue.record("\(name) case \(number): \(problem)") }
        }
    }

    @Test func aNegativeOrHugeEpochsCompletedIsRefusedOnResume() throws {
        let package = URL(fileURLWithPath: "/models/lm.nlumodel")
        for bad in ["-1", "9223372036854775807", "1.5", "x"] {
            #expect(throws: OutOfRangeError.self) {
                _ = try LanguageModelTrainer.epochsCompleted(in: ["epochsCompleted": bad], package: package)
            }
            do {
                _ = try LanguageModelTrainer.epochsCompleted(in: ["epochsCompleted": bad], package: package)
            } catch {
                let message = FuzzCases.message(of: error)
                #expect(message.contains("/models/lm.nlumodel/manifest.json") && message.contains("metadata.epochsCompleted"), "\(message)")
            }
        }
        #expect(try LanguageModelTrainer.epochsCompleted(in: [:], package: package) == 0)
        #expect(try LanguageModelTrainer.epochsCompleted(in: ["epochsCompleted": "7"], package: package) == 7)
    }
}

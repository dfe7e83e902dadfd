import Foundation
import NLUCore
import NLUFuzzSupport
import NLUTestSupport
import Testing
@testable import NLUIntents

/// Mutated intent-classifier manifests — features, layer sizes, labels, vocabulary, threshold, the
/// recorded training options and the entity parts (definitions, patterns, the slot tagger's
/// labels and attributes) — load and predict, or fail with an error naming the package.
@Suite struct ManifestFuzzTests {
    @Test func mutatedIntentManifestsLoadOrFailNamingThePackage() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("fuzzed.nlumodel")
        try IntentClassifier.train(on: EntityTests.devices, training: EntityTests.fastTraining()).save(to: package)
        let manifest = package.appendingPathComponent(ModelPackage.manifestFileName)
        let original = Array(try Data(contentsOf: manifest))
        var mutator = Mutator(seed: "intent-manifest")
        var failures = 0
        for number in 0..<FuzzCases.count(default: 300) {
            try Data(mutator.mutateJSON(original)).write(to: manifest)
            let problem = FuzzCases.check({
                let classifier = try IntentClassifier.load(from: package)
                _ = classifier.predict("turn on the radio from Berlin to 12345")
            }, naming: package.lastPathComponent)
            if let problem { failures += 1; Issue.record("case \(number): \(problem)") }
        }
        #expect(failures == 0)
    }
}

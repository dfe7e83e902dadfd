import Foundation
import NLUCore
import NLUFuzzSupport
import NLUTestSupport
import Testing
@testable import NLUCoreML

/// Mutated `.mlmodel` bytes (protobuf fields cut, flipped, repeated; sizes made huge) load and
/// predict on the fixture's first input, or fail with an error naming the file — no trap, no hang,
/// no allocation sized by a hostile shape.
@Suite struct ModelFileFuzzTests {
    static let models = ["dense_classifier", "dense_classifier_int8", "dense_classifier_lut4", "nd_layers", "recurrent_layers",
                         "lstm_language_model", "pipeline", "dense_layers"]

    @Test(arguments: models) func mutatedModelFilesLoadAndPredictOrFailNamingTheFile(_ name: String) throws {
        let original = Array(try Data(contentsOf: CoreMLFixtures.url(name)))
        let inputs = try CoreMLFixtures.cases(name).first?.inputs
        let url = TestScratch.file("nlukit-fuzz-\(name)", extension: "mlmodel")
        defer { try? FileManager.default.removeItem(at: url) }
        var mutator = Mutator(seed: "coreml/" + name)
        for number in 0..<FuzzCases.count(default: 150) {
            try Data(mutator.mutate(original)).write(to: url)
            let problem = FuzzCases.check({
                let model = try CoreMLModel(contentsOf: url)
                guard let inputs else { return }
                // A mutated model may describe other inputs: then the fixture's input is rightly refused.
                guard let provider = try? FeatureJSON.provider(from: inputs, for: model.modelDescription) else { return }
                do {
                    _ = try model.prediction(from: provider)
                } catch {
                    // Prediction errors are about the input or the model's layers, not the file: they must
                    // still be clear, but need not name the path.
                    let message = FuzzCases.message(of: error)
                    if let raw = FuzzCases.rawErrorText.first(where: { message.contains($0) }) {
                        Issue.record("\(name) case \(number): raw '\(raw)' in prediction error: \(message)")
                    }
                }
            }, naming: url.lastPathComponent)
            if let problem { Issue.record("\(name) case \(number): \(problem)") }
        }
    }

    /// The hostile models of `scripts/fixtures/coreml_hostile.py` (each refused at load or at its first prediction),
    /// mutated: still refused, or loaded and run on a two-value `x` within the layer and blob budgets — a mutation
    /// that drops a check's trigger must not find a way around it (a concatenation of 2^22-value inputs, a gather of
    /// 2^30 indices, a classifier whose labels and probabilities disagree).
    static let hostileModels = ["concat_64_of_2_22", "concat_65_of_2_22", "classifier_label_count_mismatch", "gather_2_30_indices",
                                "duplicate_class_labels", "split_sizes_overflow", "softmax_of_a_scalar", "logarithm"]

    @Test(arguments: hostileModels) func mutatedHostileModelsFailNamingTheFileOrRunBounded(_ name: String) throws {
        let original = Array(try Data(contentsOf: CoreMLFixtures.directory.appendingPathComponent("hostile/\(name).mlmodel")))
        let url = TestScratch.file("nlukit-fuzz-\(name)", extension: "mlmodel")
        defer { try? FileManager.default.removeItem(at: url) }
        var mutator = Mutator(seed: "coreml/hostile/" + name)
        for number in 0..<FuzzCases.count(default: 60) {
            try Data(mutator.mutate(original)).write(to: url)
            let problem = FuzzCases.check({
                let model = try CoreMLModel(contentsOf: url)
                guard let provider = try? FeatureJSON.provider(from: Data(#"{"x": [0.25, 0.75]}"#.utf8), for: model.modelDescription) else {
                    return
                }
                do {
                    _ = try model.prediction(from: provider)
                } catch {
                    let message = FuzzCases.message(of: error)
                    if let raw = FuzzCases.rawErrorText.first(where: { message.contains($0) }) {
                        Issue.record("\(name) case \(number): raw '\(raw)' in prediction error: \(message)")
                    }
                }
            }, naming: url.lastPathComponent)
            if let problem { Issue.record("\(name) case \(number): \(problem)") }
        }
    }
}

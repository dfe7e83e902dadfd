import Foundation
import NLUCore
import NLUTestSupport
import Testing
@testable import NLUEmbeddings

/// A NaN or an infinity in a model's weights made every embedding NaN, written by `nlu embed` as
/// `-nan` in JSON lines no reader accepts: refused at load, naming the weights file and the tensor.
/// Finite weights that overflow at run time are an error naming the model, not a NaN embedding.
@Suite struct NonFiniteWeightsTests {
    @Test(arguments: [Float.nan, -Float.infinity])
    func aNonFiniteEncoderWeightIsRefusedAtLoad(_ value: Float) throws {
        let directory = try EmbeddingFixtures.variant([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let weights = directory.appendingPathComponent("model.safetensors")
        try SafeTensorsPatch.set("encoder.layer.0.attention.output.LayerNorm.bias", in: weights, to: value)
        let error = #expect(throws: SafeTensorsError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.kind == .nonFinite)
        #expect(error?.tensor == "encoder.layer.0.attention.output.LayerNorm.bias")
        #expect(error?.description.hasPrefix(weights.path + ": tensor 'encoder.layer.0.attention.output.LayerNorm.bias'") == true)
        #expect(error?.description.contains("non-finite value (\(value) at flat index 0") == true, "\(String(describing: error))")
    }

    @Test func aNonFiniteDenseModuleWeightIsRefusedAtLoad() throws {
        let directory = try EmbeddingFixtures.variant([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let weights = directory.appendingPathComponent("2_Dense/model.safetensors")
        try SafeTensorsPatch.set("linear.bias", in: weights, to: .infinity)
        let error = #expect(throws: SafeTensorsError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.file.path == weights.path && error?.tensor == "linear.bias" && error?.kind == .nonFinite)
    }

    /// Word embeddings near Float's limit are finite, but the layer norm's sums overflow.
    @Test func finiteWeightsThatOverflowAreAnErrorNotANaNEmbedding() throws {
        let directory = try EmbeddingFixtures.variant([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        try SafeTensorsPatch.set("embeddings.word_embeddings.weight", in: directory.appendingPathComponent("model.safetensors"),
                                 to: 3e38, count: nil)
        let embedder = try SentenceEmbedder(modelDirectory: directory)
        let error = #expect(throws: SentenceEmbedderError.self) { try embedder.embed(["a text", "another"]) }
        guard case .nonFiniteOutput(let model, _)? = error else {
            Issue.record("expected nonFiniteOutput, got \(String(describing: error))")
            return
        }
        #expect(model == directory.path)
        #expect(error?.description.contains("JSON has no NaN or infinity") == true)
    }
}

import Foundation
import Testing
@testable import NLUCore

@Suite struct CoreLayerTests {
    @Test func linearRejectsMismatchedWeights() {
        #expect(throws: LayerWeightsError.wrongShape("Linear bias", expected: "[2] (the weight's output size)", actual: [3])) {
            try Linear(weight: Tensor(shape: [2, 4]), bias: Tensor(shape: [3]))
        }
        #expect(throws: LayerWeightsError.self) { try Linear(weight: Tensor(shape: [8]), bias: nil) }
    }

    @Test func linearInitializationIsSeededAndBounded() {
        var first = SplitMix64(seed: 1), second = SplitMix64(seed: 1)
        let a = Linear(inputSize: 16, outputSize: 3, using: &first)
        let b = Linear(inputSize: 16, outputSize: 3, using: &second)
        #expect(a.weight == b.weight)
        #expect(a.weight.scalars.allSatisfy { abs($0) <= 0.25 })  // 1/√16
        #expect(a.bias?.shape == [3])
    }

    @Test func layerNormNormalizesEachRowToWeightAndBias() throws {
        let norm = try LayerNorm(weight: Tensor([2, 2]), bias: Tensor([1, 1]), epsilon: 0)
        // Row [1, 3]: mean 2, σ 1 → [-1, 1] → ·2 + 1 = [-1, 3] (ε = 0 keeps the result exact).
        let output = norm(Tensor(shape: [1, 2], scalars: [1, 3]))
        #expect(output.scalars == [-1, 3])
        #expect(throws: LayerWeightsError.self) { try LayerNorm(weight: Tensor([1, 1]), bias: Tensor([0]), epsilon: 1e-5) }
        let fresh = LayerNorm(size: 4)
        #expect(fresh.weight.scalars == [1, 1, 1, 1])
    }

    @Test func embeddingGathersRowsAndRejectsUnknownIds() throws {
        let table = Tensor<Float>(shape: [3, 2], scalars: [0, 1, 10, 11, 20, 21])
        let embedding = try Embedding(table: table)
        let vectors = try embedding(Tensor<Int32>(shape: [2, 2], scalars: [2, 0, 1, 1]))
        #expect(vectors.shape == [2, 2, 2])
        #expect(vectors.scalars == [20, 21, 0, 1, 10, 11, 10, 11])
        let error = try #require(throws: ModelError.self) { try embedding(Tensor<Int32>([1, 3])) }
        #expect(error.description.contains("id 3 at position 1"))
        #expect(throws: ModelError.self) { try embedding(Tensor<Int32>([-1])) }
        #expect(throws: LayerWeightsError.self) { try Embedding(table: Tensor(shape: [3])) }
    }

    @Test func freshEmbeddingIsStandardNormal() {
        var generator = SplitMix64(seed: 2)
        let embedding = Embedding(vocabularySize: 100, dimension: 100, using: &generator)
        let values = embedding.table.scalars.map(Double.init)
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
        // 10,000 samples: the standard errors are 0.01 (mean) and about 0.014 (variance).
        #expect(abs(mean) < 0.04)
        #expect(abs(variance - 1) < 0.06)
    }
}

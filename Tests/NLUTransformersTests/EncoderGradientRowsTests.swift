import Foundation
import NLUCore
import Testing
@testable import NLUTransformers

/// The word-embedding rows the backward pass marks (``EncoderParameters/sparseGradientRows``): the
/// batch's tokens, so that clipping, AdamW and zeroing may skip the rest of the table; and the
/// dense fallback when a gradient is changed from outside.
@Suite struct EncoderGradientRowsTests {
    @Test func theMarkedRowsAreTheBatchTokensAndHoldEveryNonzeroRow() throws {
        let fixture = try EncoderGradientFixture.load("bert")
        let encoder = try fixture.encoder()
        let batch = try fixture.batch()
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        encoder.zeroGradients()
        _ = try encoder.forward(batch, workspace: workspace)
        try encoder.backward(fixture.outputGradient(hiddenSize: encoder.configuration.hiddenSize), workspace: workspace)
        let index = try #require(encoder.parameters.index(of: "embeddings.word_embeddings.weight"))
        let marked = try #require(encoder.parameters.sparseGradientRows[index])
        let tokens = Set(batch.tokenIDs.map(Int.init)).subtracting([encoder.layout.wordPaddingIndex])
        #expect(Set(marked.rows) == tokens)
        // Every row outside the marked ones is exactly zero.
        let gradient = encoder.parameters.gradients[index].scalars, width = marked.width
        for row in 0..<(gradient.count / width) where !tokens.contains(row) {
            #expect(gradient[(row * width)..<((row + 1) * width)].allSatisfy { $0 == 0 }, "row \(row)")
        }
        // Zeroing clears the marked rows and the marks.
        encoder.zeroGradients()
        #expect(encoder.parameters.gradients[index].scalars.allSatisfy { $0 == 0 })
        #expect(encoder.parameters.sparseGradientRows[index]?.rows == [])
    }

    @Test func aGradientChangedFromOutsideMakesTheTableDenseUntilZeroed() throws {
        let fixture = try EncoderGradientFixture.load("bert")
        let encoder = try fixture.encoder()
        let index = try #require(encoder.parameters.index(of: "embeddings.word_embeddings.weight"))
        encoder.parameters.gradients[index].withUnsafeMutableBufferPointer { $0[5] = 1 }
        #expect(encoder.parameters.sparseGradientRows.isEmpty)
        encoder.zeroGradients()
        #expect(encoder.parameters.gradients[index].scalars.allSatisfy { $0 == 0 })
        #expect(encoder.parameters.sparseGradientRows[index]?.rows == [])
    }
}

import Foundation
import Testing
@testable import NLUCore

/// Pooling and L2 normalization, forward and backward, against sentence-transformers' `Pooling` and
/// `Normalize` modules with torch autograd on the same inputs (Tests/Fixtures/training/pooling.json,
/// written by scripts/fixtures/training_heads.py). Tolerance: 1e-5 relative plus 1e-6 absolute.
@Suite struct TokenPoolingReferenceTests {
    typealias StoredTensor = TrainingReferenceTests.StoredTensor

    struct PoolingCase: Decodable {
        var modes: [String]
        var tokens: StoredTensor
        var attentionMask: [Int32]
        var output: StoredTensor
        var outputGradient: StoredTensor
        var tokenGradient: StoredTensor
    }

    struct NormalizeCase: Decodable {
        var input: StoredTensor
        var output: StoredTensor
        var outputGradient: StoredTensor
        var inputGradient: StoredTensor
    }

    struct Fixture: Decodable {
        var pooling: [PoolingCase]
        var normalize: NormalizeCase
    }

    static func fixture() throws -> Fixture { try TrainingReferenceTests.load("pooling", as: Fixture.self) }

    @Test func poolingAndItsGradientMatchSentenceTransformersWithPadding() throws {
        let cases = try Self.fixture().pooling
        #expect(cases.count == 7)
        for reference in cases {
            let modes = try reference.modes.map { try #require(PoolingMode(rawValue: $0), "mode \($0)") }
            let pooling = TokenPooling(modes: modes, hiddenSize: reference.tokens.shape[2])
            let output = pooling(reference.tokens.tensor, attentionMask: reference.attentionMask)
            #expect(output.shape == reference.output.shape)
            #expect(firstMismatch(output.scalars, reference.output.values) == nil, "\(reference.modes) pooled output")
            let gradient = pooling.backward(outputGradient: reference.outputGradient.tensor, hiddenStates: reference.tokens.tensor,
                                            attentionMask: reference.attentionMask)
            #expect(gradient.shape == reference.tokenGradient.shape)
            #expect(firstMismatch(gradient.scalars, reference.tokenGradient.values) == nil, "\(reference.modes) token gradient")
        }
    }

    @Test func maxPoolingSkipsPaddingAndSendsTheGradientToTheFirstTiedPosition() {
        // One row of 4 tokens, 2 channels; the last token is padding and larger than everything.
        let tokens = Tensor<Float>(shape: [1, 4, 2], scalars: [1, -3, 5, 2, 5, -1, 9, 9])
        let pooling = TokenPooling(modes: [.max], hiddenSize: 2)
        let mask: [Int32] = [1, 1, 1, 0]
        #expect(pooling(tokens, attentionMask: mask).scalars == [5, 2])
        let gradient = pooling.backward(outputGradient: Tensor(shape: [1, 2], scalars: [10, 20]), hiddenStates: tokens, attentionMask: mask)
        #expect(gradient.scalars == [0, 0, 10, 20, 0, 0, 0, 0])
    }

    @Test func rightPaddedInferenceAgreesBitForBitWithTheMaskedForm() {
        var generator = SplitMix64(seed: 39)
        let (sequence, hidden) = (6, 5)
        let lengths = [6, 3, 1]
        let tokens = randomTensor([lengths.count, sequence, hidden], using: &generator)
        let mask = lengths.flatMap { length in (0..<sequence).map { Int32($0 < length ? 1 : 0) } }
        let pooling = TokenPooling(modes: PoolingMode.allCases, hiddenSize: hidden)
        let masked = pooling(tokens, attentionMask: mask)
        var rowByRow = [Float](repeating: 0, count: lengths.count * pooling.outputSize)
        tokens.withUnsafeBufferPointer { tokens in
            rowByRow.withUnsafeMutableBufferPointer { output in
                for (row, length) in lengths.enumerated() {
                    pooling.pool(tokens.baseAddress!, row: row, sequenceLength: sequence, length: length,
                                 into: output.baseAddress! + row * pooling.outputSize)
                }
            }
        }
        #expect(masked.scalars == rowByRow)
    }

    @Test func weightedMeanGradientAgreesWithCentralDifferences() {
        var generator = SplitMix64(seed: 7)
        let tokens = randomTensor([2, 4, 3], using: &generator)
        let upstream = randomTensor([2, 9], using: &generator)
        let mask: [Int32] = [1, 1, 1, 0, 1, 1, 0, 0]
        let pooling = TokenPooling(modes: [.weightedMean, .meanSqrtLength, .lastToken], hiddenSize: 3)
        let analytic = pooling.backward(outputGradient: upstream, hiddenStates: tokens, attentionMask: mask)
        let numeric = GradientCheck.numericalGradient(of: { x in
            zip(pooling(x, attentionMask: mask).scalars, upstream.scalars).reduce(0) { $0 + $1.0 * $1.1 }
        }, at: tokens, epsilon: 1e-2)
        #expect(maxAbsoluteDifference(analytic.scalars, numeric.scalars) <= 1e-3)
    }

    @Test func l2NormalizationAndItsGradientMatchTheNormalizeModule() throws {
        let reference = try Self.fixture().normalize
        let normalization = L2Normalization()
        let output = normalization(reference.input.tensor)
        #expect(firstMismatch(output.scalars, reference.output.values) == nil, "normalized rows")
        let gradient = normalization.backward(outputGradient: reference.outputGradient.tensor, input: reference.input.tensor)
        // The last row is below the 1e-12 floor: its gradient is the upstream one × 1e12.
        #expect(firstMismatch(gradient.scalars, reference.inputGradient.values) == nil, "input gradient")
    }

    @Test func normalizingOneVectorInPlaceGivesUnitLength() {
        var vector: [Float] = [3, 4]
        L2Normalization().normalize(&vector)
        #expect(maxAbsoluteDifference(vector, [0.6, 0.8]) <= 1e-7)
    }
}

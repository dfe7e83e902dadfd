import Foundation
import Testing
@testable import NLUCore

/// MultipleNegativesRankingLoss, CosineSimilarityLoss and the intent head (linear + cross-entropy):
/// values and gradients against sentence-transformers' loss classes and torch autograd on the same
/// embeddings (Tests/Fixtures/training/losses.json, written by scripts/fixtures/training_heads.py).
/// Tolerance: 1e-5 relative plus 1e-6 absolute.
@Suite struct EmbeddingLossReferenceTests {
    typealias StoredTensor = TrainingReferenceTests.StoredTensor

    struct RankingCase: Decodable {
        var scale: Float
        var embeddings: [StoredTensor]
        var loss: Float
        var gradients: [StoredTensor]
    }

    struct CosineCase: Decodable {
        var embeddings: [StoredTensor]
        var labels: [Float]
        var loss: Float
        var gradients: [StoredTensor]
    }

    struct HeadCase: Decodable {
        var pooled: StoredTensor
        var weight: StoredTensor
        var bias: StoredTensor
        var targets: [Int32]
        var loss: Float
        var pooledGradient: StoredTensor
        var weightGradient: StoredTensor
        var biasGradient: StoredTensor
        /// `F.cross_entropy`'s `label_smoothing` and `weight`, where the case sets them.
        var labelSmoothing: Float?
        var classWeights: [Float]?
    }

    struct ChainCase: Decodable {
        var tokens: [StoredTensor]
        var attentionMask: [Int32]
        var loss: Float
        var tokenGradients: [StoredTensor]
    }

    struct Fixture: Decodable {
        var multipleNegativesRanking: [RankingCase]
        var cosineSimilarity: [CosineCase]
        var intentHead: [HeadCase]
        var meanPoolingThenRanking: [ChainCase]
    }

    static func fixture() throws -> Fixture { try TrainingReferenceTests.load("losses", as: Fixture.self) }

    @Test func multipleNegativesRankingLossMatchesSentenceTransformersWithAndWithoutHardNegatives() throws {
        let cases = try Self.fixture().multipleNegativesRanking
        #expect(cases.map(\.embeddings.count) == [2, 3, 4])
        for reference in cases {
            let name = "MNRL with \(reference.embeddings.count - 2) hard-negative columns"
            let (loss, gradients) = MultipleNegativesRankingLoss(scale: reference.scale)
                .lossAndGradients(embeddings: reference.embeddings.map(\.tensor))
            #expect(firstMismatch([loss], [reference.loss]) == nil, "\(name): loss")
            #expect(gradients.count == reference.gradients.count)
            for (column, (gradient, expected)) in zip(gradients, reference.gradients).enumerated() {
                #expect(gradient.shape == expected.shape)
                #expect(firstMismatch(gradient.scalars, expected.values) == nil, "\(name): gradient of column \(column)")
            }
        }
    }

    @Test func cosineSimilarityLossMatchesSentenceTransformers() throws {
        for reference in try Self.fixture().cosineSimilarity {
            let (loss, gradients) = CosineSimilarityLoss().lossAndGradients(embeddings: reference.embeddings.map(\.tensor),
                                                                            labels: reference.labels)
            #expect(firstMismatch([loss], [reference.loss]) == nil, "CosineSimilarityLoss: loss")
            for (column, (gradient, expected)) in zip(gradients, reference.gradients).enumerated() {
                #expect(firstMismatch(gradient.scalars, expected.values) == nil, "CosineSimilarityLoss: gradient of column \(column)")
            }
        }
    }

    /// Plain, label-smoothed (0.1), and label-smoothed (0.3) with class weights: loss and gradients within 1e-5
    /// relative (1e-6 absolute) of PyTorch's `F.cross_entropy` by autograd.
    @Test func intentHeadLossAndGradientsMatchLinearThenCrossEntropy() throws {
        let cases = try Self.fixture().intentHead
        #expect(cases.map { $0.labelSmoothing ?? 0 } == [0, 0.1, 0.3])
        for reference in cases {
            let name = "intent head (label smoothing \(reference.labelSmoothing ?? 0), class weights \(reference.classWeights ?? []))"
            let head = SoftmaxClassifierHead(linear: try Linear(weight: reference.weight.tensor, bias: reference.bias.tensor))
            let (loss, gradients) = head.lossAndGradients(pooled: reference.pooled.tensor, targets: reference.targets,
                                                          classWeights: reference.classWeights, labelSmoothing: reference.labelSmoothing ?? 0)
            #expect(firstMismatch([loss], [reference.loss]) == nil, "\(name): loss")
            #expect(firstMismatch(gradients.input.scalars, reference.pooledGradient.values) == nil, "\(name): pooled gradient")
            #expect(firstMismatch(gradients.weight.scalars, reference.weightGradient.values) == nil, "\(name): weight gradient")
            #expect(firstMismatch(gradients.bias?.scalars ?? [], reference.biasGradient.values) == nil, "\(name): bias gradient")
        }
    }

    @Test func rankingLossReachesPaddedTokensThroughMeanPooling() throws {
        for reference in try Self.fixture().meanPoolingThenRanking {
            let pooling = TokenPooling(modes: [.mean], hiddenSize: reference.tokens[0].shape[2])
            let tokens = reference.tokens.map(\.tensor)
            let pooled = tokens.map { pooling($0, attentionMask: reference.attentionMask) }
            let (loss, gradients) = MultipleNegativesRankingLoss().lossAndGradients(embeddings: pooled)
            #expect(firstMismatch([loss], [reference.loss]) == nil, "pooling then MNRL: loss")
            for (column, expected) in reference.tokenGradients.enumerated() {
                let tokenGradient = pooling.backward(outputGradient: gradients[column], hiddenStates: tokens[column],
                                                     attentionMask: reference.attentionMask)
                #expect(firstMismatch(tokenGradient.scalars, expected.values) == nil, "pooling then MNRL: token gradient of column \(column)")
            }
        }
    }

    @Test func rankingLossGradientAgreesWithCentralDifferences() {
        var generator = SplitMix64(seed: 5)
        let columns = (0..<3).map { _ in randomTensor([3, 4], using: &generator) }
        let loss = MultipleNegativesRankingLoss(scale: 5)
        let analytic = loss.lossAndGradients(embeddings: columns).gradients
        for column in columns.indices {
            let numeric = GradientCheck.numericalGradient(of: { x in
                var changed = columns
                changed[column] = x
                return loss.lossAndGradients(embeddings: changed).loss
            }, at: columns[column], epsilon: 1e-2)
            #expect(maxAbsoluteDifference(analytic[column].scalars, numeric.scalars) <= 2e-3, "column \(column)")
        }
    }
}

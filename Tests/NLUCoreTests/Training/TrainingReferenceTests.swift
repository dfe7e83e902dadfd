import Foundation
import Testing
@testable import NLUCore

/// Adam/AdamW, cross-entropy and gradient clipping against PyTorch's values on the same inputs
/// (Tests/Fixtures/training, written by scripts/fixtures/training.py).
@Suite struct TrainingReferenceTests {
    struct StoredTensor: Decodable {
        var shape: [Int]
        var values: [Float]
        var tensor: Tensor<Float> { Tensor(shape: shape, scalars: values) }
    }

    struct AdamCase: Decodable {
        struct Step: Decodable { var gradients: [StoredTensor]; var parameters: [StoredTensor] }
        var name: String
        var lr: Float
        var beta1: Float
        var beta2: Float
        var epsilon: Float
        var weightDecay: Float
        var decoupled: Bool
        var initial: [StoredTensor]
        var steps: [Step]
    }

    struct CrossEntropyCase: Decodable {
        var logits: StoredTensor
        var targets: [Int32]
        var classWeights: [Float]?
        var loss: Float
        var gradient: StoredTensor
    }

    struct ClippingCase: Decodable {
        var maxNorm: Float
        var gradients: [StoredTensor]
        var norm: Float
        var clipped: [StoredTensor]
    }

    static func load<T: Decodable>(_ name: String, as type: T.Type) throws -> T {
        let url = fixturesDirectory.appendingPathComponent("training/\(name).json")
        return try JSONDecoder().decode(type, from: Data(contentsOf: url))
    }

    @Test func adamMatchesTorchOptimOverFiveSteps() throws {
        for reference in try Self.load("adam", as: [AdamCase].self) {
            let adam = AdamOptimizer(learningRate: reference.lr, beta1: reference.beta1, beta2: reference.beta2,
                                     epsilon: reference.epsilon, weightDecay: reference.weightDecay,
                                     decoupledWeightDecay: reference.decoupled)
            var parameters = reference.initial.map(\.tensor)
            for (stepIndex, step) in reference.steps.enumerated() {
                adam.step(&parameters, gradients: step.gradients.map(\.tensor))
                for (parameter, expected) in zip(parameters, step.parameters) {
                    // Float32 on both sides; the update order differs slightly, so allow a few ulps of the step.
                    #expect(maxAbsoluteDifference(parameter.scalars, expected.values) <= 2e-6,
                            "\(reference.name) step \(stepIndex + 1)")
                }
            }
            #expect(adam.state.step == reference.steps.count)
        }
    }

    @Test func adamResumesFromSavedState() throws {
        let reference = try #require(try Self.load("adam", as: [AdamCase].self).first)
        let first = AdamOptimizer(learningRate: reference.lr)
        var parameters = reference.initial.map(\.tensor)
        for step in reference.steps.prefix(2) { first.step(&parameters, gradients: step.gradients.map(\.tensor)) }
        let resumed = AdamOptimizer(learningRate: reference.lr)
        resumed.state = first.state
        for step in reference.steps.dropFirst(2) { resumed.step(&parameters, gradients: step.gradients.map(\.tensor)) }
        #expect(maxAbsoluteDifference(parameters[0].scalars, reference.steps.last!.parameters[0].values) <= 2e-6)
    }

    @Test func crossEntropyLossAndGradientMatchPyTorch() throws {
        for (index, reference) in try Self.load("cross-entropy", as: [CrossEntropyCase].self).enumerated() {
            let (loss, gradient) = SoftmaxCrossEntropy.lossAndGradient(
                logits: reference.logits.tensor, targets: reference.targets, classWeights: reference.classWeights)
            #expect(abs(loss - reference.loss) <= 1e-5 * max(1, abs(reference.loss)), "case \(index): \(loss) vs \(reference.loss)")
            #expect(gradient.shape == reference.gradient.shape)
            #expect(maxAbsoluteDifference(gradient.scalars, reference.gradient.values) <= 1e-6, "case \(index)")
        }
    }

    @Test func crossEntropyGradientAgreesWithCentralDifferences() {
        var generator = SplitMix64(seed: 4)
        let logits = randomTensor([3, 5], in: -2...2, using: &generator)
        let targets: [Int32] = [4, 0, 2]
        let weights: [Float] = [0.5, 1, 2, 1, 3]
        let analytic = SoftmaxCrossEntropy.lossAndGradient(logits: logits, targets: targets, classWeights: weights).gradient
        let numeric = GradientCheck.numericalGradient(of: {
            SoftmaxCrossEntropy.lossAndGradient(logits: $0, targets: targets, classWeights: weights).loss
        }, at: logits, epsilon: 1e-2)
        // Central differences in Float with ε = 1e-2: truncation O(ε²) plus rounding ~1e-7/ε.
        #expect(maxAbsoluteDifference(analytic.scalars, numeric.scalars) <= 2e-4)
    }

    @Test func gradientCheckRecoversAKnownGradient() {
        // f(x) = Σ x_i³ has gradient 3 x_i².
        let x = Tensor<Float>(shape: [2, 2], scalars: [0.5, -1, 2, 0])
        let numeric = GradientCheck.numericalGradient(of: { $0.scalars.reduce(0) { $0 + $1 * $1 * $1 } }, at: x)
        #expect(numeric.shape == [2, 2])
        #expect(maxAbsoluteDifference(numeric.scalars, [0.75, 3, 12, 0]) <= 1e-2)
        #expect(x.scalars == [0.5, -1, 2, 0])
    }

    @Test func clippingMatchesClipGradNorm() throws {
        for reference in try Self.load("clipping", as: [ClippingCase].self) {
            var gradients = reference.gradients.map(\.tensor)
            let norm = GradientClipping.clipByGlobalNorm(&gradients, maxNorm: reference.maxNorm)
            #expect(abs(norm - reference.norm) <= 1e-5 * reference.norm)
            for (clipped, expected) in zip(gradients, reference.clipped) {
                #expect(maxAbsoluteDifference(clipped.scalars, expected.values) <= 1e-6)
            }
        }
    }
}

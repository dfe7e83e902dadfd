import Testing
@testable import NLUCore

/// Clipping and AdamW told which rows of a table's gradient may be nonzero
/// (``SparseGradientRows``) against the same calls on the whole table: the optimizer's results must
/// be the dense step's bit for bit (the skipped rows have zero gradient and zero moments, where Adam
/// reduces to the decay), and the clipped gradients within float rounding of the dense norm's.
@Suite struct SparseGradientRowsTests {
    static let rows = 40, width = 6

    /// A `[rows, width]` gradient with values (seeded) in `touched` rows only, zero elsewhere.
    /// A uniform draw in [0, 1).
    static func uniform(_ generator: inout SplitMix64) -> Float { Float(generator.next() >> 40) / Float(1 << 24) }

    static func gradient(touched: [Int], seed: UInt64, scale: Float = 1) -> Tensor<Float> {
        var generator = SplitMix64(seed: seed)
        var values = [Float](repeating: 0, count: rows * width)
        for row in touched {
            for column in 0..<width { values[row * width + column] = scale * (uniform(&generator) * 2 - 1) }
        }
        return Tensor(shape: [rows, width], scalars: values)
    }

    static func table(seed: UInt64) -> Tensor<Float> {
        var generator = SplitMix64(seed: seed)
        return Tensor(shape: [rows, width], scalars: (0..<(rows * width)).map { _ in uniform(&generator) - 0.5 })
    }

    /// The touched rows of each step: new rows, rows seen before, and steps that leave earlier rows out.
    static let steps: [[Int]] = [[3, 7, 20], [7, 39], [], [0, 3, 3, 19], [25], [7, 20, 21]]

    @Test(arguments: [0, 0.01] as [Float])
    func adamWOnTheMarkedRowsEqualsTheDenseStepBitForBit(weightDecay: Float) {
        let dense = AdamOptimizer(learningRate: 1e-2, weightDecay: weightDecay, decoupledWeightDecay: true,
                                  decayedParameters: [true, false])
        let sparse = AdamOptimizer(learningRate: 1e-2, weightDecay: weightDecay, decoupledWeightDecay: true,
                                   decayedParameters: [true, false])
        let bias = Tensor<Float>(shape: [Self.width], scalars: [0.1, -0.2, 0.3, 0, 0.5, -0.6])
        var denseParameters = [Self.table(seed: 1), bias], sparseParameters = denseParameters
        for (index, touched) in Self.steps.enumerated() {
            let gradients = [Self.gradient(touched: touched, seed: UInt64(index + 10)),
                             Tensor<Float>(shape: [Self.width], scalars: [Float](repeating: 0.25, count: Self.width))]
            dense.learningRate = 1e-2 * Float(Self.steps.count - index) / Float(Self.steps.count)
            sparse.learningRate = dense.learningRate
            dense.step(&denseParameters, gradients: gradients)
            sparse.step(&sparseParameters, gradients: gradients,
                        sparseRows: [0: SparseGradientRows(width: Self.width, rows: touched)])
            #expect(sparseParameters[0].scalars == denseParameters[0].scalars, "step \(index + 1): the table differs")
            #expect(sparseParameters[1].scalars == denseParameters[1].scalars, "step \(index + 1): the bias differs")
            #expect(sparse.state == dense.state, "step \(index + 1): the moments differ")
        }
    }

    @Test func aStateSetFromACheckpointKeepsItsRowsMoving() {
        // Resumed: the moments say which rows moved before; a step that touches none of them still
        // moves them (their first moments decay towards zero), as the dense step does.
        let dense = AdamOptimizer(learningRate: 1e-2, weightDecay: 0.01, decoupledWeightDecay: true)
        var denseParameters = [Self.table(seed: 2)]
        dense.step(&denseParameters, gradients: [Self.gradient(touched: [5, 30], seed: 3)])
        let resumed = AdamOptimizer(learningRate: 1e-2, weightDecay: 0.01, decoupledWeightDecay: true)
        resumed.state = dense.state
        var resumedParameters = denseParameters
        let next = Self.gradient(touched: [8], seed: 4)
        dense.step(&denseParameters, gradients: [next])
        resumed.step(&resumedParameters, gradients: [next], sparseRows: [0: SparseGradientRows(width: Self.width, rows: [8])])
        #expect(resumedParameters[0].scalars == denseParameters[0].scalars)
        #expect(resumed.state == dense.state)
    }

    @Test func clippingReadsAndScalesTheMarkedRowsOnly() {
        let touched = [2, 9, 33]
        var dense = [Self.gradient(touched: touched, seed: 5, scale: 40)]
        var sparse = dense
        let denseNorm = GradientClipping.clipByGlobalNorm(&dense, maxNorm: 1)
        let sparseNorm = GradientClipping.clipByGlobalNorm(&sparse, maxNorm: 1,
                                                           sparseRows: [0: SparseGradientRows(width: Self.width, rows: touched)])
        #expect(denseNorm > 1)   // the clipping applied
        #expect(abs(sparseNorm - denseNorm) <= 1e-6 * denseNorm)
        for (a, b) in zip(sparse[0].scalars, dense[0].scalars) { #expect(abs(a - b) <= 1e-6 * max(1, abs(b))) }
    }
}

import Testing
@testable import NLUCore

/// AdamW putting off the idle rows of a sparse parameter (`deferringIdleRows`) against the eager
/// sparse step (itself pinned to the dense step by ``SparseGradientRowsTests``) over hundreds of steps
/// on a changing learning rate: every row read between steps, the moments of ``AdamOptimizer/state``
/// and the final parameters must be the eager ones bit for bit (the put-off steps are the same kernel
/// calls with the same constants, taken later).
@Suite struct AdamDeferredRowsTests {
    static let rows = 50, width = 24

    static func uniform(_ generator: inout SplitMix64) -> Float { Float(generator.next() >> 40) / Float(1 << 24) }

    /// A step's gradient of the `[rows, width]` table: values in `touched` rows only.
    static func gradient(touched: [Int], generator: inout SplitMix64) -> Tensor<Float> {
        var values = [Float](repeating: 0, count: rows * width)
        for row in touched {
            for column in 0..<width { values[row * width + column] = uniform(&generator) * 2 - 1 }
        }
        return Tensor(shape: [rows, width], scalars: values)
    }

    static func bits(_ tensor: Tensor<Float>) -> [UInt32] { tensor.scalars.map(\.bitPattern) }

    static func bits(_ state: AdamOptimizer.State) -> [[UInt32]] {
        state.firstMoments.map(bits) + state.secondMoments.map(bits) + [[UInt32(state.step)]]
    }

    static func optimizer(learningRateScales: [Float]? = nil) -> AdamOptimizer {
        AdamOptimizer(learningRate: 1e-2, weightDecay: 0.01, decoupledWeightDecay: true, decayedParameters: [true, false],
                      learningRateScales: learningRateScales)
    }

    /// Each step touches 0-4 rows drawn mostly from a small, changing set (rows seen before come
    /// back after long idle stretches; some rows are never touched); the rows the next step will
    /// touch are read first, as a forward pass reads them.
    /// Also with the table at a rate of its own (a scale on the schedule's rate, as a head group has).
    @Test(arguments: [nil, [2.5, 0.5]] as [[Float]?])
    func putOffStepsLeaveTheEagerBitsInEveryRowReadAndInTheState(learningRateScales: [Float]?) {
        let eager = Self.optimizer(learningRateScales: learningRateScales), deferred = Self.optimizer(learningRateScales: learningRateScales)
        var generator = SplitMix64(seed: 11)
        let table = Tensor<Float>(shape: [Self.rows, Self.width],
                                  scalars: (0..<(Self.rows * Self.width)).map { _ in Self.uniform(&generator) - 0.5 })
        let bias = Tensor<Float>(shape: [Self.width], scalars: (0..<Self.width).map { Float($0) / 10 })
        var eagerParameters = [table, bias], deferredParameters = eagerParameters
        let stepCount = 400
        var touched: [[Int]] = (0..<stepCount).map { step in
            let count = Int(generator.next() % 5)
            return (0..<count).map { _ in Int(generator.next() % UInt64(step < 200 ? 12 : 30)) }   // rows 30... never
        }
        touched.append([])
        for step in 0..<stepCount {
            let rate = 1e-2 * Float(stepCount - step) / Float(stepCount)
            eager.learningRate = rate
            deferred.learningRate = rate
            let gradients = [Self.gradient(touched: touched[step], generator: &generator),
                             Tensor<Float>(shape: [Self.width], scalars: [Float](repeating: 0.25, count: Self.width))]
            let sparse = [0: SparseGradientRows(width: Self.width, rows: touched[step])]
            eager.step(&eagerParameters, gradients: gradients, sparseRows: sparse)
            deferred.step(&deferredParameters, gradients: gradients, sparseRows: sparse, deferringIdleRows: true)
            // The next step's rows, read as a forward pass would after bringing them up to date.
            let read = touched[step + 1] + [Int(generator.next() % UInt64(Self.rows))]
            deferredParameters[0].withUnsafeMutableBufferPointer {
                deferred.catchUpDeferredRows(read, ofParameter: 0, in: $0.baseAddress!)
            }
            let eagerTable = eagerParameters[0].scalars, deferredTable = deferredParameters[0].scalars
            for row in read {
                let range = (row * Self.width)..<((row + 1) * Self.width)
                #expect(deferredTable[range].map(\.bitPattern) == eagerTable[range].map(\.bitPattern), "step \(step + 1), row \(row)")
            }
            #expect(Self.bits(deferredParameters[1]) == Self.bits(eagerParameters[1]), "step \(step + 1): the bias differs")
            if step % 50 == 49 {
                #expect(Self.bits(deferred.state) == Self.bits(eager.state), "step \(step + 1): the moments differ")
            }
        }
        #expect(deferred.hasDeferredRows)
        deferredParameters[0].withUnsafeMutableBufferPointer { deferred.catchUpAllDeferredRows(ofParameter: 0, in: $0.baseAddress!) }
        #expect(!deferred.hasDeferredRows)
        #expect(Self.bits(deferredParameters[0]) == Self.bits(eagerParameters[0]))
        #expect(Self.bits(deferred.state) == Self.bits(eager.state))
    }

    /// Rows left behind are brought up to date by the first step that does not defer them (another
    /// mode, or a step without sparse rows), and a state set from outside forgets what was put off.
    @Test func aWholeStepOrASetStateEndsThePutOffSteps() {
        let eager = Self.optimizer(), deferred = Self.optimizer()
        var generator = SplitMix64(seed: 5)
        let table = Tensor<Float>(shape: [Self.rows, Self.width],
                                  scalars: (0..<(Self.rows * Self.width)).map { _ in Self.uniform(&generator) - 0.5 })
        let bias = Tensor<Float>(shape: [Self.width], scalars: [Float](repeating: 0.5, count: Self.width))
        var eagerParameters = [table, bias], deferredParameters = eagerParameters
        for step in 0..<30 {
            let touched = [step % 7, (step * 3) % 11]
            let gradients = [Self.gradient(touched: touched, generator: &generator), bias]
            let sparse = [0: SparseGradientRows(width: Self.width, rows: touched)]
            eager.step(&eagerParameters, gradients: gradients, sparseRows: sparse)
            // Steps 20...: no sparse rows given (a gradient changed from outside): a whole step.
            deferred.step(&deferredParameters, gradients: gradients, sparseRows: step < 20 ? sparse : [:], deferringIdleRows: true)
            if step == 19 { #expect(deferred.hasDeferredRows) }
            if step == 20 {
                #expect(!deferred.hasDeferredRows)
                #expect(Self.bits(deferredParameters[0]) == Self.bits(eagerParameters[0]))
            }
        }
        // Resumed from the eager run's checkpoint: nothing put off remains to be applied.
        for step in 30..<40 {
            let touched = [step % 5]
            let gradients = [Self.gradient(touched: touched, generator: &generator), bias]
            let sparse = [0: SparseGradientRows(width: Self.width, rows: touched)]
            eager.step(&eagerParameters, gradients: gradients, sparseRows: sparse)
            deferred.step(&deferredParameters, gradients: gradients, sparseRows: sparse, deferringIdleRows: true)
        }
        deferred.state = eager.state
        deferredParameters = eagerParameters
        #expect(!deferred.hasDeferredRows)
        let gradients = [Self.gradient(touched: [3], generator: &generator), bias]
        eager.step(&eagerParameters, gradients: gradients, sparseRows: [0: SparseGradientRows(width: Self.width, rows: [3])])
        deferred.step(&deferredParameters, gradients: gradients, sparseRows: [0: SparseGradientRows(width: Self.width, rows: [3])],
                      deferringIdleRows: true)
        deferredParameters[0].withUnsafeMutableBufferPointer { deferred.catchUpAllDeferredRows(ofParameter: 0, in: $0.baseAddress!) }
        #expect(Self.bits(deferredParameters[0]) == Self.bits(eagerParameters[0]))
        #expect(Self.bits(deferred.state) == Self.bits(eager.state))
    }
}

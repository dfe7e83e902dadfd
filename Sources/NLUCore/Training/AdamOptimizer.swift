import CKernels
import Foundation

/// Adam and AdamW with exactly PyTorch's update rule (`torch.optim.Adam` / `torch.optim.AdamW`,
/// bias-corrected moments, `epsilon` added after the square root).
///
/// With `decoupledWeightDecay: false` weight decay is L2 (added to the gradient, as `Adam`); with
/// `true` parameters shrink by `learningRate × weightDecay` before the step (as `AdamW`).
/// `decayedParameters` chooses, per parameter, whether weight decay applies at all: PyTorch's two
/// parameter groups (decay / no decay) as Hugging Face `Trainer` builds them
/// (``trainerAdamW(parameterNames:layerNormParameters:learningRate:weightDecay:learningRateScales:)``).
/// `learningRateScales` gives a parameter a rate of its own, as a PyTorch parameter group with its own
/// `lr` (a new task head learning faster than the pretrained encoder under it). The optimizer
/// keeps one pair of moment tensors per parameter, aligned by index with the `parameters` passed
/// to ``step(_:gradients:)``.
///
///     let adam = AdamOptimizer(learningRate: 1e-3)
///     var parameters = [weight, bias]
///     adam.step(&parameters, gradients: [weightGradient, biasGradient])
///     let adamW = AdamOptimizer(learningRate: 1e-3, weightDecay: 0.01, decoupledWeightDecay: true,
///                               decayedParameters: [true, false])   // the bias does not decay
public final class AdamOptimizer {
    /// The optimizer's memory, for checkpoints: the number of steps taken and the moment
    /// estimates per parameter (empty before the first step).
    public struct State: Sendable, Equatable {
        public var step: Int
        public var firstMoments: [Tensor<Float>]
        public var secondMoments: [Tensor<Float>]

        public init(step: Int = 0, firstMoments: [Tensor<Float>] = [], secondMoments: [Tensor<Float>] = []) {
            self.step = step
            self.firstMoments = firstMoments
            self.secondMoments = secondMoments
        }
    }

    public var learningRate: Float
    public let beta1: Float
    public let beta2: Float
    public let epsilon: Float
    public let weightDecay: Float
    public let decoupledWeightDecay: Bool
    /// Per parameter (by index), whether `weightDecay` applies to it; nil: to every parameter.
    public let decayedParameters: [Bool]?
    /// Per parameter (by index), the factor on ``learningRate`` it steps with (its decoupled weight
    /// decay included); nil: 1 for every parameter.
    public let learningRateScales: [Float]?
    /// Steps taken and moments, as the eager optimizer would hold them (the moments of rows whose
    /// steps were put off are brought up to date in the copy returned); set it to resume from a
    /// checkpoint, which also forgets every put-off step (the parameters come from the checkpoint too).
    public var state: State {
        get { stateWithDeferredRowsCaughtUp() }
        set {
            storedState = newValue
            rowsWithMomentsByParameter = [:]
            deferredRowSteps = DeferredRowSteps(firstStep: newValue.step)
        }
    }
    /// The moments as stored: a row whose steps were put off keeps those of its last step.
    var storedState = State()
    var storedStep: Int { storedState.step }
    /// Per parameter given ``SparseGradientRows``, which rows have nonzero moments (grown by each
    /// step's rows; read off the moments after ``state`` is set from outside).
    var rowsWithMomentsByParameter: [Int: [Bool]] = [:]
    /// The steps put off for idle rows (``step(_:gradients:sparseRows:deferringIdleRows:)``).
    var deferredRowSteps = DeferredRowSteps(firstStep: 0)

    /// Whether some row of a sparse parameter is behind (its steps put off); see
    /// ``catchUpDeferredRows(_:ofParameter:in:)``.
    public var hasDeferredRows: Bool {
        deferredRowSteps.parameterIndices.contains { index in
            (0..<deferredRowSteps.rowCount(of: index)).contains { (deferredRowSteps.stepsTaken(row: $0, of: index) ?? storedStep) < storedStep }
        }
    }

    /// Runs `body` on the moments moved out of ``storedState`` (so both can be written at once and
    /// stay uniquely referenced: updated in place, not copied), then puts them back.
    func withMomentsMovedOut(_ body: (inout [Tensor<Float>], inout [Tensor<Float>]) -> Void) {
        var first = storedState.firstMoments, second = storedState.secondMoments
        storedState.firstMoments = []
        storedState.secondMoments = []
        body(&first, &second)
        storedState.firstMoments = first
        storedState.secondMoments = second
    }

    public init(learningRate: Float, beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8,
                weightDecay: Float = 0, decoupledWeightDecay: Bool = false, decayedParameters: [Bool]? = nil,
                learningRateScales: [Float]? = nil) {
        self.learningRate = learningRate
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.weightDecay = weightDecay
        self.decoupledWeightDecay = decoupledWeightDecay
        self.decayedParameters = decayedParameters
        self.learningRateScales = learningRateScales
    }

    /// Per row of `width` elements, whether either moment holds a nonzero value there.
    private static func rowsWithMoments(_ first: Tensor<Float>, _ second: Tensor<Float>, width: Int) -> [Bool] {
        let m = first.scalars, v = second.scalars
        return (0..<(m.count / width)).map { row in
            (row * width..<(row + 1) * width).contains { m[$0] != 0 || v[$0] != 0 }
        }
    }

    /// Updates `parameters` in place from `gradients` (same count and shapes, in the same order every step).
    ///
    /// A parameter listed in `sparseRows` (by index) has a zero gradient outside those rows. Its rows
    /// that never had a gradient have zero moments, so Adam's step there reduces to the decoupled
    /// weight decay: they are only scaled, and the moments are read and written for the other rows
    /// alone. The result is the dense step's, bit for bit. (With L2 weight decay every row gets a
    /// gradient, so such a parameter steps densely.)
    ///
    /// With `deferringIdleRows`, the rows of such a parameter outside this step's `sparseRows` are
    /// not touched at all: their step (moments decaying, the update from them, the weight decay) is
    /// put off until the row is next given a gradient here, or brought up to date by
    /// ``catchUpDeferredRows(_:ofParameter:in:)`` before it is read, or by
    /// ``catchUpAllDeferredRows(ofParameter:in:)``. A put-off step is then taken with the constants
    /// of its own step number and the same kernel, so the row ends with the bits the eager step gives
    /// (an embedding table with a few hundred rows in a batch and ten thousand that had one: a
    /// fine-tuning step then reads and writes the table's active rows only). Whoever reads the
    /// parameter between steps must bring the rows it reads up to date first (``TrainableEncoder``
    /// does it for its word-embedding table).
    public func step(_ parameters: inout [Tensor<Float>], gradients: [Tensor<Float>],
                     sparseRows: [Int: SparseGradientRows] = [:], deferringIdleRows: Bool = false) {
        precondition(parameters.count == gradients.count, "Adam: \(parameters.count) parameters but \(gradients.count) gradients")
        if storedState.firstMoments.isEmpty {
            storedState.firstMoments = parameters.map { Tensor(shape: $0.shape) }
            storedState.secondMoments = storedState.firstMoments
        }
        precondition(storedState.firstMoments.count == parameters.count, "Adam: the parameter list changed between steps")
        precondition(decayedParameters.map { $0.count == parameters.count } ?? true,
                     "Adam: \(decayedParameters?.count ?? 0) decay choices for \(parameters.count) parameters")
        precondition(learningRateScales.map { $0.count == parameters.count } ?? true,
                     "Adam: \(learningRateScales?.count ?? 0) learning-rate scales for \(parameters.count) parameters")
        let l2Decays = !decoupledWeightDecay && weightDecay != 0
        // Steps put off before for a parameter that steps whole now (not deferring, no sparse rows
        // this time, or an L2 term): taken first, so its rows enter this step current.
        for index in deferredRowSteps.parameterIndices
        where !deferringIdleRows || sparseRows[index] == nil || (l2Decays && (decayedParameters?[index] ?? true)) {
            parameters[index].withUnsafeMutableBufferPointer { values in
                if let base = values.baseAddress { catchUpAllDeferredRows(ofParameter: index, in: base) }
            }
            deferredRowSteps.untrack(parameter: index)
        }
        storedState.step += 1
        let stepConstants = StepConstants(learningRate: learningRate, step: storedState.step, beta1: beta1, beta2: beta2,
                                          decoupledWeightDecay: decoupledWeightDecay ? weightDecay : nil)
        let (beta1, beta2, epsilon) = (beta1, beta2, epsilon)
        let l2 = decoupledWeightDecay ? 0 : weightDecay
        let decays = decayedParameters
        deferredRowSteps.record(stepConstants, step: storedState.step)

        // Moved out of `storedState` so both moment buffers can be written at once (and stay unique, no copy).
        var firstMoments = storedState.firstMoments, secondMoments = storedState.secondMoments
        storedState.firstMoments = []
        storedState.secondMoments = []
        defer {
            storedState.firstMoments = firstMoments
            storedState.secondMoments = secondMoments
        }
        for index in parameters.indices {
            precondition(parameters[index].count == gradients[index].count && parameters[index].count == firstMoments[index].count,
                         "Adam: parameter \(index) has shape \(parameters[index].shape), gradient \(gradients[index].shape)")
            let constants = stepConstants.scaled(by: learningRateScales?[index] ?? 1)
            let (stepSize, correction2) = (constants.stepSize, constants.correction2)
            // A parameter outside the decay group steps as with weight decay 0.
            let (parameterL2, parameterShrink): (Float, Float) = (decays?[index] ?? true) ? (l2, constants.shrink) : (0, 1)
            // With sparse rows (and no L2 term, which would give every row a gradient): the rows with
            // moments step, the others only decay.
            var active: [Bool]?
            let sparse = parameterL2 == 0 ? sparseRows[index] : nil
            if let sparse {
                sparse.validate(count: parameters[index].count, parameter: index)
                var rows = rowsWithMomentsByParameter[index]
                    ?? Self.rowsWithMoments(firstMoments[index], secondMoments[index], width: sparse.width)
                if deferringIdleRows {
                    // The step's rows: their put-off steps first, then this one; the other rows wait.
                    deferredRowSteps.track(parameter: index, rowCount: rows.count, currentThrough: storedState.step - 1)
                    let hadMoments = rows
                    for row in sparse.rows { rows[row] = true }
                    rowsWithMomentsByParameter[index] = rows
                    parameters[index].withUnsafeMutableBufferPointer { p in
                        gradients[index].withUnsafeBufferPointer { g in
                            firstMoments[index].withUnsafeMutableBufferPointer { m in
                                secondMoments[index].withUnsafeMutableBufferPointer { v in
                                    guard let pBase = p.baseAddress, let gBase = g.baseAddress, let mBase = m.baseAddress,
                                          let vBase = v.baseAddress else { return }
                                    let buffers = RowBuffers(parameters: pBase, first: mBase, second: vBase, width: sparse.width)
                                    catchUp(sparse.rows, of: index, buffers, hadMoments: hadMoments, through: storedState.step - 1)
                                    let width = sparse.width
                                    Kernels.forEachRowChunk(rowCount: sparse.rows.count, rowLength: width) { chunk in
                                        for row in sparse.rows[chunk] {
                                            let start = row * width
                                            nlukit_adam_step(pBase + start, gBase + start, mBase + start, vBase + start, width,
                                                             beta1, beta2, stepSize, correction2, epsilon, 0, parameterShrink)
                                        }
                                    }
                                }
                            }
                        }
                    }
                    deferredRowSteps.markCurrent(sparse.rows, of: index, through: storedState.step)
                    continue
                }
                for row in sparse.rows { rows[row] = true }
                rowsWithMomentsByParameter[index] = rows
                active = rows
            }
            gradients[index].withUnsafeBufferPointer { g in
                parameters[index].withUnsafeMutableBufferPointer { p in
                    firstMoments[index].withUnsafeMutableBufferPointer { m in
                        secondMoments[index].withUnsafeMutableBufferPointer { v in
                            // One fused pass over contiguous buffers, split over the threads (a square
                            // root and a division per parameter: 3 % of a character LSTM's training step
                            // on one thread while the other waited), in C for the CPU's vector width.
                            guard let pBase = p.baseAddress, let gBase = g.baseAddress, let mBase = m.baseAddress,
                                  let vBase = v.baseAddress else { return }
                            if let sparse, let active {
                                let width = sparse.width
                                Kernels.forEachRowChunk(rowCount: active.count, rowLength: width) { rows in
                                    for row in rows {
                                        let start = row * width
                                        if active[row] {
                                            nlukit_adam_step(pBase + start, gBase + start, mBase + start, vBase + start, width,
                                                             beta1, beta2, stepSize, correction2, epsilon, 0, parameterShrink)
                                        } else if parameterShrink != 1 {
                                            for i in start..<(start + width) { pBase[i] *= parameterShrink }
                                        }
                                    }
                                }
                                return
                            }
                            Kernels.forEachChunk(count: p.count) { range in
                                let start = range.lowerBound
                                nlukit_adam_step(pBase + start, gBase + start, mBase + start, vBase + start, range.count,
                                                 beta1, beta2, stepSize, correction2, epsilon, parameterL2, parameterShrink)
                            }
                        }
                    }
                }
            }
        }
    }
}

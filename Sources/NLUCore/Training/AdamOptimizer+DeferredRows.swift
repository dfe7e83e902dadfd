import CKernels
import Foundation

/// The constants of one Adam step, kept so that a row whose step was put off takes it later with
/// the same arithmetic (``AdamOptimizer/step(_:gradients:sparseRows:deferringIdleRows:)``).
struct StepConstants {
    let stepSize: Float
    let correction2: Float
    /// `1 - learningRate × weightDecay` with decoupled weight decay, else 1.
    let shrink: Float
    /// The step's learning rate, first-moment bias correction and decoupled weight decay (nil: none), for ``scaled(by:)``.
    let learningRate: Float
    let correction1: Double
    let decoupledWeightDecay: Float?

    /// Step `step`'s constants (counted from 1) at `learningRate`.
    init(learningRate: Float, step: Int, beta1: Float, beta2: Float, decoupledWeightDecay: Float?) {
        self.init(learningRate: learningRate, correction1: 1 - Foundation.pow(Double(beta1), Double(step)),
                  correction2: Float((1 - Foundation.pow(Double(beta2), Double(step))).squareRoot()),
                  decoupledWeightDecay: decoupledWeightDecay)
    }

    private init(learningRate: Float, correction1: Double, correction2: Float, decoupledWeightDecay: Float?) {
        self.learningRate = learningRate
        self.correction1 = correction1
        self.correction2 = correction2
        self.decoupledWeightDecay = decoupledWeightDecay
        stepSize = Float(Double(learningRate) / correction1)
        shrink = decoupledWeightDecay.map { 1 - learningRate * $0 } ?? 1
    }

    /// The constants of a parameter whose rate is `scale` × the step's (PyTorch computes a group's
    /// step from its own rate, as here). The eager step and a put-off one both take them from here,
    /// so they agree bit for bit.
    func scaled(by scale: Float) -> StepConstants {
        guard scale != 1 else { return self }
        return StepConstants(learningRate: learningRate * scale, correction1: correction1, correction2: correction2,
                             decoupledWeightDecay: decoupledWeightDecay)
    }
}

/// Where one sparse parameter and its two moments start, and its row width.
struct RowBuffers {
    let parameters: UnsafeMutablePointer<Float>
    let first: UnsafeMutablePointer<Float>
    let second: UnsafeMutablePointer<Float>
    let width: Int
}

/// The steps an ``AdamOptimizer`` put off for the idle rows of its sparse parameters: every step's
/// constants since the state was last set, and per row the number of steps it has taken.
///
/// The rule that makes putting off exact: in a step where a row of a sparse parameter has no
/// gradient, Adam's update of that row depends on nothing but the row's own parameters and moments
/// and the step's constants (the moments decay by β1 and β2, the parameter moves by the decayed
/// moments' ratio and shrinks by the decoupled weight decay; a row whose moments are still zero only
/// shrinks). So the row's k idle steps can be taken in one go whenever it is next needed, each with
/// its own constants through the same kernel as the eager step: the same bits, with the row read and
/// written once instead of at every step.
struct DeferredRowSteps {
    /// The state's step count when this record began: step `firstStep + 1` is `constants[0]`.
    let firstStep: Int
    private var constants: [StepConstants] = []
    /// Per tracked parameter (by index), per row: the steps the row has taken.
    private var stepsTaken: [Int: [Int]] = [:]

    init(firstStep: Int) {
        self.firstStep = firstStep
    }

    /// The parameters whose rows may be behind, ascending.
    var parameterIndices: [Int] { stepsTaken.keys.sorted() }

    /// Keeps step `step`'s constants (steps are recorded in order, each once).
    mutating func record(_ stepConstants: StepConstants, step: Int) {
        precondition(step == firstStep + constants.count + 1, "Adam: step \(step) recorded after \(firstStep + constants.count)")
        constants.append(stepConstants)
    }

    func constants(ofStep step: Int) -> StepConstants { constants[step - firstStep - 1] }

    /// Starts tracking parameter `index` (`rowCount` rows) with every row current through step
    /// `step`; does nothing when it is tracked already.
    mutating func track(parameter index: Int, rowCount: Int, currentThrough step: Int) {
        if stepsTaken[index] == nil { stepsTaken[index] = [Int](repeating: step, count: rowCount) }
    }

    /// The steps row `row` of parameter `index` has taken; nil when the parameter is not tracked.
    func stepsTaken(row: Int, of index: Int) -> Int? { stepsTaken[index]?[row] }

    /// The number of rows of parameter `index` (0 when it is not tracked).
    func rowCount(of index: Int) -> Int { stepsTaken[index]?.count ?? 0 }

    /// Stops tracking parameter `index` (every row current: it is about to step whole).
    mutating func untrack(parameter index: Int) {
        stepsTaken[index] = nil
    }

    mutating func markCurrent(_ rows: some Sequence<Int>, of index: Int, through step: Int) {
        guard stepsTaken[index] != nil else { return }
        for row in rows { stepsTaken[index]?[row] = step }
    }
}

extension AdamOptimizer {
    /// Whether weight decay shrinks parameter `index` (decoupled decay, and the parameter in the decay group).
    func shrinks(parameter index: Int) -> Bool {
        decoupledWeightDecay && (decayedParameters?[index] ?? true)
    }

    /// Takes, for each of `rows` (distinct) of parameter `index`, the steps it was put off, through
    /// step `target`: with the moments when `hadMoments[row]`, else the weight decay alone (its
    /// moments are zero, so Adam's update there is the shrinking, bit for bit). Rows split over the
    /// threads; each is read and written once whatever the number of steps.
    func catchUp(_ rows: [Int], of index: Int, _ buffers: RowBuffers, hadMoments: [Bool], through target: Int) {
        guard !rows.isEmpty else { return }
        let width = buffers.width, (beta1, beta2, epsilon) = (beta1, beta2, epsilon)
        let decays = shrinks(parameter: index), record = deferredRowSteps, scale = learningRateScales?[index] ?? 1
        // The put-off steps had no gradient: the kernel reads this zero row in its place.
        let zeros = [Float](repeating: 0, count: width)
        zeros.withUnsafeBufferPointer { zeros in
            guard let zeroRow = zeros.baseAddress else { return }
            Kernels.forEachRowChunk(rowCount: rows.count, rowLength: width, chunksPerThread: 4) { chunk in
                for row in rows[chunk] {
                    guard let taken = record.stepsTaken(row: row, of: index), taken < target else { continue }
                    let start = row * width
                    let p = buffers.parameters + start, m = buffers.first + start, v = buffers.second + start
                    for step in (taken + 1)...target {
                        let constants = record.constants(ofStep: step).scaled(by: scale)
                        let shrink = decays ? constants.shrink : 1
                        if hadMoments[row] {
                            nlukit_adam_step(p, zeroRow, m, v, width, beta1, beta2, constants.stepSize, constants.correction2,
                                             epsilon, 0, shrink)
                        } else if shrink != 1 {
                            for element in 0..<width { p[element] *= shrink }
                        }
                    }
                }
            }
        }
    }

    /// Takes the steps put off for rows `rows` of parameter `index` (``step(_:gradients:sparseRows:deferringIdleRows:)``
    /// with `deferringIdleRows`), so that they hold what the eager steps would have left: call it before
    /// reading those rows between steps. `values` is the parameter's first element, as passed to the
    /// steps. Rows outside the parameter and repeats are ignored.
    ///
    ///     optimizer.catchUpDeferredRows(batchTokenIDs, ofParameter: 0, in: table)
    public func catchUpDeferredRows(_ rows: some Sequence<Int>, ofParameter index: Int, in values: UnsafeMutablePointer<Float>) {
        let rowCount = deferredRowSteps.rowCount(of: index)
        guard rowCount > 0, let hadMoments = rowsWithMomentsByParameter[index] else { return }
        var seen = Set<Int>()
        let behind = rows.filter { row in
            (0..<rowCount).contains(row) && seen.insert(row).inserted
                && (deferredRowSteps.stepsTaken(row: row, of: index) ?? storedStep) < storedStep
        }
        guard !behind.isEmpty else { return }
        withMomentsMovedOut { first, second in
            first[index].withUnsafeMutableBufferPointer { m in
                second[index].withUnsafeMutableBufferPointer { v in
                    guard let mBase = m.baseAddress, let vBase = v.baseAddress else { return }
                    let buffers = RowBuffers(parameters: values, first: mBase, second: vBase, width: m.count / rowCount)
                    catchUp(behind, of: index, buffers, hadMoments: hadMoments, through: storedStep)
                }
            }
        }
        deferredRowSteps.markCurrent(behind, of: index, through: storedStep)
    }

    /// Takes every step put off for parameter `index` (see ``catchUpDeferredRows(_:ofParameter:in:)``):
    /// before the parameter is read whole (saved, evaluated elsewhere, copied out).
    public func catchUpAllDeferredRows(ofParameter index: Int, in values: UnsafeMutablePointer<Float>) {
        catchUpDeferredRows(0..<deferredRowSteps.rowCount(of: index), ofParameter: index, in: values)
    }

    /// The stored state with the moments of rows that are behind brought to the current step (the
    /// eager optimizer's moments: with no gradient they only decay, whatever the parameter holds).
    func stateWithDeferredRowsCaughtUp() -> State {
        var state = storedState
        for index in deferredRowSteps.parameterIndices {
            let rowCount = deferredRowSteps.rowCount(of: index)
            guard rowCount > 0, let hadMoments = rowsWithMomentsByParameter[index], index < state.firstMoments.count else { continue }
            let behind = (0..<rowCount).filter { hadMoments[$0] && (deferredRowSteps.stepsTaken(row: $0, of: index) ?? state.step) < state.step }
            guard !behind.isEmpty else { continue }
            let width = state.firstMoments[index].count / rowCount
            // The parameters' rows are not ours to read here: a scratch table takes the updates, the
            // moments (which do not depend on them without an L2 term) are what this returns.
            var scratch = [Float](repeating: 0, count: width * rowCount)
            var first = state.firstMoments[index], second = state.secondMoments[index]
            scratch.withUnsafeMutableBufferPointer { p in
                first.withUnsafeMutableBufferPointer { m in
                    second.withUnsafeMutableBufferPointer { v in
                        guard let pBase = p.baseAddress, let mBase = m.baseAddress, let vBase = v.baseAddress else { return }
                        catchUp(behind, of: index, RowBuffers(parameters: pBase, first: mBase, second: vBase, width: width),
                                hadMoments: hadMoments, through: state.step)
                    }
                }
            }
            state.firstMoments[index] = first
            state.secondMoments[index] = second
        }
        return state
    }
}

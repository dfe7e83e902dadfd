import CKernels

/// Two stacked recurrent layers run at the same time, one per thread, the upper layer a step
/// behind the lower one (a wavefront), instead of one after the other.
///
/// Layer by layer, each step is a small product (32 × 256 × 1024 in a character model) split over
/// the threads, then the cell's element-wise pass on one thread while the other waits; between the
/// two layers' loops sits a whole-sequence GEMM (the upper layer's input projection forward, the
/// lower layer's output gradient backward). Pipelined, each thread runs one layer's steps whole and
/// the product between the layers is done step by step, half of its columns on each thread, so
/// that both threads have the same work:
///
/// - forward, task 0 runs the lower layer's step t, then the first half of the upper layer's input
///   projection of step t; task 1 waits for that, runs the second half and the upper layer's step t;
/// - backward, task 0 runs the upper layer's step t, then the first half of its d(input) of step t
///   (the lower layer's output gradient); task 1 waits, runs the second half and the lower layer's step t.
///
/// Data flows one way, from task 0 to task 1, so a job run on one thread (task 0, then task 1: a
/// single-threaded pool, or a call from inside another job) computes exactly the same. Each output
/// element is summed in the same order whoever computes it, so results do not depend on the thread count.
enum RecurrentPipeline {
    /// How ``RecurrentDriver`` runs stacked layers.
    enum Schedule: Sendable {
        /// Pipelined on one or two threads with the packed per-step products (batch > 1); layer by
        /// layer on more threads, where a pipeline would leave all but two idle.
        case automatic
        case layerByLayer
        case pipelined

        func pipelines(batch: Int) -> Bool {
            switch self {
            case .layerByLayer: false
            case .pipelined: true
            case .automatic: batch > 1 && RecurrentMath.usePackedWeights && Kernels.threadCount <= 2
            }
        }
    }

    /// The forward pass of `lower` and `upper` over all steps. The upper layer's `input` is the
    /// lower layer's output: its `hidden[1...]`, or with `upperMask` (inter-layer dropout) a buffer
    /// this fills step by step with `hidden[t + 1] ∘ mask[t]`.
    static func forward(cell: RecurrentCell, lower: RecurrentDriver.LayerForward, upper: RecurrentDriver.LayerForward,
                        upperMask: UnsafePointer<Float>?) {
        let steps = lower.steps, batch = lower.batch, stepSize = batch * lower.hiddenSize
        let width = cell.gateCount * upper.hiddenSize
        precondition(upper.steps == steps && upper.batch == batch && upper.inputSize == lower.hiddenSize,
                     "pipelined layers do not stack")
        let lowerInputs = lower.projectInputs(gateWidth: width, addingHiddenBias: cell.inputProjectionAddsHiddenBias)
        // x W_ihᵀ + the biases, written by the product's epilogue (adding into gates filled with the
        // biases beforehand read 13 MB back from memory, step by step).
        let bias = UnsafeMutablePointer<Float>.allocate(capacity: max(1, width))
        defer { bias.deallocate() }
        RecurrentMath.fillRows(bias, rows: 1, columns: width, with: upper.inputBias,
                               plus: cell.inputProjectionAddsHiddenBias ? upper.hiddenBias : nil)
        // The input projection, step by step.
        let projection = PackedMatrix(weight: upper.inputWeight, rows: width, columns: upper.inputSize, transposed: true)
        let halves = [0..<(projection.panels / 2), (projection.panels / 2)..<projection.panels]
        let lowerSteps = cell.forwardSteps(lower), upperSteps = cell.forwardSteps(upper)
        let upperInput = UnsafeMutablePointer(mutating: upper.input)
        withProgressCounter { progress in
            Kernels.parallelFor(2) { task in
                for step in 0..<steps {
                    let input = upper.input + step * stepSize, gates = upper.gates + step * batch * width
                    if task == 0 {
                        lowerInputs.fill(step: step)
                        lowerSteps.run(step: step)
                        if let upperMask {
                            let output = lower.hidden + (step + 1) * stepSize, mask = upperMask + step * stepSize
                            for index in 0..<stepSize { upperInput[step * stepSize + index] = output[index] * mask[index] }
                        }
                        projection.multiplySerial(input, rows: batch, into: gates, accumulate: false, bias: bias, panels: halves[0])
                        nlukit_progress_store(progress, step + 1)
                    } else {
                        nlukit_progress_wait(progress, step + 1)
                        projection.multiplySerial(input, rows: batch, into: gates, accumulate: false, bias: bias, panels: halves[1])
                        upperSteps.run(step: step)
                    }
                }
            }
        }
        withExtendedLifetime((lowerInputs, lowerSteps, upperSteps, projection)) {}
    }

    /// The backward pass of `upper` and `lower` over all steps, then their parameter gradients.
    /// The upper layer's d(input) is the lower layer's output gradient (the same buffer), times
    /// `upperMask` when the forward pass applied inter-layer dropout.
    static func backward(cell: RecurrentCell, upper: (RecurrentDriver.LayerForward, RecurrentDriver.LayerBackward),
                         lower: (RecurrentDriver.LayerForward, RecurrentDriver.LayerBackward), upperMask: UnsafePointer<Float>?) {
        let (upperForward, upperGradient) = upper
        let steps = upperForward.steps, batch = upperForward.batch, inputSize = upperForward.inputSize
        let width = cell.gateCount * upperForward.hiddenSize, stepSize = batch * inputSize
        precondition(upperGradient.inputGradient == lower.1.outputGradient && lower.0.hiddenSize == inputSize,
                     "pipelined layers do not stack")
        // d(input gates) W_ih, step by step.
        let inputGradient = PackedMatrix(weight: upperForward.inputWeight, rows: width, columns: inputSize, transposed: false)
        let halves = [0..<(inputGradient.panels / 2), (inputGradient.panels / 2)..<inputGradient.panels]
        let upperSteps = cell.backwardSteps(upperForward, upperGradient), lowerSteps = cell.backwardSteps(lower.0, lower.1)
        withProgressCounter { progress in
            Kernels.parallelFor(2) { task in
                for (done, step) in (0..<steps).reversed().enumerated() {
                    if task == 0 {
                        upperSteps.run(step: step)
                    } else {
                        nlukit_progress_wait(progress, done + 1)
                    }
                    let output = upperGradient.inputGradient + step * stepSize
                    inputGradient.multiplySerial(upperSteps.inputGateGradients(step: step), rows: batch, into: output,
                                                 accumulate: false, panels: halves[task])
                    if let upperMask {
                        let columns = inputGradient.columns(ofPanels: halves[task]), mask = upperMask + step * stepSize
                        for row in 0..<batch {
                            for column in columns { output[row * inputSize + column] *= mask[row * inputSize + column] }
                        }
                    }
                    if task == 0 {
                        nlukit_progress_store(progress, done + 1)
                    } else {
                        lowerSteps.run(step: step)
                    }
                }
            }
        }
        upperSteps.finish(writingInputGradient: false)
        lowerSteps.finish(writingInputGradient: true)
    }

    /// A zeroed step counter for one pipelined job.
    private static func withProgressCounter(_ body: (UnsafeMutablePointer<Int>) -> Void) {
        let progress = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        progress.initialize(to: 0)
        defer { progress.deallocate() }
        body(progress)
    }
}

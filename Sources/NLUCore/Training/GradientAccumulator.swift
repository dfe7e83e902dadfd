/// Gradient accumulation as Hugging Face `Trainer` (transformers 4.57) does it: each epoch's micro-batches
/// form groups of `accumulationSteps` (the last group of an epoch takes what is left, so it may be
/// shorter); each micro-batch's loss is divided by the size of its group, the gradients add up, and one
/// optimizer step (after clipping) ends each group. So a group's step sees the mean of its micro-batches'
/// gradients, and an epoch has ⌈batchesPerEpoch / accumulationSteps⌉ optimizer steps.
///
/// Hand ``add(_:)`` the gradients of each micro-batch's own (unscaled, mean) loss, in order; it divides
/// them as Trainer divides the loss, and returns the group's gradients when the group is complete.
///
///     var accumulator = try GradientAccumulator(accumulationSteps: 4, batchesPerEpoch: batches.count)
///     for batch in batches {
///         let (loss, gradients) = lossAndGradients(batch)
///         reportedLoss += loss * accumulator.lossScale        // Trainer's logged loss
///         if var summed = accumulator.add(gradients) {
///             GradientClipping.clipByGlobalNorm(&summed, maxNorm: 1)
///             adamW.step(&parameters, gradients: summed)
///         }
///     }
public struct GradientAccumulator: Sendable {
    /// Micro-batches per optimizer step (Trainer's `gradient_accumulation_steps`).
    public let accumulationSteps: Int
    /// Micro-batches in one epoch.
    public let batchesPerEpoch: Int
    /// The position of the next micro-batch in its epoch.
    public private(set) var batchInEpoch = 0
    private var sum: [Tensor<Float>] = []

    /// Groups of `accumulationSteps` micro-batches out of epochs of `batchesPerEpoch`.
    /// - Throws: ``TrainingSettingError`` when `accumulationSteps` or `batchesPerEpoch` is below 1.
    public init(accumulationSteps: Int, batchesPerEpoch: Int) throws {
        guard accumulationSteps >= 1 else {
            throw TrainingSettingError(setting: "accumulationSteps", value: "\(accumulationSteps)", requirement: "≥ 1")
        }
        guard batchesPerEpoch >= 1 else {
            throw TrainingSettingError(setting: "batchesPerEpoch", value: "\(batchesPerEpoch)", requirement: "≥ 1")
        }
        self.accumulationSteps = accumulationSteps
        self.batchesPerEpoch = batchesPerEpoch
    }

    /// Optimizer steps per epoch: ⌈batchesPerEpoch / accumulationSteps⌉ (Trainer's `num_update_steps_per_epoch`).
    public var optimizerStepsPerEpoch: Int { (batchesPerEpoch + accumulationSteps - 1) / accumulationSteps }

    /// The number of micro-batches in the group of the next micro-batch.
    public var groupSize: Int {
        let group = batchInEpoch / accumulationSteps
        let remainder = batchesPerEpoch % accumulationSteps
        return group == optimizerStepsPerEpoch - 1 && remainder != 0 ? remainder : accumulationSteps
    }

    /// What Trainer multiplies the next micro-batch's loss by: 1 / ``groupSize``.
    public var lossScale: Float { 1 / Float(groupSize) }

    /// Adds the next micro-batch's gradients (of its own loss, unscaled; the same count and shapes every
    /// time), each divided by ``groupSize``. Returns the group's accumulated gradients when this
    /// micro-batch completes its group (time to clip and step), else nil.
    public mutating func add(_ gradients: [Tensor<Float>]) -> [Tensor<Float>]? {
        let divisor = Float(groupSize)
        if sum.isEmpty {
            sum = gradients  // copied on write below
            for index in sum.indices { sum[index].withUnsafeMutableBufferPointer { for i in $0.indices { $0[i] /= divisor } } }
        } else {
            precondition(gradients.count == sum.count, "GradientAccumulator: \(gradients.count) gradients after \(sum.count)")
            for index in sum.indices {
                precondition(gradients[index].shape == sum[index].shape,
                             "GradientAccumulator: gradient \(index) has shape \(gradients[index].shape), earlier \(sum[index].shape)")
                let gradient = gradients[index].contiguous()
                gradient.withUnsafeBufferPointer { g in
                    sum[index].withUnsafeMutableBufferPointer { s in
                        // Divided before adding, as autograd scales each micro-batch's gradient by 1/size.
                        for i in s.indices { s[i] += g[i] / divisor }
                    }
                }
            }
        }
        let groupEnds = (batchInEpoch + 1) % accumulationSteps == 0 || batchInEpoch + 1 == batchesPerEpoch
        batchInEpoch = (batchInEpoch + 1) % batchesPerEpoch
        guard groupEnds else { return nil }
        defer { sum = [] }
        return sum
    }
}

import NLUCore

/// The optimizer side of fine-tuning a ``TrainableEncoder`` with a task head, as Hugging Face Trainer
/// runs it, shared by every task trainer (intents, joint intents and slots, question answering): AdamW over
/// the encoder's parameters followed by the head's tensors, each micro-batch's loss scaled by the size of
/// its accumulation group, clipping by the global norm and the scheduled learning rate at each group's end,
/// and the counts a checkpoint keeps. A task trainer runs its own forward and backward between
/// ``beginMicroBatch()`` and ``endMicroBatch(loss:head:)``.
///
///     let steps = try FineTuningSteps(encoder: encoder, headParameterNames: ["classifier.weight", "classifier.bias"],
///                                     head: head.tensors, learningRate: 5e-5, schedule: schedule, batchesPerEpoch: 100)
///     steps.beginMicroBatch()
///     let (loss, gradients) = lossAndGradients(batch)
///     try steps.check(loss)
///     steps.addHeadGradients([gradients.weight, gradients.bias], times: steps.lossScale)
///     try encoder.backward(dHidden /* × steps.lossScale */, workspace: workspace)
///     if let step = steps.endMicroBatch(loss: loss, head: &head.tensors) { print(step.loss) }
///
/// A final class: it owns the optimizer's moments, which every step updates.
public final class FineTuningSteps {
    /// The encoder being fine-tuned.
    public let encoder: TrainableEncoder
    /// The learning rate at the peak of ``schedule``.
    public let learningRate: Float
    /// Trainer's `max_grad_norm`: the global gradient norm is clipped to it before each update.
    public let maxGradientNorm: Float
    /// The learning rate over the optimizer steps.
    public let schedule: LinearWarmupSchedule
    /// Optimizer steps taken so far.
    public private(set) var optimizerSteps = 0
    /// Micro-batches seen so far.
    public private(set) var microBatches = 0
    /// The heads' parameter names, in the order of their tensors.
    public let headParameterNames: [String]
    /// The encoder's parameter names then the heads': the order of the optimizer's moments.
    public var parameterNames: [String] { encoder.parameters.names + headParameterNames }
    /// The head's gradients of the current accumulation group, in the order of its tensors.
    public private(set) var headGradients: [Tensor<Float>]

    private let optimizer: AdamOptimizer
    private var accumulator: GradientAccumulator
    /// The loss of the current accumulation group so far, as Trainer logs it.
    private var groupLoss: Float = 0

    /// The steps of a run over `encoder` and a head of the tensors `head` (their shapes; `headParameterNames`
    /// name them, for weight decay: none on biases and LayerNorm). `schedule` counts optimizer steps (one per
    /// `accumulationSteps` micro-batches; epochs are `batchesPerEpoch` micro-batches, and the last group of an
    /// epoch may be shorter, as in Trainer). `headLearningRate` is the head's peak rate (nil: `learningRate`),
    /// on the same schedule: a PyTorch parameter group of its own `lr`.
    /// - Throws: ``TrainingSettingError`` naming the setting for a learning rate, weight decay or maximum
    ///   gradient norm that is negative or not finite (the norm must be above 0), a head learning rate that
    ///   is not a finite number above 0, or accumulation steps or batches per epoch below 1.
    public init(encoder: TrainableEncoder, headParameterNames: [String], head: [Tensor<Float>], learningRate: Float,
                weightDecay: Float = 0, maxGradientNorm: Float = 1, schedule: LinearWarmupSchedule,
                accumulationSteps: Int = 1, batchesPerEpoch: Int, headLearningRate: Float? = nil) throws {
        precondition(headParameterNames.count == head.count,
                     "FineTuningSteps: \(headParameterNames.count) head parameter names for \(head.count) tensors")
        guard maxGradientNorm.isFinite, maxGradientNorm > 0 else {
            throw TrainingSettingError(setting: "maxGradientNorm", value: "\(maxGradientNorm)", requirement: "a finite number > 0")
        }
        let encoderCount = encoder.parameters.names.count
        var scales: [Float]?
        if let headLearningRate, headLearningRate != learningRate, learningRate > 0 {
            scales = [Float](repeating: 1, count: encoderCount) + [Float](repeating: headLearningRate / learningRate, count: head.count)
        }
        optimizer = try AdamOptimizer.trainerAdamW(parameterNames: encoder.parameters.names + headParameterNames, learningRate: learningRate,
                                                   weightDecay: weightDecay, learningRateScales: scales)
        accumulator = try GradientAccumulator(accumulationSteps: accumulationSteps, batchesPerEpoch: batchesPerEpoch)
        self.encoder = encoder
        self.headParameterNames = headParameterNames
        self.learningRate = learningRate
        self.maxGradientNorm = maxGradientNorm
        self.schedule = schedule
        headGradients = head.map { Tensor(shape: $0.shape) }
    }

    /// Micro-batches in one epoch.
    public var batchesPerEpoch: Int { accumulator.batchesPerEpoch }

    /// What the current micro-batch's loss and gradients are multiplied by: 1 / the size of its group, as
    /// Trainer divides each micro-batch's loss before backward.
    public var lossScale: Float { accumulator.lossScale }

    /// AdamW's moments and step count (empty before the first step): what a checkpoint keeps.
    public var optimizerState: AdamOptimizer.State { optimizer.state }

    /// Starts a micro-batch: the first of its accumulation group zeroes the encoder's and the head's gradients.
    public func beginMicroBatch() {
        if accumulator.batchInEpoch % accumulator.accumulationSteps == 0 {
            zeroGradients()
            groupLoss = 0
        }
    }

    /// Zeroes the encoder's and the head's gradients (a new group; or gradients of one batch alone).
    public func zeroGradients() {
        encoder.zeroGradients()
        for index in headGradients.indices { headGradients[index].withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
    }

    /// Refuses a micro-batch whose loss is not finite, before anything is updated by it.
    /// - Throws: ``TrainingDivergedError`` with the epoch and the learning rate of the coming step.
    public func check(_ loss: Float) throws {
        guard loss.isFinite else {
            throw TrainingDivergedError(epoch: microBatches / accumulator.batchesPerEpoch + 1, loss: loss,
                                        learningRate: schedule.learningRate(base: learningRate, step: optimizerSteps))
        }
    }

    /// Adds `scale` × `gradients` (the head's, in the order of its tensors; nil for a tensor without one
    /// this micro-batch) to the group's head gradients; a micro-batch of a run adds them at ``lossScale``.
    public func addHeadGradients(_ gradients: [Tensor<Float>?], times scale: Float) {
        precondition(gradients.count == headGradients.count,
                     "FineTuningSteps: \(gradients.count) head gradients for \(headGradients.count) tensors")
        for (index, gradient) in gradients.enumerated() {
            guard let gradient else { continue }
            gradient.withUnsafeBufferPointer { source in
                headGradients[index].withUnsafeMutableBufferPointer { target in
                    for i in target.indices { target[i] += source[i] * scale }
                }
            }
        }
    }

    /// Ends a micro-batch whose gradients (scaled by ``lossScale``) are now in the encoder and
    /// ``headGradients``: the last of its group clips them, updates the encoder and `head` (the tensors the
    /// head's gradients belong to, moved out of their owner and back) and returns the step taken.
    public func endMicroBatch(loss: Float, head: inout [Tensor<Float>]) -> FineTuningStep? {
        groupLoss += loss * lossScale
        microBatches += 1
        // The encoder and the head add their gradients up in place; the accumulator only counts the group.
        guard accumulator.add([]) != nil else { return nil }
        let rate = schedule.learningRate(base: learningRate, step: optimizerSteps)
        let norm = encoder.optimizerStep(optimizer, learningRate: rate, maxGradientNorm: maxGradientNorm,
                                         head: &head, headGradients: &headGradients)
        optimizerSteps += 1
        return FineTuningStep(step: optimizerSteps, loss: groupLoss, learningRate: rate, gradientNorm: norm)
    }

    /// Continues a run from a checkpoint taken at an epoch's end: the optimizer's moments, the steps and
    /// micro-batches done. The encoder and the head must already hold the checkpoint's weights.
    /// - Throws: ``TrainingSettingError`` (setting `resume`) when the moments do not fit the parameters
    ///   or the counts are not those of an epoch's end.
    public func resume(optimizerState: AdamOptimizer.State, optimizerSteps: Int, microBatches: Int) throws {
        let shapes = encoder.parameters.values.map(\.shape) + headGradients.map(\.shape)
        try Self.checkResumable(optimizerState, shapes: shapes, optimizerSteps: optimizerSteps, microBatches: microBatches,
                                batchesPerEpoch: accumulator.batchesPerEpoch)
        optimizer.state = optimizerState
        self.optimizerSteps = optimizerSteps
        self.microBatches = microBatches
    }

    /// Refuses an optimizer state that does not fit parameters of `shapes` (moments of other shapes or
    /// counts) or step and micro-batch counts that are not those of an epoch's end.
    /// - Throws: ``TrainingSettingError`` (setting `resume`).
    public static func checkResumable(_ state: AdamOptimizer.State, shapes: [[Int]], optimizerSteps: Int, microBatches: Int,
                                      batchesPerEpoch: Int) throws {
        let fits = { (moments: [Tensor<Float>]) in moments.isEmpty || moments.map(\.shape) == shapes }
        guard fits(state.firstMoments), fits(state.secondMoments), state.firstMoments.count == state.secondMoments.count,
              optimizerSteps >= 0, state.step == optimizerSteps, microBatches >= 0, batchesPerEpoch > 0,
              microBatches % batchesPerEpoch == 0 else {
            throw TrainingSettingError(setting: "resume", value: "optimizer state of \(state.firstMoments.count) tensors after \(optimizerSteps) steps and \(microBatches) batches",
                                       requirement: "the state of this model's \(shapes.count) parameters at the end of an epoch")
        }
    }
}

import NLUCore

/// A task trainer whose optimizer side is a ``FineTuningSteps`` (intents, joint intents and slots, question
/// answering): the settings, counts and checkpoint state every such trainer reports the same way.
public protocol FineTuningTrainer: AnyObject {
    /// The run's optimizer side.
    var steps: FineTuningSteps { get }
}

extension FineTuningTrainer {
    /// The learning rate at the peak of ``schedule``.
    public var learningRate: Float { steps.learningRate }
    /// Trainer's `max_grad_norm`: the global gradient norm is clipped to it before each update.
    public var maxGradientNorm: Float { steps.maxGradientNorm }
    /// The learning rate over the optimizer steps.
    public var schedule: LinearWarmupSchedule { steps.schedule }
    /// Optimizer steps taken so far.
    public var optimizerSteps: Int { steps.optimizerSteps }
    /// Micro-batches seen so far.
    public var microBatches: Int { steps.microBatches }
    /// AdamW's moments and step count (empty before the first step): what a checkpoint keeps.
    public var optimizerState: AdamOptimizer.State { steps.optimizerState }

    /// Continues a run from a checkpoint taken at an epoch's end (``FineTuningSteps/resume(optimizerState:optimizerSteps:microBatches:)``);
    /// the encoder and the head must already hold the checkpoint's weights.
    /// - Throws: ``TrainingSettingError`` (setting `resume`) when the moments do not fit the parameters or
    ///   the counts are not those of an epoch's end.
    public func resume(optimizerState: AdamOptimizer.State, optimizerSteps: Int, microBatches: Int) throws {
        try steps.resume(optimizerState: optimizerState, optimizerSteps: optimizerSteps, microBatches: microBatches)
    }
}

import NLUCore

/// A task trainer whose optimizer side is a ``FineTuningSteps`` (intents, joint intents and slots, question
/// answering): the settings, counts and checkpoint state every such trainer reports the same way.
public protocol FineTuningTrainer: TrainedWeights {
    /// The run's optimizer side.
    var steps: FineTuningSteps { get }
    /// The heads' tensors, in the order of ``FineTuningSteps/headParameterNames``; setting them replaces the
    /// heads' weights (``load(_:)`` checks the shapes first).
    var headTensors: [Tensor<Float>] { get set }
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

    /// The encoder's parameter names then the heads' (``FineTuningSteps/parameterNames``).
    public var weightNames: [String] { steps.parameterNames }

    /// Every weight the run trains, the encoder's then the heads' (``weightNames`` order): a value that later
    /// steps do not change (the tensors are copied on their next write).
    public var weights: [Tensor<Float>] { steps.encoder.parameters.values + headTensors }

    /// Puts back weights taken from ``weights`` (an earlier epoch's, for Trainer's `load_best_model_at_end`).
    /// - Throws: ``TrainingSettingError`` (setting `weights`) naming the first tensor whose shape is not
    ///   this run's, or a count that is not its parameters'.
    public func load(_ weights: [Tensor<Float>]) throws {
        try check(weights, shapes: steps.encoder.parameters.shapes + headTensors.map(\.shape))
        let encoderCount = steps.encoder.parameters.names.count
        steps.encoder.parameters.values = Array(weights[..<encoderCount])
        headTensors = Array(weights[encoderCount...])
    }
}

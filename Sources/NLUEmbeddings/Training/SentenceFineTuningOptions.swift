import NLUCore
import NLUTransformers

/// The settings of ``SentenceEncoderFineTuner``, with sentence-transformers' training recipe as
/// defaults (its model cards' `SentenceTransformerTrainingArguments`: 1 epoch, batches of 16, learning
/// rate 2e-5, 10 % warm-up; weight decay 0.01 and clipping at norm 1 as its `fit` sets them; dropout 0.1
/// as the model's config). Every value is checked by ``validate()`` before training, and an error
/// names the option.
///
///     var options = SentenceFineTuningOptions()
///     options.epochs = 3
///     options.loss = .cosineSimilarity
///     try options.validate()
public struct SentenceFineTuningOptions: Sendable, Equatable {
    /// The loss; nil: from the pairs file's shape (anchor/positive → ranking loss, scored pairs → cosine).
    public var loss: SentenceTrainingLoss?
    /// Passes over the pairs (1 ... 1000).
    public var epochs = 1
    /// Examples per batch (1 ... 4096); with the ranking loss, the other examples of a batch are each
    /// anchor's negatives, so larger batches teach more (at least 2 needed).
    public var batchSize = 16
    /// The peak learning rate, after warm-up (above 0, at most 1).
    public var learningRate: Float = 2e-5
    /// The share of optimizer steps over which the rate rises from 0 (0 ... 1).
    public var warmupRatio: Double = 0.1
    /// AdamW's decoupled weight decay, on every weight but biases and layer norms (0 ... 1).
    public var weightDecay: Float = 0.01
    /// Gradients are clipped to this global norm before each update (above 0).
    public var maxGradientNorm: Float = 1
    /// Seeds the batch order and dropout: one seed, one run.
    public var seed: UInt64 = 42
    /// Tokens per text, `[CLS]` and `[SEP]` included; nil: the model's `max_seq_length` (3 ... the
    /// model's positions). Longer texts are cut, as sentence-transformers cuts them.
    public var maxSequenceLength: Int?
    /// The probability of dropout in the encoder's hidden states and attention (0 ..< 1).
    public var dropout: Float = 0.1
    /// The validation score that picks the epoch written (sentence-transformers' `save_best_model`): after each
    /// epoch's evaluation the weights are kept when the score beats every earlier epoch's, and the best are
    /// written at the end. Needs validation pairs of its shape; nil: the last epoch.
    public var keepBest: SentenceFineTuningMetric?
    /// With ``keepBest``: epochs in a row without improvement after which the run stops (1 ... 1000); nil:
    /// every epoch runs.
    public var earlyStoppingPatience: Int?

    /// The defaults.
    public init() {}

    /// Throws for the first option outside its range.
    /// - Throws: ``TrainingSettingError`` naming the option, its value and the range.
    public func validate() throws {
        try OptimizationSettings.validate(
            epochs: epochs, batchSize: batchSize, learningRate: learningRate, usualLearningRate: "2e-5", warmupRatio: warmupRatio,
            weightDecay: weightDecay, maxGradientNorm: maxGradientNorm, accumulationSteps: nil, dropout: dropout,
            maxSequenceLength: maxSequenceLength)
        if case .multipleNegativesRanking(let scale) = loss {
            try OptimizationSettings.check(scale.isFinite && scale > 0 && scale <= 1000, "scale", "\(scale)",
                                           "above 0 and at most 1000 (20 is sentence-transformers' default)")
        }
        try BestEpochKeeper.validate(patience: earlyStoppingPatience, hasScore: keepBest != nil)
    }
}

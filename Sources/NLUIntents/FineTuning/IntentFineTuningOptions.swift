import NLUCore
import NLUTransformers

/// The settings of ``IntentFineTuner``, with Hugging Face `Trainer`'s defaults where it has them
/// (learning rate 5e-5, AdamW, max gradient norm 1, linear decay) and the intent recipe's elsewhere
/// (3 epochs, batches of 16, 10 % warm-up, weight decay 0.01, dropout 0.1, the head at 1e-2). Every value is checked
/// by ``validate()`` before training, and an error names the option.
///
///     var options = IntentFineTuningOptions()
///     options.epochs = 5
///     options.learningRate = 3e-5
///     try options.validate()
public struct IntentFineTuningOptions: Codable, Sendable, Equatable {
    /// Passes over the training utterances (1 ... 1000).
    public var epochs = 3
    /// Utterances per micro-batch (1 ... 4096).
    public var batchSize = 16
    /// The peak learning rate, after warm-up (above 0, at most 1).
    public var learningRate: Float = 5e-5
    /// The peak learning rate of the new heads (intent, slots, CRF transitions), on the same schedule
    /// (above 0, at most 1); nil: ``learningRate``. A head starts from random weights under a
    /// pretrained encoder, and learns in fewer steps at a higher rate (SetFit's `head_learning_rate`):
    /// HWU64 with all-MiniLM-L6-v2, 3 epochs, the head at 5e-5 / 1e-3 / 1e-2: 50.0 / 70.3 / 84.4 % at
    /// 10 examples per intent, 91.2 / - / 91.6 % on the full set (docs/intents.md).
    public var headLearningRate: Float? = 1e-2
    /// The share of optimizer steps over which the rate rises from 0 (0 ... 1).
    public var warmupRatio: Double = 0.1
    /// AdamW's decoupled weight decay, on every weight but biases and layer norms (0 ... 1).
    public var weightDecay: Float = 0.01
    /// Gradients are clipped to this global norm before each update (above 0).
    public var maxGradientNorm: Float = 1
    /// Micro-batches whose gradients add up into one optimizer step (1 ... 1024).
    public var accumulationSteps = 1
    /// Seeds the head's initial weights, the batch order and dropout: one seed, one run.
    public var seed: UInt64 = 42
    /// Tokens per utterance, `[CLS]` and `[SEP]` included; nil: the checkpoint's own limit. Longer
    /// utterances are cut, as sentence-transformers cuts them (3 ... the checkpoint's positions).
    public var maxSequenceLength: Int?
    /// The probability of dropout in the encoder's hidden states and attention (0 ..< 1).
    public var dropout: Float = 0.1
    /// Label smoothing of the intent loss, as Trainer's `label_smoothing_factor` (0 ..< 1; nil or 0: none):
    /// the target puts `1 − ε` on the utterance's intent and `ε / intents` on every intent, so the head is
    /// not pushed towards infinite logits on a few examples. Held-out losses are scored without it.
    public var labelSmoothing: Float?
    /// The held-out score that picks the epoch the run keeps, as Trainer's `load_best_model_at_end` with
    /// `metric_for_best_model`: after each epoch's validation the weights are kept when the score beats
    /// every earlier epoch's, and put back at the end. Needs validation utterances; nil: the last epoch.
    public var keepBest: FineTuningMetric?
    /// With ``keepBest``: epochs in a row without improvement after which the run stops, as
    /// `EarlyStoppingCallback`'s `early_stopping_patience` (1 ... 1000); nil: every epoch runs.
    public var earlyStoppingPatience: Int?

    /// The defaults.
    public init() {}

    /// Throws for the first option outside its range.
    /// - Throws: ``TrainingSettingError`` naming the option, its value and the range.
    public func validate() throws {
        try OptimizationSettings.validate(
            epochs: epochs, batchSize: batchSize, learningRate: learningRate, usualLearningRate: "5e-5", warmupRatio: warmupRatio,
            weightDecay: weightDecay, maxGradientNorm: maxGradientNorm, accumulationSteps: accumulationSteps, dropout: dropout,
            maxSequenceLength: maxSequenceLength)
        if let headLearningRate {
            try OptimizationSettings.check(headLearningRate.isFinite && headLearningRate > 0 && headLearningRate <= 1, "headLearningRate",
                                           "\(headLearningRate)", "a number above 0 and at most 1 (1e-3 is the usual choice)")
        }
        try BestEpochKeeper.validate(patience: earlyStoppingPatience, hasScore: keepBest != nil)
        try Self.checkLabelSmoothing(labelSmoothing ?? 0)
    }

    /// Throws unless `value` is a label smoothing `CrossEntropyLoss` takes: 0 ..< 1.
    static func checkLabelSmoothing(_ value: Float) throws {
        try OptimizationSettings.check(value.isFinite && value >= 0 && value < 1, "labelSmoothing", "\(value)",
                                       "a number from 0 up to, not including, 1 (0.1 is the usual choice)")
    }
}

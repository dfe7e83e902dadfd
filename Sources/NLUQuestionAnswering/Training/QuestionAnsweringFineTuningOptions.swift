import NLUCore
import NLUTransformers

/// The settings of ``QuestionAnsweringFineTuner``, with the defaults of transformers' `run_qa` README recipe
/// (2 epochs, batches of 12 windows, learning rate 3e-5, windows of 384 tokens overlapping by 128) and
/// Trainer's elsewhere (no warm-up, no weight decay, max gradient norm 1, linear decay, BERT's dropout
/// 0.1). Every value is checked by ``validate()`` before training, and an error names the option.
///
///     var options = QuestionAnsweringFineTuningOptions()
///     options.epochs = 3
///     options.maxSequenceLength = 256
///     try options.validate()
public struct QuestionAnsweringFineTuningOptions: Sendable, Equatable {
    /// Passes over the training windows (1 ... 1000).
    public var epochs = 2
    /// Windows per micro-batch (1 ... 4096).
    public var batchSize = 12
    /// The peak learning rate, after warm-up (above 0, at most 1).
    public var learningRate: Float = 3e-5
    /// The share of optimizer steps over which the rate rises from 0 (0 ... 1).
    public var warmupRatio: Double = 0
    /// AdamW's decoupled weight decay, on every weight but biases and layer norms (0 ... 1).
    public var weightDecay: Float = 0
    /// Gradients are clipped to this global norm before each update (above 0).
    public var maxGradientNorm: Float = 1
    /// Micro-batches whose gradients add up into one optimizer step (1 ... 1024).
    public var accumulationSteps = 1
    /// Seeds a new head's initial weights, the batch order and dropout: one seed, one run.
    public var seed: UInt64 = 42
    /// Tokens per window, special tokens included (run_qa's `max_seq_length`; 8 ... the checkpoint's positions).
    public var maxSequenceLength = 384
    /// Tokens of context shared by consecutive windows of a long context (run_qa's `doc_stride`; 0 ...
    /// below what a window leaves for the context).
    public var documentStride = 128
    /// The probability of dropout in the encoder's hidden states and attention (0 ..< 1).
    public var dropout: Float = 0.1
    /// Whether questions may have no answer (SQuAD 2.0; run_qa's `version_2_with_negative`); nil: when the file
    /// says it is SQuAD 2.0 (``SQuADDataset/isVersion2``).
    public var allowsUnanswerable: Bool?
    /// Refuse a dataset whose answers' texts are not the context's at `answer_start`, instead of skipping
    /// those questions.
    public var strict = false
    /// The validation score that picks the epoch the run keeps, as Trainer's `load_best_model_at_end` with
    /// `metric_for_best_model`: after each epoch's validation the weights are kept when the score beats every
    /// earlier epoch's, and put back at the end. Needs validation questions; nil: the last epoch.
    public var keepBest: Metric?
    /// With ``keepBest``: epochs in a row without improvement after which the run stops, as
    /// `EarlyStoppingCallback`'s `early_stopping_patience` (1 ... 1000); nil: every epoch runs.
    public var earlyStoppingPatience: Int?

    /// The validation scores ``keepBest`` can choose by (both higher is better).
    public enum Metric: String, Codable, Sendable, CaseIterable {
        /// Exact match (run_qa's `exact_match`).
        case exactMatch = "exact-match"
        /// Token F1 (run_qa's `f1`).
        case f1

        /// The score of `report`.
        public func score(_ report: SQuADEvaluation.Report) -> Double {
            switch self {
            case .exactMatch: report.exactMatch
            case .f1: report.f1
            }
        }
    }

    /// The defaults.
    public init() {}

    /// Throws for the first option outside its range.
    /// - Throws: ``TrainingSettingError`` naming the option, its value and the range.
    public func validate() throws {
        try OptimizationSettings.validate(
            epochs: epochs, batchSize: batchSize, learningRate: learningRate, usualLearningRate: "3e-5", warmupRatio: warmupRatio,
            weightDecay: weightDecay, maxGradientNorm: maxGradientNorm, accumulationSteps: accumulationSteps, dropout: dropout,
            maxSequenceLength: nil)
        try OptimizationSettings.check((8...1 << 20).contains(maxSequenceLength), "maxSequenceLength", "\(maxSequenceLength)",
                                       "between 8 and the checkpoint's positions")
        try OptimizationSettings.check(documentStride >= 0 && documentStride < maxSequenceLength, "documentStride", "\(documentStride)",
                                       "at least 0 and below the max sequence length \(maxSequenceLength)")
        try BestEpochKeeper.validate(patience: earlyStoppingPatience, hasScore: keepBest != nil)
    }
}

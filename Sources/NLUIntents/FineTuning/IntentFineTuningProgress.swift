/// Where a fine-tuning run stands, handed to ``IntentFineTuner``'s progress callback after every
/// optimizer step: enough for a progress line (epoch, step of total, loss, speed).
///
///     try tuner.train(dataset) { progress in
///         print("epoch \(progress.epoch) step \(progress.step)/\(progress.totalSteps) loss \(progress.loss)")
///     }
public struct IntentFineTuningProgress: Sendable, Equatable {
    /// What is being trained.
    public enum Stage: String, Sendable {
        /// The encoder with the softmax head (``IntentFineTuner``).
        case classifier
        /// Few-shot stage 1: the encoder on SetFit's contrastive pairs (``SetFitIntentTrainer``); a step is an optimizer step.
        case contrastive
        /// Few-shot stage 2, first part: the head's `C` chosen by cross-validation; a step is one fit of
        /// one `C` on one fold, `epoch` 1.
        case headSelection = "head-selection"
        /// Few-shot stage 2: the logistic-regression head; a step is an L-BFGS iteration, `epoch` 1.
        case head
    }

    /// The epoch under way, from 1.
    public var epoch: Int
    /// Optimizer steps taken, from 1.
    public var step: Int
    /// Optimizer steps of the whole run.
    public var totalSteps: Int
    /// The loss of the last step's micro-batches.
    public var loss: Float
    /// Training utterances processed per second of wall-clock time since the start.
    public var examplesPerSecond: Double
    /// The stage the step belongs to.
    public var stage: Stage = .classifier
}

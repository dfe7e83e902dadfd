import Foundation

/// What ``SentenceEncoderFineTuner`` reports while it trains: each optimizer step, the validation
/// pairs' scores after each epoch (when given), and each epoch whose checkpoint has been written.
///
///     try tuner.train(pairs, output: url) { event in
///         if case .step(let progress) = event { print("step \(progress.step)/\(progress.totalSteps) loss \(progress.loss)") }
///     }
public enum SentenceFineTuningEvent: Sendable, Equatable {
    /// Training starts: the examples, the loss, the optimizer steps of the whole run and, when
    /// resuming, the epochs already done.
    case started(examples: Int, loss: SentenceTrainingLoss, totalSteps: Int, epochsDone: Int)
    /// An optimizer step is done.
    case step(SentenceFineTuningProgress)
    /// An epoch's training is done and the validation pairs are scored (before its checkpoint is written).
    case evaluated(SentenceFineTuningEvaluation)
    /// An epoch is done and its checkpoint written to `checkpoint` (where `--resume` continues from).
    case epochFinished(epoch: Int, meanLoss: Float, checkpoint: URL)
}

/// Where a run stands after an optimizer step: enough for a progress line.
public struct SentenceFineTuningProgress: Sendable, Equatable {
    /// The epoch under way, from 1, and the run's epochs.
    public var epoch: Int
    public var epochs: Int
    /// Optimizer steps taken (from 1) and those of the whole run.
    public var step: Int
    public var totalSteps: Int
    /// The step's loss (before its update) and the learning rate it used.
    public var loss: Float
    public var learningRate: Float
    /// Examples per second of wall-clock time since this process started training.
    public var examplesPerSecond: Double
    /// The remaining steps at the pace so far.
    public var secondsLeft: Double
}

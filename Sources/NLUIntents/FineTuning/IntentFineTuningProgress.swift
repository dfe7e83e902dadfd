/// Where a fine-tuning run stands, handed to ``IntentFineTuner``'s progress callback after every
/// optimizer step: enough for a progress line (epoch, step of total, loss, speed).
///
///     try tuner.train(dataset) { progress in
///         print("epoch \(progress.epoch) step \(progress.step)/\(progress.totalSteps) loss \(progress.loss)")
///     }
public struct IntentFineTuningProgress: Sendable, Equatable {
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
}

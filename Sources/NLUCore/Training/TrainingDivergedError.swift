import Foundation

/// Training produced a non-finite loss (NaN or infinity), usually from too high a learning rate.
/// Trainers stop at once and save nothing, so a good model at the destination stays untouched.
///
///     guard loss.isFinite else { throw TrainingDivergedError(epoch: 1, loss: loss, learningRate: 1e30) }
public struct TrainingDivergedError: Error, Equatable, CustomStringConvertible, LocalizedError {
    public var epoch: Int
    public var loss: Float
    public var learningRate: Float

    public init(epoch: Int, loss: Float, learningRate: Float) {
        self.epoch = epoch
        self.loss = loss
        self.learningRate = learningRate
    }

    public var description: String {
        "training diverged in epoch \(epoch) (loss \(loss)); nothing was saved: lower the learning rate (now \(learningRate))"
    }
    public var errorDescription: String? { description }
}

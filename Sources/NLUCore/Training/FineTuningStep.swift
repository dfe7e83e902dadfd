/// One optimizer step of a fine-tuning run, as Hugging Face `Trainer` would log it: the step's
/// number, the loss of the micro-batches it gathered (each micro-batch's mean loss times 1 / the
/// size of its accumulation group, summed), the learning rate it used and the gradients' global
/// norm before clipping.
///
///     if let step = try trainer.train(batch, labels: labels).completedStep {
///         print("step \(step.step): loss \(step.loss), lr \(step.learningRate)")
///     }
public struct FineTuningStep: Sendable, Equatable {
    /// 1 for the first optimizer step.
    public var step: Int
    /// The loss over the step's micro-batches, computed before the update.
    public var loss: Float
    /// The learning rate of this update (after warm-up and decay).
    public var learningRate: Float
    /// The global L2 norm of all gradients before clipping.
    public var gradientNorm: Float

    /// A step record from its parts.
    public init(step: Int, loss: Float, learningRate: Float, gradientNorm: Float) {
        self.step = step
        self.loss = loss
        self.learningRate = learningRate
        self.gradientNorm = gradientNorm
    }
}

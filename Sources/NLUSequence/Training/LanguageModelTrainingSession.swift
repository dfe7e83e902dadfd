import NLUCore

/// One model being trained: Adam over all parameters, global-norm gradient clipping, dropout, and the
/// RNN state carried from one window to the next (truncated BPTT; gradients stop at window edges).
///
///     let session = LanguageModelTrainingSession(model: model, learningRate: 0.002)
///     for batch in TokenBatches(ids: ids, batchSize: 32, sequenceLength: 100) {
///         let loss = session.step(batch)
///     }
///     let trained = session.model
public final class LanguageModelTrainingSession {
    /// The model as trained so far.
    public private(set) var model: LanguageModel
    public let clipNorm: Float
    public let dropout: Float
    private let optimizer: AdamOptimizer
    private var generator: SplitMix64
    private var state: Tensor<Float>? = nil
    /// Steps taken.
    public private(set) var steps = 0

    public init(model: LanguageModel, learningRate: Float, clipNorm: Float = 5, dropout: Float = 0, seed: UInt64 = 0) {
        self.model = model
        self.clipNorm = clipNorm
        self.dropout = dropout
        self.optimizer = AdamOptimizer(learningRate: learningRate)
        self.generator = SplitMix64(seed: seed)
    }

    /// Adam's step count and moments (saved beside checkpoints so a resumed run continues exactly).
    public var optimizerState: AdamOptimizer.State {
        get { optimizer.state }
        set { optimizer.state = newValue }
    }

    /// Forgets the carried state (at the start of an epoch: the streams start over).
    public func resetState() { state = nil }

    /// One optimization step on `batch`; returns the batch's mean loss before the update.
    @discardableResult
    public func step(_ batch: LanguageModelBatch) -> Float {
        // A different number of streams (the last, shorter batch never changes it) starts a fresh state.
        if let current = state, current.shape[2] != batch.batch { state = nil }
        var (loss, gradients, finalState) = model.lossAndGradients(for: batch, initialState: state, dropout: dropout,
                                                                   generator: &generator)
        state = finalState
        GradientClipping.clipByGlobalNorm(&gradients, maxNorm: clipNorm)
        var parameters = model.parameters
        optimizer.step(&parameters, gradients: gradients)
        model.parameters = parameters
        steps += 1
        return loss
    }
}

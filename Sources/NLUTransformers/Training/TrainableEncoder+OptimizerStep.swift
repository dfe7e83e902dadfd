import NLUCore

/// What every task trainer on a ``TrainableEncoder`` does the same way: one optimizer step over the
/// encoder's parameters and its head's, and one workspace reused while the batch shape stays.
extension TrainableEncoder {
    /// Clips the encoder's gradients and `headGradients` together by their global norm, then takes one
    /// step of `optimizer` at `learningRate` over the encoder's parameters followed by `head` (the order
    /// the optimizer's parameter names were given in).
    /// - Returns: the global gradient norm before clipping.
    public func optimizerStep(_ optimizer: AdamOptimizer, learningRate: Float, maxGradientNorm: Float,
                              head: inout [Tensor<Float>], headGradients: inout [Tensor<Float>]) -> Float {
        // The word-embedding table's gradient has rows for the batch's tokens only: clipping and the
        // step read those. The table's other rows step later, when a batch reads them or the
        // parameters are read from outside (``defersIdleEmbeddingRows``; the same bits as stepping
        // them now, without reading the whole table at every step).
        let sparseRows = parameters.sparseGradientRows
        parameters.deferringOptimizer = defersIdleEmbeddingRows ? optimizer : nil
        return parameters.withTensorsMovedOut { values, gradients in
            // The head moved out of its owner too, so each tensor's storage stays uniquely referenced
            // and the optimizer updates it in place rather than copying it.
            let encoderCount = values.count
            values += head
            gradients += headGradients
            head = []
            headGradients = []
            let norm = GradientClipping.clipByGlobalNorm(&gradients, maxNorm: maxGradientNorm, sparseRows: sparseRows)
            optimizer.learningRate = learningRate
            optimizer.step(&values, gradients: gradients, sparseRows: sparseRows, deferringIdleRows: defersIdleEmbeddingRows)
            head = Array(values[encoderCount...])
            headGradients = Array(gradients[encoderCount...])
            values.removeLast(values.count - encoderCount)
            gradients.removeLast(gradients.count - encoderCount)
            return norm
        }
    }

    /// `cached` when it was made for `batch`'s shape, else a new workspace for it (stored in `cached`).
    public func workspace(reusing cached: inout EncoderTrainingWorkspace?, for batch: EncoderBatch) throws -> EncoderTrainingWorkspace {
        if let cached, cached.batchSize == batch.batchSize, cached.sequenceLength == batch.sequenceLength {
            return cached
        }
        // The previous buffers go first: two batches' activations at once could double the peak.
        cached = nil
        let made = try makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        cached = made
        return made
    }
}

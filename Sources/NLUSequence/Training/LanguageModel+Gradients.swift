import NLUCore

/// A training batch: `steps × batch` input ids and the ids to predict, time-major (`[t * batch + b]`).
public struct LanguageModelBatch: Sendable, Equatable {
    public var steps: Int
    public var batch: Int
    public var inputs: [Int32]
    public var targets: [Int32]

    public init(steps: Int, batch: Int, inputs: [Int32], targets: [Int32]) {
        precondition(inputs.count == steps * batch && targets.count == steps * batch, "batch needs steps × batch ids")
        self.steps = steps
        self.batch = batch
        self.inputs = inputs
        self.targets = targets
    }
}

extension LanguageModel {
    /// Every parameter in ``weightNames(for:)`` order: embedding, the RNN layers' tensors, decoder weight and bias.
    public var parameters: [Tensor<Float>] {
        get { [embedding] + rnn.layers.flatMap(\.tensors) + decoder.tensors }
        set {
            precondition(newValue.count == 3 + 4 * rnn.layers.count, "parameter count does not match the model")
            embedding = newValue[0]
            for index in rnn.layers.indices {
                rnn.layers[index].tensors = Array(newValue[(1 + 4 * index)..<(5 + 4 * index)])
            }
            decoder.tensors = Array(newValue.suffix(2))
        }
    }

    /// The mean cross-entropy of predicting `batch.targets` and its gradient for every parameter
    /// (in ``parameters`` order), with dropout `dropout` on the embeddings, between RNN layers and
    /// on the RNN output (PyTorch's word_language_model layout).
    ///
    /// - Parameter initialState: `[layers, components, batch, hidden]` (nil = zeros); truncated BPTT
    ///   carries the returned `finalState` into the next batch without back-propagating into it.
    public func lossAndGradients(for batch: LanguageModelBatch, initialState: Tensor<Float>? = nil, dropout: Float = 0,
                                 generator: inout SplitMix64)
        -> (loss: Float, gradients: [Tensor<Float>], finalState: Tensor<Float>) {
        let rows = batch.steps * batch.batch
        let hiddenSize = configuration.hiddenSize
        let vocabularySize = vocabulary.count

        // The RNN looks the tokens up (and applies the embedding dropout); ids out of range read as unknown.
        let ids = knownIDs(Tensor(shape: [batch.steps, batch.batch], scalars: batch.inputs))
        let (output, finalState, trace) = rnn.forwardForTraining(tokens: ids, embedding: embedding, initialState: initialState,
                                                                 dropout: dropout, generator: &generator)
        var features = output.reshaped([rows, hiddenSize])
        var outputMask: Tensor<Float>? = nil
        if dropout > 0 { (features, outputMask) = Dropout.apply(features, probability: dropout, generator: &generator) }
        let logits = Tensor(shape: [rows, vocabularySize], scalars: decode(features))
        let (loss, logitGradient) = SoftmaxCrossEntropy.lossAndGradient(logits: logits, targets: batch.targets)

        // Decoder: dW = dLogitsᵀ · features, db = Σ dLogits, dFeatures = dLogits · W.
        let decoderGradients = decoder.backward(input: features, outputGradient: logitGradient)
        var featureGradient = decoderGradients.input
        if let outputMask { Dropout.backward(&featureGradient, mask: outputMask) }

        // The RNN's input gradient is the embedding table's.
        let recurrent = rnn.backward(trace, outputGradient: featureGradient.reshaped([batch.steps, batch.batch, hiddenSize]))
        let embeddingGradient = recurrent.input
        let gradients = [embeddingGradient] + recurrent.layers.flatMap(\.tensors) + [decoderGradients.weight, decoderGradients.bias ?? Tensor(shape: [vocabularySize])]
        return (loss, gradients, finalState)
    }

    /// The mean cross-entropy of predicting `batch.targets` (no dropout, no gradients) and the final state.
    public func loss(for batch: LanguageModelBatch, initialState: Tensor<Float>? = nil) -> (loss: Float, finalState: Tensor<Float>) {
        let ids = Tensor<Int32>(shape: [batch.steps, batch.batch], scalars: batch.inputs)
        var (logProbabilities, finalState) = logits(for: ids, initialState: initialState)
        Kernels.logSoftmax(&logProbabilities)
        let count = vocabulary.count
        let total = logProbabilities.withUnsafeBufferPointer { values in
            batch.targets.enumerated().reduce(0.0) { $0 - Double(values[$1.offset * count + Int($1.element)]) }
        }
        return (Float(total / Double(max(1, batch.targets.count))), finalState)
    }
}

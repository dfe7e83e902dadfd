import Foundation
import NLUCore
import NLUInputOutput

/// A BERT-family encoder that can be fine-tuned: the forward pass of ``EncoderModel`` on weights
/// held as plain F32 tensors (``EncoderParameters``, under their Hugging Face names), keeping its
/// activations in an ``EncoderTrainingWorkspace``, and a backward pass that adds d(loss)/d(parameter)
/// for every parameter, given d(loss)/d(last hidden states). BERT, RoBERTa / XLM-R, DistilBERT and
/// MPNet checkpoints load as ``EncoderModel`` loads them; gradients match PyTorch autograd
/// (`Tests/Fixtures/training/encoder-gradients-*.json`).
///
/// The output covers every position, padding included, as `transformers` computes it; a loss that
/// ignores padding passes zeros there, or sets ``skipsTrailingPadding`` so that padding is not computed.
///
///     let encoder = try TrainableEncoder(checkpoint: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let workspace = try encoder.makeWorkspace(batchSize: 2, sequenceLength: 16)
///     encoder.zeroGradients()
///     let states = try encoder.forward(batch, workspace: workspace)        // [2, 16, hidden]
///     try encoder.backward(lossGradient, workspace: workspace)              // d(loss)/d(states)
///     optimizer.step(&encoder.parameters.values, gradients: encoder.parameters.gradients)
public final class TrainableEncoder {
    /// The checkpoint's hyper-parameters.
    public let configuration: BertConfiguration
    /// The weights and their gradients.
    public let parameters: EncoderParameters
    /// The dropout of the next forward passes; nil (the default) is none, as in evaluation.
    public var dropout: EncoderDropout?
    /// Whether the passes skip each sequence's trailing padding: false (the default) computes every
    /// position, as `transformers` does; true computes only the positions up to each sequence's last
    /// attended token (at least its first), leaves zeros in the output after them and ignores the
    /// output gradient there. Real positions come out the same either way (padding keys are masked),
    /// so for a loss that ignores the padding (pooling by the attention mask, labels on real tokens)
    /// the gradients are the same, and the work shrinks with the padding. A loss that reads padding
    /// positions (`transformers`' question-answering head, whose softmax spans them) needs false.
    public var skipsTrailingPadding = false
    /// Whether ``optimizerStep(_:learningRate:maxGradientNorm:head:headGradients:)`` puts off the
    /// AdamW step of word-embedding rows the batch did not use until a batch reads them (or the
    /// parameters are read), rather than reading and writing the whole table at every step: the same
    /// weights bit for bit (``AdamOptimizer/step(_:gradients:sparseRows:deferringIdleRows:)``). True
    /// by default; false for comparisons.
    public var defersIdleEmbeddingRows = true
    /// Draws the dropout masks; seeded at init so runs repeat.
    private var generator: SplitMix64
    let layout: TrainableEncoderLayout
    private let embeddings: TrainableEmbeddings
    private let blocks: [TrainableBlock]

    /// Loads `config.json` and `model.safetensors` from a checkpoint directory (any family
    /// ``EncoderModel`` reads), converting every tensor to F32; `dropoutSeed` seeds the dropout draws.
    /// With `ignoringTaskHead`, tensors the encoder does not use (a task model's head, such as
    /// `qa_outputs` of a `BertForQuestionAnswering`, which the task loads itself) are left unread;
    /// without it they are an error, as in ``EncoderModel``.
    /// - Throws: ``CheckpointError`` naming the file, field or tensor at fault.
    public convenience init(checkpoint: URL, ignoringTaskHead: Bool = false, dropoutSeed: UInt64 = 0) throws {
        let directory = try CheckpointDirectory(checkpoint)
        let fields = try Self.embeddingFields(in: directory)
        try self.init(configuration: directory.configuration(), weights: directory.weights(),
                      padTokenID: fields.pad_token_id, sinusoidalPositions: fields.sinusoidal_pos_embds ?? false,
                      ignoringTaskHead: ignoringTaskHead, dropoutSeed: dropoutSeed)
    }

    /// Builds the encoder from a configuration and an open safetensors file, checking that every
    /// tensor is present with the right shape and, unless `ignoringTaskHead`, none is left over
    /// (pooler weights aside). `padTokenID` is `config.json`'s `pad_token_id` (nil: the
    /// architecture's default), whose word embedding row PyTorch never updates. With
    /// `sinusoidalPositions` (DistilBERT's `sinusoidal_pos_embds`), the position table is fixed,
    /// as PyTorch makes it (`requires_grad = False`): its gradient stays zero.
    public init(configuration: BertConfiguration, weights: SafeTensors, padTokenID: Int? = nil,
                sinusoidalPositions: Bool = false, ignoringTaskHead: Bool = false, dropoutSeed: UInt64 = 0) throws {
        try configuration.validate()
        self.configuration = configuration
        let layout = TrainableEncoderLayout(configuration: configuration, padTokenID: padTokenID,
                                            trainsPositions: !sinusoidalPositions)
        let tensors = CheckpointTensors(file: weights, family: configuration.architecture.family)
        var values: [Tensor<Float>] = []
        for (name, shape) in zip(layout.names, layout.shapes) {
            let stored = try tensors.tensor(name, shape: shape)
            // An owned copy: the memory-mapped file is read-only, and training writes these.
            values.append(Tensor(shape: shape, scalars: stored.scalars))
        }
        if !ignoringTaskHead { try tensors.verifyAllUsed() }
        self.layout = layout
        let parameters = EncoderParameters(names: layout.names, values: values, rowTable: layout.wordEmbeddings)
        self.parameters = parameters
        embeddings = TrainableEmbeddings(parameters: parameters, layout: layout, configuration: configuration)
        blocks = layout.blocks.enumerated().map { index, indices in
            TrainableBlock(parameters: parameters, indices: indices, index: index, configuration: configuration,
                           dropsAttentionOutput: layout.dropsAttentionOutput)
        }
        generator = SplitMix64(seed: dropoutSeed)
    }

    /// Restarts the dropout draws from `seed`, as a new encoder made with `dropoutSeed: seed` draws
    /// them: a trainer reseeds at each epoch so a run resumed from a checkpoint draws what it would have.
    public func reseedDropout(_ seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    /// Runs `body` with no dropout, as evaluation does (a validation pass between epochs), then puts the
    /// dropout back; no random number is drawn, so a run takes the same steps with or without it.
    public func withoutDropout<Value>(_ body: () throws -> Value) rethrows -> Value {
        let kept = dropout
        dropout = nil
        defer { dropout = kept }
        return try body()
    }

    /// What the embeddings' gradients depend on beyond ``BertConfiguration``: `config.json`'s
    /// `pad_token_id` and DistilBERT's `sinusoidal_pos_embds`.
    struct EmbeddingFields: Decodable {
        var pad_token_id: Int?
        var sinusoidal_pos_embds: Bool?
    }

    /// Reads ``EmbeddingFields`` from the directory's `config.json`.
    static func embeddingFields(in directory: CheckpointDirectory) throws -> EmbeddingFields {
        let url = directory.url.appendingPathComponent("config.json")
        return try JSONFile.decode(EmbeddingFields.self, from: directory.configurationData(), file: url.path)
    }

    /// Buffers for batches of `batchSize` sequences of `sequenceLength` positions, to pass to every
    /// ``forward(_:workspace:)`` and ``backward(_:workspace:)`` of that shape.
    /// - Throws: ``ModelError/invalidFeatureValue(_:reason:)`` for a shape the model cannot take or
    ///   whose buffers would not fit in memory.
    public func makeWorkspace(batchSize: Int, sequenceLength: Int) throws -> EncoderTrainingWorkspace {
        guard batchSize > 0 else {
            throw ModelError.invalidFeatureValue("batchSize", reason: "\(batchSize) sequences; expected at least 1")
        }
        guard sequenceLength > 0 && sequenceLength <= configuration.maxSequenceLength else {
            throw ModelError.invalidFeatureValue(
                "sequenceLength", reason: "\(sequenceLength) positions; the model takes 1 to \(configuration.maxSequenceLength)")
        }
        // 2^34 floats (64 GiB): far past this machine's memory, and an overflow-safe bound.
        guard let scalars = EncoderTrainingWorkspace.scalarCount(configuration: configuration, batchSize: batchSize,
                                                                 sequenceLength: sequenceLength),
              scalars <= 1 << 34 else {
            throw ModelError.invalidFeatureValue(
                "batchSize", reason: "\(batchSize) sequences of \(sequenceLength) positions need more training memory than 64 GiB")
        }
        return EncoderTrainingWorkspace(configuration: configuration, batchSize: batchSize, sequenceLength: sequenceLength)
    }

    /// Sets every parameter's gradient to zero.
    public func zeroGradients() {
        parameters.zeroGradients()
    }

    /// Runs the encoder on `batch` (of `workspace`'s shape) with ``dropout``, keeping the activations
    /// in `workspace`, and returns the last hidden states, [batch, sequence, hidden].
    /// - Throws: ``ModelError/invalidFeatureValue(_:reason:)`` for a batch of another shape, an id
    ///   outside its table, or a dropout probability outside 0 ..< 1.
    public func forward(_ batch: EncoderBatch, workspace: EncoderTrainingWorkspace) throws -> Tensor<Float> {
        try check(workspace, batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        let dropout = dropout ?? EncoderDropout(hidden: 0, attention: 0)
        try dropout.validate()
        try parameters.prepareStorage()
        workspace.forwardBatch = nil
        workspace.arrange(computedLengths: skipsTrailingPadding
            ? batch.attendedLengths.map { max($0, 1) }
            : Array(repeating: batch.sequenceLength, count: batch.batchSize))
        // The word-embedding rows this pass reads, with the optimizer's put-off steps taken.
        parameters.catchUpRows(batch.tokenIDs)
        try embeddings.forward(batch, workspace: workspace, dropout: dropout.hidden, generator: &generator)
        if let bias = layout.relativeAttentionBias {
            // [buckets, heads] → per head, one value per distance, shared by every layer.
            let table = parameters.value(at: bias), heads = configuration.attentionHeadCount
            let span = 2 * batch.sequenceLength - 1
            for distance in 0..<span {
                let bucket = workspace.distanceBuckets[distance]
                for head in 0..<heads { workspace.positionBias[head * span + distance] = table[bucket * heads + head] }
            }
        }
        for block in blocks {
            block.forward(workspace, mask: batch.attentionMask, biased: layout.relativeAttentionBias != nil,
                          dropout: dropout, generator: &generator)
        }
        workspace.forwardBatch = batch
        workspace.forwardDropout = dropout
        let output = workspace.hidden[configuration.layerCount], h = configuration.hiddenSize
        let shape = [batch.batchSize, batch.sequenceLength, h]
        if workspace.rows == workspace.capacityRows {
            return Tensor(shape: shape, scalars: Array(UnsafeBufferPointer(start: output, count: workspace.rows * h)))
        }
        var states = Tensor<Float>(shape: shape)
        states.withUnsafeMutableBufferPointer { target in
            for row in 0..<workspace.rows {
                (target.baseAddress! + workspace.batchIndex[row] * h).update(from: output + row * h, count: h)
            }
        }
        return states
    }

    /// Adds to ``EncoderParameters/gradients`` the gradient of a loss whose gradient with respect to
    /// the last forward pass's hidden states (on `workspace`, with the parameters unchanged since)
    /// is `outputGradient`, [batch, sequence, hidden].
    /// - Throws: ``ModelError/invalidFeatureValue(_:reason:)`` when `workspace` holds no forward pass
    ///   or `outputGradient` has another shape.
    public func backward(_ outputGradient: Tensor<Float>, workspace: EncoderTrainingWorkspace) throws {
        try check(workspace, batchSize: workspace.batchSize, sequenceLength: workspace.sequenceLength)
        guard let batch = workspace.forwardBatch else {
            throw ModelError.invalidFeatureValue("workspace", reason: "holds no forward pass to differentiate: call forward first")
        }
        let shape = [batch.batchSize, batch.sequenceLength, configuration.hiddenSize]
        guard outputGradient.shape == shape else {
            throw ModelError.invalidFeatureValue("outputGradient", reason: "shape \(outputGradient.shape), expected \(shape)")
        }
        try parameters.prepareStorage()
        let h = configuration.hiddenSize
        outputGradient.withUnsafeBufferPointer { source in
            if workspace.rows == workspace.capacityRows {
                workspace.gradientHidden.update(from: source.baseAddress!, count: source.count)
            } else {
                for row in 0..<workspace.rows {
                    (workspace.gradientHidden + row * h).update(from: source.baseAddress! + workspace.batchIndex[row] * h, count: h)
                }
            }
        }
        let dropout = workspace.forwardDropout
        let biasGradient = layout.relativeAttentionBias.map { parameters.gradient(at: $0) }
        for block in blocks.reversed() {
            block.backward(workspace, dropout: dropout, biasGradient: biasGradient)
        }
        embeddings.backward(batch, workspace: workspace, dropout: dropout.hidden > 0)
    }

    private func check(_ workspace: EncoderTrainingWorkspace, batchSize: Int, sequenceLength: Int) throws {
        guard workspace.configuration == configuration else {
            throw ModelError.invalidFeatureValue("workspace", reason: "was made for another encoder configuration")
        }
        guard workspace.batchSize == batchSize, workspace.sequenceLength == sequenceLength else {
            throw ModelError.invalidFeatureValue(
                "wordIDs", reason: "batch of \(batchSize) × \(sequenceLength) tokens for a workspace of \(workspace.batchSize) × \(workspace.sequenceLength)")
        }
    }
}

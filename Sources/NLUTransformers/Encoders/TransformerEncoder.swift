import NLUCore

/// What BERT, DistilBERT and MPNet encoders have in common for every task built on them: a configuration, an
/// embedding step, and a stack of ``TransformerBlock``s run over an ``EncoderWorkspace``.
///
///     let encoder = try BertEncoder(configuration: config, checkpoint: tensors)
///     let states = try encoder.hiddenStates(batch)   // [batch, sequence, hidden]
public protocol TransformerEncoder: Sendable {
    /// The hyper-parameters the encoder was built with.
    var configuration: BertConfiguration { get }
    /// The last layer's hidden states, shape [batch, sequence, hidden].
    func hiddenStates(_ batch: EncoderBatch) throws -> Tensor<Float>
}

/// The internal forward pass both encoders implement on raw buffers.
package protocol WorkspaceEncoder: TransformerEncoder {
    var blocks: [TransformerBlock] { get }
    /// Writes the (layer-normed) input embeddings into `workspace.hidden`.
    func embed(_ batch: EncoderBatch, into workspace: EncoderWorkspace) throws
    /// The bias every layer adds to its attention scores for sequences of `sequenceLength`
    /// positions (MPNet's relative positions), or nil (BERT, DistilBERT).
    func attentionBias(sequenceLength: Int) -> RelativePositionBias?
}

extension WorkspaceEncoder {
    /// Absolute-position encoders add nothing to the attention scores.
    package func attentionBias(sequenceLength: Int) -> RelativePositionBias? { nil }

    /// Runs embeddings and every block; the result is in `workspace.hidden`. `feedForwardRows`
    /// bounds the rows per feed-forward chunk (see ``EncoderWorkspace/feedForwardRows``).
    package func encode(_ batch: EncoderBatch, feedForwardRows: Int = 1024) throws -> EncoderWorkspace {
        let config = configuration
        guard batch.sequenceLength <= config.maxSequenceLength else {
            throw ModelError.invalidFeatureValue(
                "wordIDs", reason: "sequence length \(batch.sequenceLength) exceeds the model's \(config.maxSequenceLength) positions")
        }
        let workspace = EncoderWorkspace(rows: batch.batchSize * batch.sequenceLength, hiddenSize: config.hiddenSize,
                                         intermediateSize: config.intermediateSize, feedForwardRows: feedForwardRows)
        try embed(batch, into: workspace)
        let lengths = batch.attendedLengths
        // Only sequences with masked positions inside their attended prefix need per-key masking
        // (padding is normally at the end): -infinity for those keys, 0 for the others.
        let keyMasks: [[Float]?] = (0..<batch.batchSize).map { row in
            let prefix = batch.attentionMask[(row * batch.sequenceLength)..<(row * batch.sequenceLength + lengths[row])]
            return prefix.contains(0) ? prefix.map { $0 == 0 ? -Float.infinity : 0 } : nil
        }
        let bias = attentionBias(sequenceLength: batch.sequenceLength)
        for block in blocks {
            block(workspace, batch: batch, lengths: lengths, keyMasks: keyMasks, positionBias: bias, configuration: config)
        }
        return workspace
    }

    /// Runs the encoder and copies the last hidden states out as [batch, sequence, hidden].
    public func hiddenStates(_ batch: EncoderBatch) throws -> Tensor<Float> {
        let workspace = try encode(batch)
        let count = workspace.rows * configuration.hiddenSize
        let scalars = Array(UnsafeBufferPointer(start: workspace.hidden, count: count))
        return Tensor(shape: [batch.batchSize, batch.sequenceLength, configuration.hiddenSize], scalars: scalars)
    }

    /// `hidden[row] = LayerNorm(Σ tables[k][ids[k][row]])`: the sum of embedding rows, normalized.
    func embedSum(_ batch: EncoderBatch, tables: [(table: Tensor<Float>, ids: (Int) -> Int, feature: String)],
                  norm: NormWeights, into workspace: EncoderWorkspace) throws {
        let hiddenSize = configuration.hiddenSize
        let rows = batch.batchSize * batch.sequenceLength
        for (table, ids, feature) in tables {
            let limit = table.shape[0]
            for row in 0..<rows where batch.attentionMask[row] != 0 || feature != "wordTypes" {
                let id = ids(row)
                guard id >= 0 && id < limit else {
                    throw ModelError.invalidFeatureValue(feature, reason: "value \(id) at position \(row) is outside 0..<\(limit)")
                }
            }
        }
        for (index, entry) in tables.enumerated() {
            let source = entry.table.elementPointer
            for row in 0..<rows {
                let id = min(max(entry.ids(row), 0), entry.table.shape[0] - 1)
                let target = workspace.hidden + row * hiddenSize
                let line = source + id * hiddenSize
                if index == 0 {
                    target.update(from: line, count: hiddenSize)
                } else {
                    for c in 0..<hiddenSize { target[c] += line[c] }
                }
            }
        }
        Kernels.layerNorm(workspace.hidden, rowCount: rows, rowLength: hiddenSize, weight: norm.gamma.elementPointer,
                          bias: norm.beta.elementPointer, epsilon: configuration.layerNormEpsilon)
    }
}

import NLUCore

/// The MPNet encoder of an MPNet checkpoint (`MPNetModel`, the `Transformer` module of
/// all-mpnet-base-v2), ported from `transformers` 4.57 `modeling_mpnet.py`: word + position
/// embeddings (no token types; position ids as RoBERTa makes them, see ``MPNetPositions``), then
/// `num_hidden_layers` post-norm blocks whose attention scores all get one relative position bias
/// (`encoder.relative_attention_bias`, T5-style buckets) before the padding mask.
///
/// Tensor names come from ``MPNetFamily/tensorNames`` (`mpnet.embeddings.word_embeddings.weight`,
/// `mpnet.encoder.layer.N.attention.attn.q.weight`, ...).
///
///     let encoder = try MPNetEncoder(configuration: config, checkpoint: tensors, names: MPNetFamily.tensorNames)
///     let states = try encoder.hiddenStates(EncoderBatch(tokenIDs: [[0, 7596, 2]], padID: 1))
public struct MPNetEncoder: WorkspaceEncoder {
    /// The checkpoint's hyper-parameters.
    public let configuration: BertConfiguration
    let layers: EncoderLayers
    /// `[buckets, heads]`; nil when the family's names have no relative position bias.
    let relativeAttentionBias: Tensor<Float>?
    package var blocks: [TransformerBlock] { layers.blocks }

    /// Loads the encoder spelled as `names` says, its dense layers at `precision`.
    package init(configuration: BertConfiguration, checkpoint tensors: CheckpointTensors, names: EncoderTensorNames,
                 precision: Precision = .f32) throws {
        self.configuration = configuration
        layers = try EncoderLayers(tensors, configuration: configuration, names: names, precision: precision)
        relativeAttentionBias = try names.relativeAttentionBias.map {
            try tensors.tensor($0 + ".weight", shape: [configuration.relativeAttentionBucketCount,
                                                       configuration.attentionHeadCount]).contiguous()
        }
    }

    package func embed(_ batch: EncoderBatch, into workspace: EncoderWorkspace) throws {
        let positions = MPNetPositions.positionIDs(batch)
        try embedSum(batch, tables: [
            (layers.wordEmbeddings, { Int(batch.tokenIDs[$0]) }, "wordIDs"),
            (layers.positionEmbeddings, { positions[$0] }, "position"),
        ], norm: layers.embeddingNorm, into: workspace)
    }

    package func attentionBias(sequenceLength: Int) -> RelativePositionBias? {
        relativeAttentionBias.map {
            RelativePositionBias(table: $0, heads: configuration.attentionHeadCount, sequenceLength: sequenceLength)
        }
    }
}

import NLUCore

/// The MPNet encoder of an MPNet checkpoint (`MPNetModel`, the `Transformer` module of
/// all-mpnet-base-v2), ported from `transformers` 4.57 `modeling_mpnet.py`: word + position
/// embeddings (no token types; position ids as RoBERTa makes them, see ``MPNetPositions``), then
/// `num_hidden_layers` post-norm blocks whose attention scores all get one relative position bias
/// (`encoder.relative_attention_bias`, T5-style buckets) before the padding mask.
///
/// Tensor names follow Hugging Face (`mpnet.embeddings.word_embeddings.weight`,
/// `mpnet.encoder.layer.N.attention.attn.q.weight`, ...).
///
///     let encoder = try MPNetEncoder(configuration: config, checkpoint: tensors)
///     let states = try encoder.hiddenStates(EncoderBatch(tokenIDs: [[0, 7596, 2]], padID: 1))
public struct MPNetEncoder: WorkspaceEncoder {
    /// The checkpoint's hyper-parameters.
    public let configuration: BertConfiguration
    let wordEmbeddings: Tensor<Float>
    let positionEmbeddings: Tensor<Float>
    let embeddingNorm: NormWeights
    /// `[buckets, heads]`.
    let relativeAttentionBias: Tensor<Float>
    package let blocks: [TransformerBlock]

    package init(configuration: BertConfiguration, checkpoint tensors: CheckpointTensors, precision: Precision = .f32) throws {
        self.configuration = configuration
        let h = configuration.hiddenSize
        wordEmbeddings = try tensors.tensor("embeddings.word_embeddings.weight", shape: [configuration.vocabularySize, h])
        positionEmbeddings = try tensors.tensor("embeddings.position_embeddings.weight",
                                                shape: [configuration.maxPositionEmbeddings, h])
        embeddingNorm = try NormWeights(tensors, "embeddings.LayerNorm", size: h)
        relativeAttentionBias = try tensors.tensor("encoder.relative_attention_bias.weight",
                                                   shape: [configuration.relativeAttentionBucketCount,
                                                           configuration.attentionHeadCount]).contiguous()
        blocks = try (0..<configuration.layerCount).map { index in
            let layer = "encoder.layer.\(index)."
            return try TransformerBlock(tensors, names: BlockTensorNames(
                query: layer + "attention.attn.q", key: layer + "attention.attn.k", value: layer + "attention.attn.v",
                attentionOutput: layer + "attention.attn.o", attentionNorm: layer + "attention.LayerNorm",
                intermediate: layer + "intermediate.dense", output: layer + "output.dense",
                outputNorm: layer + "output.LayerNorm"), configuration: configuration, precision: precision)
        }
    }

    package func embed(_ batch: EncoderBatch, into workspace: EncoderWorkspace) throws {
        let positions = MPNetPositions.positionIDs(batch)
        try embedSum(batch, tables: [
            (wordEmbeddings, { Int(batch.tokenIDs[$0]) }, "wordIDs"),
            (positionEmbeddings, { positions[$0] }, "position"),
        ], norm: embeddingNorm, into: workspace)
    }

    package func attentionBias(sequenceLength: Int) -> RelativePositionBias? {
        RelativePositionBias(table: relativeAttentionBias, heads: configuration.attentionHeadCount, sequenceLength: sequenceLength)
    }
}

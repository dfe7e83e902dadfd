import NLUCore

/// The DistilBERT encoder of a DistilBERT checkpoint (`DistilBertModel`, `DistilBertForQuestionAnswering`): word + position
/// embeddings (no token types), then `n_layers` post-norm transformer blocks.
///
/// Tensor names follow Hugging Face (`distilbert.embeddings.word_embeddings.weight`,
/// `distilbert.transformer.layer.N.attention.q_lin.weight`, ...).
///
///     let encoder = try DistilBertEncoder(configuration: config, checkpoint: tensors)
///     let states = try encoder.hiddenStates(EncoderBatch(tokenIDs: [[2, 40, 3]], padID: 0))
public struct DistilBertEncoder: WorkspaceEncoder {
    /// The checkpoint's hyper-parameters.
    public let configuration: BertConfiguration
    let wordEmbeddings: Tensor<Float>
    let positionEmbeddings: Tensor<Float>
    let embeddingNorm: NormWeights
    package let blocks: [TransformerBlock]

    package init(configuration: BertConfiguration, checkpoint tensors: CheckpointTensors, precision: Precision = .f32) throws {
        self.configuration = configuration
        let h = configuration.hiddenSize
        wordEmbeddings = try tensors.tensor("embeddings.word_embeddings.weight", shape: [configuration.vocabularySize, h])
        positionEmbeddings = try tensors.tensor("embeddings.position_embeddings.weight",
                                                shape: [configuration.maxPositionEmbeddings, h])
        embeddingNorm = try NormWeights(tensors, "embeddings.LayerNorm", size: h)
        blocks = try (0..<configuration.layerCount).map { index in
            let layer = "transformer.layer.\(index)."
            return try TransformerBlock(tensors, names: BlockTensorNames(
                query: layer + "attention.q_lin", key: layer + "attention.k_lin", value: layer + "attention.v_lin",
                attentionOutput: layer + "attention.out_lin", attentionNorm: layer + "sa_layer_norm",
                intermediate: layer + "ffn.lin1", output: layer + "ffn.lin2", outputNorm: layer + "output_layer_norm"),
                configuration: configuration, precision: precision)
        }
    }

    package func embed(_ batch: EncoderBatch, into workspace: EncoderWorkspace) throws {
        let length = batch.sequenceLength
        try embedSum(batch, tables: [
            (wordEmbeddings, { Int(batch.tokenIDs[$0]) }, "wordIDs"),
            (positionEmbeddings, { $0 % length }, "position"),
        ], norm: embeddingNorm, into: workspace)
    }
}

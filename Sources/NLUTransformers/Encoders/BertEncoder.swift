import NLUCore

/// The BERT encoder of a BERT-family checkpoint (`BertModel`, `BertForQuestionAnswering`, MiniLM-style
/// sentence-transformers models): word + position + token-type
/// embeddings, then `num_hidden_layers` post-norm transformer blocks.
///
/// Tensor names follow Hugging Face (`bert.embeddings.word_embeddings.weight`,
/// `bert.encoder.layer.N.attention.self.query.weight`, ...). F32 embeddings are used straight from
/// the memory-mapped file; the dense layers' weights are packed once at load (``LinearWeights``).
///
///     let encoder = try BertEncoder(configuration: config, checkpoint: tensors)
///     let states = try encoder.hiddenStates(EncoderBatch(tokenIDs: [[2, 40, 3]], padID: 0))
public struct BertEncoder: WorkspaceEncoder {
    /// The checkpoint's hyper-parameters.
    public let configuration: BertConfiguration
    let wordEmbeddings: Tensor<Float>
    let positionEmbeddings: Tensor<Float>
    let tokenTypeEmbeddings: Tensor<Float>
    let embeddingNorm: NormWeights
    package let blocks: [TransformerBlock]

    package init(configuration: BertConfiguration, checkpoint tensors: CheckpointTensors, precision: Precision = .f32) throws {
        self.configuration = configuration
        let h = configuration.hiddenSize
        wordEmbeddings = try tensors.tensor("embeddings.word_embeddings.weight", shape: [configuration.vocabularySize, h])
        positionEmbeddings = try tensors.tensor("embeddings.position_embeddings.weight",
                                                shape: [configuration.maxPositionEmbeddings, h])
        tokenTypeEmbeddings = try tensors.tensor("embeddings.token_type_embeddings.weight",
                                                 shape: [configuration.typeVocabularySize, h])
        embeddingNorm = try NormWeights(tensors, "embeddings.LayerNorm", size: h)
        blocks = try (0..<configuration.layerCount).map { index in
            let layer = "encoder.layer.\(index)."
            return try TransformerBlock(tensors, names: BlockTensorNames(
                query: layer + "attention.self.query", key: layer + "attention.self.key",
                value: layer + "attention.self.value", attentionOutput: layer + "attention.output.dense",
                attentionNorm: layer + "attention.output.LayerNorm", intermediate: layer + "intermediate.dense",
                output: layer + "output.dense", outputNorm: layer + "output.LayerNorm"), configuration: configuration, precision: precision)
        }
    }

    package func embed(_ batch: EncoderBatch, into workspace: EncoderWorkspace) throws {
        let length = batch.sequenceLength
        try embedSum(batch, tables: [
            (wordEmbeddings, { Int(batch.tokenIDs[$0]) }, "wordIDs"),
            (positionEmbeddings, { $0 % length }, "position"),
            (tokenTypeEmbeddings, { Int(batch.tokenTypeIDs[$0]) }, "wordTypes"),
        ], norm: embeddingNorm, into: workspace)
    }
}

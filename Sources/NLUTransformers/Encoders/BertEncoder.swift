import NLUCore

/// The BERT encoder of a BERT-family checkpoint (`BertModel`, `BertForQuestionAnswering`, MiniLM-style
/// sentence-transformers models, and RoBERTa / XLM-R, which differ only in their position ids):
/// word + position + token-type embeddings, then `num_hidden_layers` post-norm transformer blocks.
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
    let layers: EncoderLayers
    let tokenTypeEmbeddings: Tensor<Float>
    package var blocks: [TransformerBlock] { layers.blocks }

    /// The tensor names of one layer's block.
    static let blockNames = BlockTensorNames(
        query: "attention.self.query", key: "attention.self.key", value: "attention.self.value",
        attentionOutput: "attention.output.dense", attentionNorm: "attention.output.LayerNorm",
        intermediate: "intermediate.dense", output: "output.dense", outputNorm: "output.LayerNorm")

    package init(configuration: BertConfiguration, checkpoint tensors: CheckpointTensors, precision: Precision = .f32) throws {
        self.configuration = configuration
        layers = try EncoderLayers(tensors, configuration: configuration, layerPrefix: "encoder.layer.",
                                   blockNames: Self.blockNames, precision: precision)
        tokenTypeEmbeddings = try tensors.tensor("embeddings.token_type_embeddings.weight",
                                                 shape: [configuration.typeVocabularySize, configuration.hiddenSize])
    }

    package func embed(_ batch: EncoderBatch, into workspace: EncoderWorkspace) throws {
        let length = batch.sequenceLength
        // RoBERTa counts positions from after the padding index; BERT from 0 in every row.
        let positions: [Int]? = configuration.positionsFollowPadding
            ? PaddingOffsetPositions.positionIDs(batch, paddingIndex: configuration.paddingIndex) : nil
        try embedSum(batch, tables: [
            (layers.wordEmbeddings, { Int(batch.tokenIDs[$0]) }, "wordIDs"),
            (layers.positionEmbeddings, { positions?[$0] ?? $0 % length }, "position"),
            (tokenTypeEmbeddings, { Int(batch.tokenTypeIDs[$0]) }, "wordTypes"),
        ], norm: layers.embeddingNorm, into: workspace)
    }
}

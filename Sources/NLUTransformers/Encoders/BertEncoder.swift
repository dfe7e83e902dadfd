import NLUCore

/// The BERT encoder of a BERT-family checkpoint (`BertModel`, `BertForQuestionAnswering`, MiniLM-style
/// sentence-transformers models, and RoBERTa / XLM-R, which differ only in their position ids):
/// word + position + token-type embeddings, then `num_hidden_layers` post-norm transformer blocks.
///
/// Tensor names come from the family (``BertFamily/tensorNames``: `bert.embeddings.word_embeddings.weight`,
/// `bert.encoder.layer.N.attention.self.query.weight`, ...; ``RobertaFamily`` the same under `roberta.`),
/// and so does the embedding step (positions from 0 or after the padding index). F32 embeddings are used
/// straight from the memory-mapped file; the dense layers' weights are packed once at load (``LinearWeights``).
///
///     let encoder = try BertEncoder(configuration: config, checkpoint: tensors, names: BertFamily.tensorNames)
///     let states = try encoder.hiddenStates(EncoderBatch(tokenIDs: [[2, 40, 3]], padID: 0))
public struct BertEncoder: WorkspaceEncoder {
    /// The checkpoint's hyper-parameters.
    public let configuration: BertConfiguration
    let layers: EncoderLayers
    /// `[token types, hidden]`; nil when the family's names have no token types.
    let tokenTypeEmbeddings: Tensor<Float>?
    package var blocks: [TransformerBlock] { layers.blocks }

    /// Loads the encoder spelled as `names` says, its dense layers at `precision`.
    package init(configuration: BertConfiguration, checkpoint tensors: CheckpointTensors, names: EncoderTensorNames,
                 precision: Precision = .f32) throws {
        self.configuration = configuration
        layers = try EncoderLayers(tensors, configuration: configuration, names: names, precision: precision)
        tokenTypeEmbeddings = try names.tokenTypeEmbeddings.map {
            try tensors.tensor($0 + ".weight", shape: [configuration.typeVocabularySize, configuration.hiddenSize])
        }
    }

    package func embed(_ batch: EncoderBatch, into workspace: EncoderWorkspace) throws {
        let length = batch.sequenceLength
        // RoBERTa counts positions from after the padding index; BERT from 0 in every row.
        let positions: [Int]? = configuration.positionsFollowPadding
            ? PaddingOffsetPositions.positionIDs(batch, paddingIndex: configuration.paddingIndex) : nil
        var tables: [(table: Tensor<Float>, ids: (Int) -> Int, feature: String)] = [
            (layers.wordEmbeddings, { Int(batch.tokenIDs[$0]) }, "wordIDs"),
            (layers.positionEmbeddings, { positions?[$0] ?? $0 % length }, "position"),
        ]
        if let tokenTypeEmbeddings { tables.append((tokenTypeEmbeddings, { Int(batch.tokenTypeIDs[$0]) }, "wordTypes")) }
        try embedSum(batch, tables: tables, norm: layers.embeddingNorm, into: workspace)
    }
}

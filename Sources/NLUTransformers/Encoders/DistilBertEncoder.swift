import NLUCore

/// The DistilBERT encoder of a DistilBERT checkpoint (`DistilBertModel`, `DistilBertForQuestionAnswering`): word + position
/// embeddings (no token types), then `n_layers` post-norm transformer blocks.
///
/// Tensor names come from ``DistilBertFamily/tensorNames`` (`distilbert.embeddings.word_embeddings.weight`,
/// `distilbert.transformer.layer.N.attention.q_lin.weight`, ...).
///
///     let encoder = try DistilBertEncoder(configuration: config, checkpoint: tensors, names: DistilBertFamily.tensorNames)
///     let states = try encoder.hiddenStates(EncoderBatch(tokenIDs: [[2, 40, 3]], padID: 0))
public struct DistilBertEncoder: WorkspaceEncoder {
    /// The checkpoint's hyper-parameters.
    public let configuration: BertConfiguration
    let layers: EncoderLayers
    package var blocks: [TransformerBlock] { layers.blocks }

    /// Loads the encoder spelled as `names` says, its dense layers at `precision`.
    package init(configuration: BertConfiguration, checkpoint tensors: CheckpointTensors, names: EncoderTensorNames,
                 precision: Precision = .f32) throws {
        self.configuration = configuration
        layers = try EncoderLayers(tensors, configuration: configuration, names: names, precision: precision)
    }

    package func embed(_ batch: EncoderBatch, into workspace: EncoderWorkspace) throws {
        let length = batch.sequenceLength
        try embedSum(batch, tables: [
            (layers.wordEmbeddings, { Int(batch.tokenIDs[$0]) }, "wordIDs"),
            (layers.positionEmbeddings, { $0 % length }, "position"),
        ], norm: layers.embeddingNorm, into: workspace)
    }
}

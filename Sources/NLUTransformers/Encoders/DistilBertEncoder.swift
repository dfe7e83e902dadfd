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
    let layers: EncoderLayers
    package var blocks: [TransformerBlock] { layers.blocks }

    /// The tensor names of one layer's block.
    static let blockNames = BlockTensorNames(
        query: "attention.q_lin", key: "attention.k_lin", value: "attention.v_lin",
        attentionOutput: "attention.out_lin", attentionNorm: "sa_layer_norm",
        intermediate: "ffn.lin1", output: "ffn.lin2", outputNorm: "output_layer_norm")

    package init(configuration: BertConfiguration, checkpoint tensors: CheckpointTensors, precision: Precision = .f32) throws {
        self.configuration = configuration
        layers = try EncoderLayers(tensors, configuration: configuration, layerPrefix: "transformer.layer.",
                                   blockNames: Self.blockNames, precision: precision)
    }

    package func embed(_ batch: EncoderBatch, into workspace: EncoderWorkspace) throws {
        let length = batch.sequenceLength
        try embedSum(batch, tables: [
            (layers.wordEmbeddings, { Int(batch.tokenIDs[$0]) }, "wordIDs"),
            (layers.positionEmbeddings, { $0 % length }, "position"),
        ], norm: layers.embeddingNorm, into: workspace)
    }
}

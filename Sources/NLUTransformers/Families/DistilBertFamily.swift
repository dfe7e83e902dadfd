import NLUCore

/// DistilBERT (`model_type: distilbert`; `DistilBertModel`, `DistilBertForQuestionAnswering`): word +
/// position (from 0) embeddings, no token types, then `n_layers` post-norm blocks, with its own key names
/// (`dim`, `n_layers`, ...) and tensor names (`distilbert.transformer.layer.N.attention.q_lin`, ...).
/// Keys and defaults from `transformers` 4.57 `DistilBertConfig`.
///
///     let json = #"{"model_type": "distilbert", "dim": 48, "n_heads": 4}"#
///     let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(json.utf8))
///     print(config.architecture, config.layerCount, config.typeVocabularySize)   // distilbert 6 0
package enum DistilBertFamily: EncoderFamily {
    package static let name = "distilbert"
    package static let displayNames = ["DistilBERT"]
    package static let architectureClassPrefixes = ["DistilBert"]

    /// `DistilBertConfig`'s keys and defaults; its layer norms' epsilon is fixed at 1e-12.
    package static let configurationKeys = ConfigurationKeys(
        vocabularySize: .key("vocab_size", default: 30522), hiddenSize: .key("dim", default: 768),
        layerCount: .key("n_layers", default: 6), attentionHeadCount: .key("n_heads", default: 12),
        intermediateSize: .key("hidden_dim", default: 3072), activation: .key("activation", default: "gelu"),
        maxPositionEmbeddings: .key("max_position_embeddings", default: 512), typeVocabularySize: .fixed(0),
        paddingIndex: .fixed(1), layerNormEpsilon: .fixed(1e-12), relativeAttentionBucketCount: .fixed(0))

    /// `distilbert.embeddings.word_embeddings.weight`, `distilbert.transformer.layer.N.attention.q_lin.weight`, ...
    package static let tensorNames = EncoderTensorNames(
        modelPrefixes: ["distilbert.", ""], layerPrefix: "transformer.layer.",
        block: BlockTensorNames(
            query: "attention.q_lin", key: "attention.k_lin", value: "attention.v_lin",
            attentionOutput: "attention.out_lin", attentionNorm: "sa_layer_norm",
            intermediate: "ffn.lin1", output: "ffn.lin2", outputNorm: "output_layer_norm"),
        unread: ["pooler.", "distilbert.pooler."])

    /// Positions from 0, no token types.
    package static let embedding = EmbeddingStep(positions: .fromZero, tokenTypes: 0)

    /// `MultiHeadSelfAttention` hands `out_lin`'s output straight to the residual, without dropout.
    package static let dropsOutAttentionOutput = false

    package static func makeEncoder(configuration: BertConfiguration, tensors: CheckpointTensors,
                                    precision: Precision) throws -> any WorkspaceEncoder {
        try DistilBertEncoder(configuration: configuration, checkpoint: tensors, names: tensorNames, precision: precision)
    }
}

extension BertConfiguration.Architecture {
    /// DistilBERT: ``DistilBertFamily``.
    public static let distilbert = Self(DistilBertFamily.self)
}

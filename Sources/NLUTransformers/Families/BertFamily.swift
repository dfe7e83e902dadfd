/// BERT (`model_type: bert`; `BertModel`, `BertForQuestionAnswering`, and the MiniLM- and paraphrase-style
/// sentence-transformers models, which are BERT checkpoints with other sizes): word + position (from 0) +
/// token-type embeddings, then `num_hidden_layers` post-norm blocks, under `bert.` in a task model.
/// Keys and defaults from `transformers` 4.57 `BertConfig`.
///
///     let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(#"{"model_type": "bert"}"#.utf8))
///     print(config.architecture, config.typeVocabularySize)   // bert 2
package enum BertFamily: EncoderFamily {
    package static let name = "bert"
    package static let displayNames = ["BERT"]
    package static let architectureClassPrefixes = ["Bert"]

    /// `BertConfig`'s keys and defaults. RoBERTa and MPNet spell their sizes the same way and start from these.
    package static let configurationKeys = ConfigurationKeys(
        vocabularySize: .key("vocab_size", default: 30522), hiddenSize: .key("hidden_size", default: 768),
        layerCount: .key("num_hidden_layers", default: 12), attentionHeadCount: .key("num_attention_heads", default: 12),
        intermediateSize: .key("intermediate_size", default: 3072), activation: .key("hidden_act", default: "gelu"),
        maxPositionEmbeddings: .key("max_position_embeddings", default: 512),
        typeVocabularySize: .key("type_vocab_size", default: 2), paddingIndex: .fixed(1),
        layerNormEpsilon: .key("layer_norm_eps", default: 1e-12), relativeAttentionBucketCount: .fixed(0),
        requiredValues: [("position_embedding_type", "absolute")])

    /// `bert.embeddings.word_embeddings.weight`, `bert.encoder.layer.N.attention.self.query.weight`, ...;
    /// the pooler and the pretraining heads (`cls.`) are left unread.
    package static let tensorNames = EncoderTensorNames(
        modelPrefixes: ["bert.", ""], tokenTypeEmbeddings: "embeddings.token_type_embeddings", layerPrefix: "encoder.layer.",
        block: BlockTensorNames(
            query: "attention.self.query", key: "attention.self.key", value: "attention.self.value",
            attentionOutput: "attention.output.dense", attentionNorm: "attention.output.LayerNorm",
            intermediate: "intermediate.dense", output: "output.dense", outputNorm: "output.LayerNorm"),
        unread: ["pooler.", "bert.pooler.", "cls."])

    /// Positions from 0; two token types (question, context) unless the configuration says otherwise.
    /// The encoder is ``BertEncoder``, the default of ``EncoderFamily/makeEncoder(configuration:tensors:precision:)``.
    package static let embedding = EmbeddingStep(positions: .fromZero, tokenTypes: 2)
}

extension BertConfiguration.Architecture {
    /// BERT and the sentence-transformers models built on it (MiniLM, paraphrase-*): ``BertFamily``.
    public static let bert = Self(BertFamily.self)
}

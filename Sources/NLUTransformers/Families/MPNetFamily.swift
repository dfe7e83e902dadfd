import NLUCore

/// MPNet (`model_type: mpnet`; `MPNetModel`, the `Transformer` module of all-mpnet-base-v2): BERT's key
/// names and block shape with its own tensor names (`mpnet.encoder.layer.N.attention.attn.q`, ...),
/// position ids as RoBERTa makes them (padding index fixed at 1), no token types, and a relative position
/// bias (T5-style buckets) added to every layer's attention scores. Keys and defaults from `transformers`
/// 4.57 `MPNetConfig`; see ``MPNetPositions`` for the position arithmetic.
///
///     let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(#"{"model_type": "mpnet"}"#.utf8))
///     print(config.architecture, config.maxSequenceLength)   // mpnet 512
package enum MPNetFamily: EncoderFamily {
    package static let name = "mpnet"
    package static let displayNames = ["MPNet"]
    package static let architectureClassPrefixes = ["MPNet"]

    /// BERT's keys with `MPNetConfig`'s defaults (30,527 tokens, 514 positions), no token types, the
    /// padding index `MPNetEmbeddings` fixes, and the relative attention buckets.
    package static let configurationKeys = {
        var keys = BertFamily.configurationKeys
        keys.vocabularySize.defaultValue = 30527
        keys.maxPositionEmbeddings.defaultValue = 514
        keys.typeVocabularySize = .fixed(0)
        keys.paddingIndex = .fixed(MPNetPositions.paddingIndex)
        keys.relativeAttentionBucketCount = .key("relative_attention_num_buckets", default: MPNetPositions.bucketCount)
        keys.requiredValues = []
        return keys
    }()

    /// `mpnet.embeddings.word_embeddings.weight`, `mpnet.encoder.layer.N.attention.attn.q.weight`,
    /// `mpnet.encoder.relative_attention_bias.weight`; the pooler and the masked-LM head are left unread.
    package static let tensorNames = EncoderTensorNames(
        modelPrefixes: ["mpnet.", ""], layerPrefix: "encoder.layer.",
        block: BlockTensorNames(
            query: "attention.attn.q", key: "attention.attn.k", value: "attention.attn.v",
            attentionOutput: "attention.attn.o", attentionNorm: "attention.LayerNorm",
            intermediate: "intermediate.dense", output: "output.dense", outputNorm: "output.LayerNorm"),
        relativeAttentionBias: "encoder.relative_attention_bias",
        unread: ["pooler.", "mpnet.pooler.", "lm_head."])

    /// Positions after the padding index, no token types.
    package static let embedding = EmbeddingStep(positions: .afterPaddingIndex, tokenTypes: 0)

    /// `transformers`' MPNet always looks up ``MPNetPositions/bucketCount`` (32) buckets, whatever the
    /// config says: a smaller table would be indexed out of range.
    package static func validate(_ configuration: BertConfiguration) throws {
        guard configuration.relativeAttentionBucketCount >= MPNetPositions.bucketCount else {
            throw BertConfigurationError.unsupportedValue(
                field: "relative_attention_num_buckets", value: String(configuration.relativeAttentionBucketCount),
                supported: "at least \(MPNetPositions.bucketCount), the buckets MPNet's attention bias uses")
        }
    }

    package static func makeEncoder(configuration: BertConfiguration, tensors: CheckpointTensors,
                                    precision: Precision) throws -> any WorkspaceEncoder {
        try MPNetEncoder(configuration: configuration, checkpoint: tensors, names: tensorNames, precision: precision)
    }
}

extension BertConfiguration.Architecture {
    /// MPNet: ``MPNetFamily``.
    public static let mpnet = Self(MPNetFamily.self)
}

/// RoBERTa and XLM-RoBERTa (`model_type: roberta` / `xlm-roberta`; `all-distilroberta-v1`,
/// `paraphrase-multilingual-mpnet-base-v2`): BERT's blocks, key names and tensor names, under `roberta.`,
/// with position ids counted from after the padding index (`pad_token_id`) and one token type in every
/// released checkpoint. Runs in ``BertEncoder``. Defaults from `transformers` 4.57 `RobertaConfig`.
///
///     let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(#"{"model_type": "xlm-roberta"}"#.utf8))
///     print(config.architecture, config.firstPositionID)   // roberta 2
package enum RobertaFamily: EncoderFamily {
    package static let name = "roberta"
    package static let displayNames = ["RoBERTa", "XLM-RoBERTa"]
    package static let architectureClassPrefixes = ["Roberta", "XLMRoberta"]

    /// BERT's keys with `RobertaConfig`'s defaults (50,265 tokens, 514 positions); the padding index is
    /// `pad_token_id`, as `RobertaEmbeddings` takes it.
    package static let configurationKeys = {
        var keys = BertFamily.configurationKeys
        keys.vocabularySize.defaultValue = 50265
        keys.maxPositionEmbeddings.defaultValue = 514
        keys.paddingIndex = .key("pad_token_id", default: 1)
        return keys
    }()

    /// BERT's names under `roberta.`; the pooler and the masked-LM head (`lm_head.`) are left unread.
    package static let tensorNames = {
        var names = BertFamily.tensorNames
        names.modelPrefixes = ["roberta.", ""]
        names.unread = ["pooler.", "roberta.pooler.", "lm_head."]
        return names
    }()

    /// Positions after the padding index; one token type unless the configuration says otherwise.
    package static let embedding = EmbeddingStep(positions: .afterPaddingIndex, tokenTypes: 1)

    /// RoBERTa's one token type must exist: the embedding step reads row 0.
    package static func validate(_ configuration: BertConfiguration) throws {
        if configuration.typeVocabularySize < 1 {
            throw BertConfigurationError.unsupportedValue(field: "type_vocab_size", value: String(configuration.typeVocabularySize),
                                                          supported: "at least 1")
        }
    }
}

extension BertConfiguration.Architecture {
    /// RoBERTa and XLM-RoBERTa: ``RobertaFamily``.
    public static let roberta = Self(RobertaFamily.self)
}

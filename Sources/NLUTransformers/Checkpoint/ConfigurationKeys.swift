/// Where one family's `config.json` keeps each encoder hyper-parameter, and the value `transformers`
/// uses when the key is absent or null. ``BertConfiguration`` decodes every family through its keys, so
/// the encoder core has one configuration type while each family's spelling and defaults stay in its file.
/// (Families build one with the memberwise initializer, fields in declaration order.)
///
///     var keys = BertFamily.configurationKeys
///     keys.vocabularySize = .key("vocab_size", default: 50265)    // RobertaConfig's default
///     keys.typeVocabularySize = .fixed(0)                          // a family without token types
package struct ConfigurationKeys: Sendable {
    /// One hyper-parameter: the key it is read from and its default, or no key (fixed at the value).
    package struct Field<Value: Decodable & Sendable>: Sendable {
        /// The `config.json` key; nil when the family fixes the value.
        package var key: String?
        /// The value when the key is absent or null (`transformers`' default for the family).
        package var defaultValue: Value

        /// Read from `key`, `value` when it is absent.
        package static func key(_ key: String, default value: Value) -> Field { Field(key: key, defaultValue: value) }
        /// Not read: the family fixes it at `value`.
        package static func fixed(_ value: Value) -> Field { Field(key: nil, defaultValue: value) }
    }

    package var vocabularySize: Field<Int>
    package var hiddenSize: Field<Int>
    package var layerCount: Field<Int>
    package var attentionHeadCount: Field<Int>
    package var intermediateSize: Field<Int>
    /// The feed-forward activation by its `transformers` name (`gelu`, `gelu_new`, `relu`, ...).
    package var activation: Field<String>
    package var maxPositionEmbeddings: Field<Int>
    /// Token-type rows; `.fixed(0)` for a family without token types.
    package var typeVocabularySize: Field<Int>
    /// The padding index position ids count from (``EmbeddingStep/Positions/afterPaddingIndex``).
    package var paddingIndex: Field<Int>
    package var layerNormEpsilon: Field<Double>
    /// Rows of the relative position bias table; `.fixed(0)` for a family without one.
    package var relativeAttentionBucketCount: Field<Int>
    /// Keys whose value, when present, must be the one given, in the order they are checked
    /// (`position_embedding_type` must be `absolute`: other kinds are a different attention).
    package var requiredValues: [(key: String, value: String)] = []
}

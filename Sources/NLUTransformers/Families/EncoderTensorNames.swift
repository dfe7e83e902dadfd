/// How one family's checkpoints spell the encoder's tensors: the prefix a task model puts before them,
/// the embeddings, the layers, and what the encoder leaves unread. Names are without `.weight` / `.bias`;
/// ``CheckpointTensors`` also accepts the legacy `LayerNorm.gamma` / `beta` spellings.
///
/// A task model (`BertForQuestionAnswering`) stores the encoder under a prefix (`bert.`), a bare encoder
/// (`BertModel`, the `Transformer` module of a sentence-transformers model) without one: ``modelPrefixes``
/// lists both, tried in order.
///
///     let names = DistilBertFamily.tensorNames
///     print(names.layerPrefix + "0." + names.block.query)   // transformer.layer.0.attention.q_lin
package struct EncoderTensorNames: Sendable, Equatable {
    /// The prefixes tried, in order, before every name (`["bert.", ""]`).
    package var modelPrefixes: [String]
    /// `[vocabulary, hidden]`.
    package var wordEmbeddings = "embeddings.word_embeddings"
    /// `[max positions, hidden]`.
    package var positionEmbeddings = "embeddings.position_embeddings"
    /// `[token types, hidden]`; nil for a family without token types.
    package var tokenTypeEmbeddings: String?
    /// The layer norm after the embedding sum.
    package var embeddingNorm = "embeddings.LayerNorm"
    /// What precedes a layer's index and its block's names (`encoder.layer.` → `encoder.layer.3.`).
    package var layerPrefix: String
    /// The names of one layer's block.
    package var block: BlockTensorNames
    /// `[buckets, heads]`: the relative position bias added to every layer's attention scores (MPNet);
    /// nil for a family with absolute positions only.
    package var relativeAttentionBias: String?
    /// The starts of stored names a checkpoint of the family may carry that the encoder does not read
    /// (the pooler, pretraining heads such as BERT's `cls.`): loading leaves them unread without an error.
    package var unread: [String]

    /// A table with the embedding names all four families share (`embeddings.word_embeddings`, ...).
    package init(modelPrefixes: [String], tokenTypeEmbeddings: String? = nil, layerPrefix: String,
                 block: BlockTensorNames, relativeAttentionBias: String? = nil, unread: [String]) {
        self.modelPrefixes = modelPrefixes
        self.tokenTypeEmbeddings = tokenTypeEmbeddings
        self.layerPrefix = layerPrefix
        self.block = block
        self.relativeAttentionBias = relativeAttentionBias
        self.unread = unread
    }
}

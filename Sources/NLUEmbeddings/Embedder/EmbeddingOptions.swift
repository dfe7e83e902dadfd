/// How ``SentenceEmbedder`` runs a collection of texts.
///
///     let vectors = try embedder.embed(texts, options: EmbeddingOptions(batchSize: 64, normalize: false))
public struct EmbeddingOptions: Sendable, Equatable {
    /// Texts per encoder pass (sentence-transformers' `batch_size`, default 32). Texts are sorted
    /// by token count first, so a batch holds texts of similar length and little padding.
    public var batchSize: Int
    /// Whether to scale embeddings to unit length: `nil` does what the model's modules say (a
    /// `Normalize` module), `true` normalizes, `false` skips the model's `Normalize`.
    public var normalize: Bool?
    /// Texts sorted together when embedding a stream: bounds the memory of a stream of any length
    /// (texts beyond it wait for the next window), while keeping batches of similar lengths.
    public var sortWindow: Int

    /// Options with sentence-transformers' defaults.
    public init(batchSize: Int = 32, normalize: Bool? = nil, sortWindow: Int = 4096) {
        self.batchSize = batchSize
        self.normalize = normalize
        self.sortWindow = sortWindow
    }

    /// Throws naming the first option out of range.
    public func validate() throws {
        guard (1...4096).contains(batchSize) else {
            throw SentenceEmbedderError.invalidOption(name: "batch size", value: String(batchSize), expected: "1...4096")
        }
        guard (1...1_000_000).contains(sortWindow) else {
            throw SentenceEmbedderError.invalidOption(name: "sort window", value: String(sortWindow), expected: "1...1000000")
        }
    }
}

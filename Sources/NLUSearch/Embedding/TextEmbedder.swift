/// What turns texts into vectors for a ``DocumentIndex``: a sentence-embedding model, or the
/// model-free ``HashingEmbedder``.
///
/// The index records the embedder's ``identity`` when it is created and refuses to add or search
/// with an embedder that is not the same model (``isSameModel(as:)``), because vectors of two
/// models are not comparable.
///
///     struct MyEmbedder: TextEmbedder {
///         let identity = EmbedderIdentity(name: "my-model", dimension: 3, revision: "1")
///         func embed(_ texts: [String]) throws -> [[Float]] { texts.map { _ in [1, 0, 0] } }
///     }
public protocol TextEmbedder: Sendable {
    /// The model's name, vector dimension and revision, as recorded in an index.
    var identity: EmbedderIdentity { get }

    /// One vector of `identity.dimension` numbers per text, in order.
    func embed(_ texts: [String]) throws -> [[Float]]

    /// Whether this embedder is the model an index recorded as `recorded`, so that its vectors
    /// can be compared with the index's. The default asks for equal identities (name, dimension
    /// and revision): a name is all that tells two built-in or hand-written embedders apart.
    /// ``HashingEmbedder`` keeps it. An embedder whose revision is a fingerprint of the model's
    /// own files (`SentenceIndexEmbedder`) compares the dimension and the revision only, so that
    /// the same files open the index wherever they live and whatever their folder is called.
    ///
    ///     let copy = try SentenceIndexEmbedder(modelDirectory: URL(fileURLWithPath: "backup/minilm"))
    ///     copy.isSameModel(as: index.model!)   // true for a renamed or moved copy of the same files
    func isSameModel(as recorded: EmbedderIdentity) -> Bool
}

extension TextEmbedder {
    public func isSameModel(as recorded: EmbedderIdentity) -> Bool { identity == recorded }

    /// Checks that the index at `location`, whose model is `recorded` (nil: keyword-only), takes
    /// this embedder, as both backends do when opened with one.
    ///
    /// - Throws: ``SearchError/invalidArgument(_:)`` (a keyword-only index takes no embedder),
    ///   ``SearchError/modelMismatch(path:index:given:)`` naming both models.
    public func checkSameModel(as recorded: EmbedderIdentity?, index location: String) throws {
        guard let recorded else {
            throw SearchError.invalidArgument("\(location): the index is keyword-only (created without a model); it takes no embedder")
        }
        guard isSameModel(as: recorded) else { throw SearchError.modelMismatch(path: location, index: recorded, given: identity) }
    }

    /// How many texts go to the embedder at once.
    public static var batchSize: Int { 32 }

    /// The vectors of `texts`, embedded in batches, each checked: one per text, `model.dimension`
    /// numbers, all finite (an index stores nothing else).
    ///
    /// - Parameter progress: called with (texts done, total) after each batch.
    /// - Throws: ``SearchError/badEmbedding(_:)``.
    public func checkedVectors(for texts: [String], model: EmbedderIdentity,
                               progress: ((Int, Int) -> Void)? = nil) throws -> [[Float]] {
        var vectors: [[Float]] = []
        vectors.reserveCapacity(texts.count)
        var start = 0
        while start < texts.count {
            let batch = Array(texts[start..<min(start + Self.batchSize, texts.count)])
            let embedded = try embed(batch)
            guard embedded.count == batch.count else {
                throw SearchError.badEmbedding("\(embedded.count) vectors for \(batch.count) texts")
            }
            for vector in embedded {
                guard vector.count == model.dimension else {
                    throw SearchError.badEmbedding("a vector of \(vector.count) numbers, expected \(model.dimension)")
                }
                guard vector.allSatisfy(\.isFinite) else { throw SearchError.badEmbedding("a vector with NaN or infinity") }
            }
            vectors += embedded
            start += batch.count
            progress?(start, texts.count)
        }
        return vectors
    }
}

/// The name, dimension and revision of an embedding model: two embedders with equal identities
/// give comparable vectors (and an embedder may accept others: ``TextEmbedder/isSameModel(as:)``).
public struct EmbedderIdentity: Sendable, Hashable, Codable, CustomStringConvertible {
    public var name: String
    public var dimension: Int
    public var revision: String

    public init(name: String, dimension: Int, revision: String) {
        self.name = name
        self.dimension = dimension
        self.revision = revision
    }

    public var description: String { "\(name) (dimension \(dimension), revision \(revision))" }
}

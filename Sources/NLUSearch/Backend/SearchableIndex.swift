/// What every index backend offers — the SQLite file (``DocumentIndex``) and PostgreSQL with
/// pgvector (`NLUSearchPostgres.PostgresDocumentIndex`) — so that the CLI, question answering over
/// a collection and applications use either through one API.
///
/// Both chunk with ``Chunker``, check documents with ``IndexDocument/validateBatch(_:)``, embed
/// with ``TextEmbedder/checkedVectors(for:model:progress:)`` and search through one query pipeline
/// over their ``SearchBackend`` primitives (checks, query embedding, ``HybridFusion``): only storage
/// and the two rankings differ.
public protocol SearchableIndex: AnyObject, Sendable {
    /// A file path, or a PostgreSQL URL without its password.
    var location: String { get }
    /// The embedding model the index was built with; nil for a keyword-only index.
    var model: EmbedderIdentity? { get }
    /// Where the model was loaded from at creation, if recorded.
    var modelSource: String? { get }
    var chunking: ChunkingOptions { get }
    /// How chunks and queries become keyword terms: the documents' language, recorded at creation.
    var keywordAnalyzer: KeywordAnalyzer { get }
    /// Whether vector and hybrid search are possible (vectors stored and their embedder given).
    var canSearchVectors: Bool { get }

    /// Adds documents, replacing any with the same id, all in one transaction.
    func add(_ documents: [IndexDocument], progress: ((AddProgress) -> Void)?) throws
    /// Deletes the documents with these ids in one transaction; returns how many were there.
    @discardableResult func delete(ids: [String]) throws -> Int
    func info() throws -> IndexInfo
    /// The `options.k` best chunks for `query`, best first.
    func search(_ query: String, embedding: [Float]?, options: SearchOptions) throws -> [SearchResult]
    /// The vectors of a batch of queries, for ``search(_:embedding:options:)``.
    func embedQueries(_ queries: [String]) throws -> [[Float]]
    func contains(id: String) throws -> Bool
    func documentText(id: String) throws -> String?
}

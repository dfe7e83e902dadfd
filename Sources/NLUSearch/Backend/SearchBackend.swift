/// What an index backend implements so that one query pipeline (``SearchBackend/search(_:embedding:options:)``,
/// in QueryPipeline.swift) serves them all: the two rankings and reading the chunks they found.
/// Checking the query and options, embedding the query, fusing a hybrid search and the errors
/// of a search without vectors are the pipeline's, the same for every backend.
///
/// `Hit` is the backend's own form of a found chunk: the SQLite file ranks row numbers and reads
/// the texts of the few it returns (``DocumentIndex/Candidate``); PostgreSQL returns the whole
/// row with its rank (``SearchResult``).
public protocol SearchBackend: SearchableIndex {
    associatedtype Hit: RankedChunk

    /// The embedder of ``SearchableIndex/model`` the index was opened with; nil without one.
    var embedder: (any TextEmbedder)? { get }

    /// The `limit` chunks best by BM25 for `query`'s terms, among the documents whose metadata
    /// holds every key=value of `filter`; best first, equal scores by ``ChunkKey``.
    func keywordHits(_ query: KeywordQuery, limit: Int, filter: [String: String]) throws -> [Hit]

    /// The `limit` chunks best by cosine with `query` (the model's dimension, finite), among the
    /// documents `filter` keeps; best first, equal scores by ``ChunkKey``. A zero vector has no
    /// direction: no hits.
    func vectorHits(_ query: [Float], limit: Int, filter: [String: String]) throws -> [Hit]

    /// The results of `hits`, in their order and with their scores, each checked against its
    /// document (``SearchResult/checkOffsets(of:inDocument:index:)``).
    func results(for hits: [Hit]) throws -> [SearchResult]
}

/// A chunk one ranking found, as a ``SearchBackend`` hands it to the query pipeline: its key orders
/// ties and fuses the two rankings of a hybrid search, which replaces its score by the fused one.
public protocol RankedChunk {
    var key: ChunkKey { get }
    var score: Double { get set }
}

/// A backend that reads whole rows while ranking (PostgreSQL) ranks the results themselves.
extension SearchResult: RankedChunk {
    public var key: ChunkKey { ChunkKey(documentID: documentID, position: chunk) }
}

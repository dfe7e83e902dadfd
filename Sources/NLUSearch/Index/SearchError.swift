import Foundation

/// Why an index operation was refused. Every message names the file, the id, the line or the
/// argument at fault and what was expected.
public enum SearchError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The file does not exist, is not SQLite, or is not an NLUKit index.
    case notAnIndex(path: String, reason: String)
    /// An index whose rows hold what no NLUKit writes (a damaged or hand-edited file): a chunk whose
    /// offsets lie outside its document, a vector of the wrong size. The reason names the chunk and
    /// its document.
    case damaged(path: String, reason: String)
    /// The index was written by a newer NLUKit.
    case newerSchema(path: String, found: Int, supported: Int)
    /// `create` was asked for a path where a file already is.
    case alreadyExists(path: String)
    /// The embedder's identity differs from the one the index was built with.
    case modelMismatch(path: String, index: EmbedderIdentity, given: EmbedderIdentity)
    /// Vector or hybrid search (or adding to an index with vectors) without an embedder.
    case embedderRequired(String)
    /// Vector search on an index created without an embedding model.
    case noVectors(path: String)
    /// A document the caller supplied is unusable (empty text, duplicate id, bad metadata).
    case invalidDocument(id: String, reason: String)
    /// An argument out of range (k, chunk size, weights...).
    case invalidArgument(String)
    /// The embedder returned vectors of the wrong count or dimension.
    case badEmbedding(String)
    /// SQLite failed (disk full, locked...).
    case storage(path: String, message: String)

    public var description: String {
        switch self {
        case let .notAnIndex(path, reason): return "\(path): not an NLUKit index (\(reason))"
        case let .damaged(path, reason): return "\(path): the index is damaged: \(reason)"
        case let .newerSchema(path, found, supported):
            return "\(path): the index has schema version \(found), newer than this NLUKit reads (\(supported)); upgrade NLUKit"
        case let .alreadyExists(path): return "\(path): something is already there (a file or a directory); an index is only created where nothing is"
        case let .modelMismatch(path, index, given):
            return "\(path): the index was built with \(index), not \(given): vectors of different models cannot be compared"
        case let .embedderRequired(what): return what
        case let .noVectors(path): return "\(path): the index has no embedding model, so only keyword search is possible"
        case let .invalidDocument(id, reason): return "document \"\(id)\": \(reason)"
        case let .invalidArgument(message): return message
        case let .badEmbedding(message): return "embedder: \(message)"
        case let .storage(path, message): return "\(path): \(message)"
        }
    }

    public var errorDescription: String? { description }
}

import Foundation
import NLUSearch
import NLUSearchPostgres

/// Where an index is, as a user names it: a file path (the SQLite backend) or a `postgres://` URL
/// (PostgreSQL with pgvector). Every index command and `qa ask --index` open indexes here, so both
/// backends work the same everywhere.
///
///     let index = try IndexLocation.open("docs.db", needsEmbedder: true, readOnly: true)
///     print(try index.info().documentCount)
public enum IndexLocation {
    /// Opens the index with the embedder it was built with — the model recorded at its creation,
    /// or `model` when given (which must be the same model) — or with none when `needsEmbedder` is
    /// false (keyword search, info, delete: no model is loaded).
    /// `readOnly` (search, info, QA) opens a file index for reading only, so that it also works on a
    /// read-only folder or mount.
    public static func open(_ location: String, model: String? = nil, needsEmbedder: Bool, readOnly: Bool = false) throws -> any SearchableIndex {
        try checkScheme(location)
        guard PostgresLocation.isURL(location) else {
            return try EmbedderLoading.openIndex(at: URL(fileURLWithPath: location), model: model, needsEmbedder: needsEmbedder,
                                                 readOnly: readOnly)
        }
        let plain = try PostgresDocumentIndex(url: location)
        guard let embedder = try EmbedderLoading.recordedEmbedder(for: plain, model: model, needsEmbedder: needsEmbedder) else { return plain }
        return try plain.withEmbedder(embedder)
    }

    /// Creates an empty index there (a file is never replaced; a PostgreSQL schema that holds an
    /// index is refused). `hnsw` is for PostgreSQL only; `keywordAnalyzer` is the documents' language.
    public static func create(_ location: String, embedder: any TextEmbedder, modelSource: String, chunking: ChunkingOptions,
                              hnsw: Bool, keywordAnalyzer: KeywordAnalyzer = .english) throws -> any SearchableIndex {
        try checkScheme(location)
        if PostgresLocation.isURL(location) {
            return try PostgresDocumentIndex.create(url: location, embedder: embedder, modelSource: modelSource, chunking: chunking, hnsw: hnsw,
                                                    keywordAnalyzer: keywordAnalyzer)
        }
        guard !hnsw else { throw SearchError.invalidArgument("--hnsw is for PostgreSQL indexes (postgres://...); a file index is always exact") }
        return try DocumentIndex.create(at: URL(fileURLWithPath: location), embedder: embedder, modelSource: modelSource, chunking: chunking,
                                        keywordAnalyzer: keywordAnalyzer)
    }

    /// A URL of another scheme (`postgress://app:secret@db/x`, `mysql://...`), or a PostgreSQL one mistyped
    /// (`postgres:/app:secret@db/x`), is refused as such, password masked, rather than read as a file path
    /// and echoed whole in "no such file".
    public static func checkScheme(_ location: String) throws {
        if PostgresLocation.looksLikeURL(location) {
            // `postgres:/app:secret@db/d`, `POSTGRES://...`: a mistyped URL, not a file to echo whole in "no such file".
            throw SearchError.invalidArgument("\"\(PostgresLocation.redacted(location))\" is not a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)")
        }
        guard !PostgresLocation.isURL(location), let scheme = location.range(of: "://"),
              location[..<scheme.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              location.first?.isLetter == true else { return }
        throw SearchError.invalidArgument("\(PostgresLocation.redacted(location)): not an index location: give a file path or a postgres:// URL (postgres://USER@HOST:PORT/DATABASE)")
    }

    /// How messages name the index: a file as the DB argument gave it (the path the user typed), a
    /// PostgreSQL URL as the index shows it (without its password).
    public static func name(_ location: String, of index: any SearchableIndex) -> String {
        PostgresLocation.isURL(location) ? index.location : location
    }
}

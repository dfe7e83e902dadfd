import Foundation
import NLUSearch
import PostgresNIO

/// A document index in PostgreSQL with pgvector, behind the same API as the SQLite file
/// (``SearchableIndex``): for collections that outgrow one machine's file, or that several
/// services share.
///
/// Keyword search ranks the chunks' analysed terms (``KeywordAnalyzer``, a `text[]` column with a GIN
/// index) by BM25 computed in SQL exactly as SQLite's FTS5 does (``keywordHits(_:limit:filter:)``):
/// both backends give the same keyword results, scores and order. Vector search uses a
/// `vector(d)` column: exact by default (every row scored by the server, the best candidates
/// re-scored exactly here, so the top k equals the SQLite backend's), or through an HNSW index
/// when created with `hnsw: true` (approximate, faster on large collections). Hybrid search fuses
/// the two with the same fusion code as the SQLite backend (``HybridFusion``).
///
///     let index = try PostgresDocumentIndex.create(url: "postgres://app@127.0.0.1/search", embedder: embedder)
///     try index.add([try IndexDocument(id: "faq-1", text: "To reset your password...")], progress: nil)
///     let results = try index.search("forgot my login", embedding: nil, options: SearchOptions(k: 5))
public final class PostgresDocumentIndex: SearchBackend, @unchecked Sendable {
    public var location: String { session.location.description }
    public let model: EmbedderIdentity?
    public let modelSource: String?
    public let chunking: ChunkingOptions
    /// Whether vector search goes through an HNSW index (approximate) instead of scoring every row.
    public let usesHNSW: Bool
    /// How chunks and queries become keyword terms (the language recorded at creation; English for an
    /// index made before languages were recorded).
    public let keywordAnalyzer: KeywordAnalyzer
    /// The schema version of the index (``latestSchemaVersion``: an older one is upgraded when opened).
    public let schemaVersion: Int
    public let embedder: (any TextEmbedder)?
    let session: PostgresSession
    /// The schema's name, checked by ``PostgresLocation`` (a-z, 0-9, _), quoted for SQL.
    let schema: String

    /// 3: chunks carry their ``KeywordAnalyzer`` terms (`terms text[]`, the SQLite backend's analysis)
    /// and `keyword_length`; `keyword_totals` keeps the counts BM25 needs. Versions 1 and 2 (a
    /// `tsvector` of PostgreSQL's own English analysis) are upgraded in one transaction when opened
    /// (``upgradeIfOlder(_:schema:)``).
    public static let latestSchemaVersion = 3
    static let format = "nlukit-index"

    /// Creates the index's tables in the URL's schema (refusing if an index is there), for
    /// `embedder`'s vectors, or keyword-only when `embedder` is nil.
    ///
    /// - Throws: ``SearchError/invalidArgument(_:)`` (an index is there), ``SearchError/storage(path:message:)``
    ///   (cannot connect: host, port and why; pgvector missing).
    public static func create(url: String, embedder: (any TextEmbedder)?, modelSource: String? = nil,
                              chunking: ChunkingOptions = .default, hnsw: Bool = false,
                              keywordAnalyzer: KeywordAnalyzer = .english) throws -> PostgresDocumentIndex {
        let location = try PostgresLocation(url: url)
        let session = try PostgresSession(location: location)
        let schema = "\"\(location.schema)\""
        if embedder != nil {
            do {
                try session.query("CREATE EXTENSION IF NOT EXISTS vector")
            } catch {
                throw SearchError.storage(path: location.description, message: "pgvector is needed for vectors: \(error)")
            }
        }
        if hnsw && embedder == nil {
            throw SearchError.invalidArgument("an HNSW index needs vectors: give an embedding model")
        }
        try session.transaction {
            if try Self.exists(session, schema: location.schema) {
                throw SearchError.invalidArgument("\(location): schema \(location.schema) already holds an index; an index is only created where none is (use another ?schema=NAME)")
            }
            let vectorType = embedder.map { "vector(\($0.identity.dimension))" } ?? "bytea"
            let statements = [
                "CREATE SCHEMA IF NOT EXISTS \(schema)",
                "CREATE TABLE \(schema).index_info (key text PRIMARY KEY, value text NOT NULL)",
                """
                CREATE TABLE \(schema).documents (
                    number bigserial PRIMARY KEY,
                    id text NOT NULL UNIQUE,
                    text text NOT NULL,
                    metadata jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'))
                """,
                """
                CREATE TABLE \(schema).chunks (
                    number bigserial PRIMARY KEY,
                    document bigint NOT NULL REFERENCES \(schema).documents(number) ON DELETE CASCADE,
                    position integer NOT NULL,
                    start integer NOT NULL,
                    "end" integer NOT NULL,
                    text text NOT NULL,
                    vector \(vectorType),
                    \(keywordColumns.joined(separator: ",\n")),
                    UNIQUE (document, position))
                """,
            ] + keywordStatisticsSchema(schema) + (hnsw ? ["CREATE INDEX chunks_vector_hnsw ON \(schema).chunks USING hnsw (vector vector_cosine_ops)"] : [])
            for statement in statements { try session.query(statement) }
            var settings: [(String, String)] = [
                ("format", format), ("schema_version", String(latestSchemaVersion)),
                ("chunk_size", String(chunking.size)), ("chunk_overlap", String(chunking.overlap)),
                ("vector_index", hnsw ? "hnsw" : "exact"),
            ]
            if let model = embedder?.identity {
                settings += [("model_name", model.name), ("model_dimension", String(model.dimension)), ("model_revision", model.revision)]
            }
            if let modelSource { settings.append(("model_source", modelSource)) }
            settings += keywordAnalyzer.settings.map { ($0.key, $0.value) }
            for (key, value) in settings {
                try session.query("INSERT INTO \(schema).index_info (key, value) VALUES ($1, $2)",
                                  [PostgresData(string: key), PostgresData(string: value)])
            }
        }
        return try PostgresDocumentIndex(session: session, embedder: embedder)
    }

    /// Opens the index at the URL. Give the embedder of the model it was built with to add
    /// documents or search by vector; without one only keyword search works.
    ///
    /// - Throws: ``SearchError/notAnIndex(path:reason:)``, ``SearchError/newerSchema(path:found:supported:)``,
    ///   ``SearchError/modelMismatch(path:index:given:)``, ``SearchError/storage(path:message:)``.
    public convenience init(url: String, embedder: (any TextEmbedder)? = nil) throws {
        try self.init(session: try PostgresSession(location: try PostgresLocation(url: url)), embedder: embedder)
    }

    private convenience init(session: PostgresSession, embedder: (any TextEmbedder)?) throws {
        let location = session.location
        let schema = "\"\(location.schema)\""
        guard try Self.exists(session, schema: location.schema) else {
            throw SearchError.notAnIndex(path: location.description, reason: "schema \(location.schema) holds no index_info table")
        }
        var values: [String: String] = [:]
        for row in try session.query("SELECT key, value FROM \(schema).index_info") {
            let (key, value) = try row.decode((String, String).self)
            values[key] = value
        }
        guard values["format"] == Self.format, var version = values["schema_version"].flatMap(Int.init), version >= 1 else {
            throw SearchError.notAnIndex(path: location.description, reason: "index_info has no format \"\(Self.format)\" with a schema version ≥ 1")
        }
        guard version <= Self.latestSchemaVersion else {
            throw SearchError.newerSchema(path: location.description, found: version, supported: Self.latestSchemaVersion)
        }
        guard let size = values["chunk_size"].flatMap(Int.init), let overlap = values["chunk_overlap"].flatMap(Int.init),
              let chunking = try? ChunkingOptions(size: size, overlap: overlap) else {
            throw SearchError.notAnIndex(path: location.description, reason: "index_info: chunk_size/chunk_overlap missing or out of range")
        }
        var model: EmbedderIdentity?
        if let name = values["model_name"] {
            guard let dimension = values["model_dimension"].flatMap(Int.init), (1...16000).contains(dimension),
                  let revision = values["model_revision"] else {
                throw SearchError.notAnIndex(path: location.description, reason: "index_info: model_dimension (1...16000) or model_revision missing")
            }
            model = EmbedderIdentity(name: name, dimension: dimension, revision: revision)
        }
        if version < Self.latestSchemaVersion {
            version = try Self.upgradeIfOlder(session, schema: schema)
        }
        try embedder?.checkSameModel(as: model, index: location.description)
        self.init(session: session, schema: schema, model: model, modelSource: values["model_source"], chunking: chunking,
                  keywordAnalyzer: try KeywordAnalyzer.recorded(in: values, index: location.description),
                  usesHNSW: values["vector_index"] == "hnsw", schemaVersion: version, embedder: embedder)
    }

    /// This index with `embedder`, on the same connection: for a tool that opens an index without
    /// one, reads which model it records (``model``, ``modelSource``), then loads that model,
    /// without connecting and reading the settings a second time.
    ///
    /// - Throws: ``SearchError/modelMismatch(path:index:given:)``, or ``SearchError/invalidArgument(_:)``
    ///   for a keyword-only index.
    public func withEmbedder(_ embedder: any TextEmbedder) throws -> PostgresDocumentIndex {
        try embedder.checkSameModel(as: model, index: location)
        return PostgresDocumentIndex(session: session, schema: schema, model: model, modelSource: modelSource, chunking: chunking,
                                     keywordAnalyzer: keywordAnalyzer, usesHNSW: usesHNSW, schemaVersion: schemaVersion, embedder: embedder)
    }

    private init(session: PostgresSession, schema: String, model: EmbedderIdentity?, modelSource: String?, chunking: ChunkingOptions,
                 keywordAnalyzer: KeywordAnalyzer, usesHNSW: Bool, schemaVersion: Int, embedder: (any TextEmbedder)?) {
        self.session = session
        self.schema = schema
        self.model = model
        self.modelSource = modelSource
        self.chunking = chunking
        self.keywordAnalyzer = keywordAnalyzer
        self.usesHNSW = usesHNSW
        self.schemaVersion = schemaVersion
        self.embedder = embedder
    }

    static func exists(_ session: PostgresSession, schema: String) throws -> Bool {
        let rows = try session.query("SELECT to_regclass($1) IS NOT NULL", [PostgresData(string: "\"\(schema)\".index_info")])
        return try rows.first?.decode(Bool.self) ?? false
    }

    public var canSearchVectors: Bool { model != nil && embedder != nil }

    public func info() throws -> IndexInfo {
        let row = try session.query("SELECT (SELECT count(*) FROM \(schema).documents), (SELECT count(*) FROM \(schema).chunks)").first
        let (documents, chunks) = try row?.decode((Int, Int).self) ?? (0, 0)
        return IndexInfo(path: location, schemaVersion: schemaVersion, model: model, modelSource: modelSource,
                         chunking: chunking, documentCount: documents, chunkCount: chunks)
    }

    public func contains(id: String) throws -> Bool {
        !(try session.query("SELECT 1 FROM \(schema).documents WHERE id = $1", [PostgresData(string: id)])).isEmpty
    }

    public func documentText(id: String) throws -> String? {
        try session.query("SELECT text FROM \(schema).documents WHERE id = $1", [PostgresData(string: id)]).first?.decode(String.self)
    }
}

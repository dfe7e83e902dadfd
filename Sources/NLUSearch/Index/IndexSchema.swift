import GRDB

/// The tables of an index file, version 2 (docs/search.md describes them for other tools).
///
/// `PRAGMA user_version` holds the schema version; `index_info` holds the format marker, the
/// embedding model's identity and the chunking options as key/value text.
///
/// Version 2 indexes `chunks.keywords`, the chunk's terms as ``KeywordAnalyzer`` gives them (the
/// analysis the PostgreSQL backend stores too), split by FTS5's `ascii` tokenizer on the spaces
/// between them. Version 1 indexed `chunks.text` with FTS5's own `porter unicode61 remove_diacritics 2`;
/// such a file still opens and is searched as it was, and its first write upgrades it
/// (``IndexMigration``).
enum IndexSchema {
    static let version = 2
    /// The oldest version that still opens.
    static let oldestReadable = 1
    static let format = "nlukit-index"

    static let statements = [
        "CREATE TABLE index_info (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
        """
        CREATE TABLE documents (
            number INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            text TEXT NOT NULL,
            metadata TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata) AND json_type(metadata) = 'object'))
        """,
        """
        CREATE TABLE chunks (
            number INTEGER PRIMARY KEY,
            document INTEGER NOT NULL REFERENCES documents(number) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            start INTEGER NOT NULL,
            end INTEGER NOT NULL,
            text TEXT NOT NULL,
            vector BLOB,
            keywords TEXT NOT NULL DEFAULT '',
            UNIQUE (document, position))
        """,
    ] + keywordStatements

    /// The keyword index of version 2, over `chunks.keywords` (created anew by the upgrade from version 1).
    /// External content: the terms are indexed, the column itself is read from `chunks`. The `ascii`
    /// tokenizer splits on the spaces between the analysed terms and changes nothing else (every term
    /// is lower-case already; a non-ASCII character is always part of a token).
    static let keywordStatements = [
        """
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
            keywords, content='chunks', content_rowid='number', tokenize='ascii')
        """,
        """
        CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
            INSERT INTO chunks_fts(rowid, keywords) VALUES (new.number, new.keywords);
        END
        """,
        """
        CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
            INSERT INTO chunks_fts(chunks_fts, rowid, keywords) VALUES ('delete', old.number, old.keywords);
        END
        """,
    ]

    /// Creates the tables and records the settings, in the caller's transaction.
    static func create(in db: Database, model: EmbedderIdentity?, modelSource: String?, chunking: ChunkingOptions,
                       keywordAnalyzer: KeywordAnalyzer = .english) throws {
        for statement in statements { try db.execute(sql: statement) }
        var settings: [(String, String)] = [
            ("format", format),
            ("chunk_size", String(chunking.size)),
            ("chunk_overlap", String(chunking.overlap)),
        ]
        if let model {
            settings += [("model_name", model.name), ("model_dimension", String(model.dimension)),
                         ("model_revision", model.revision)]
        }
        if let modelSource { settings.append(("model_source", modelSource)) }
        settings += keywordAnalyzer.settings.map { ($0.key, $0.value) }
        for (key, value) in settings {
            try db.execute(sql: "INSERT INTO index_info (key, value) VALUES (?, ?)", arguments: [key, value])
        }
        try db.execute(sql: "PRAGMA user_version = \(version)")
    }

    /// The settings recorded in an index, checked.
    struct Settings {
        var version: Int
        var model: EmbedderIdentity?
        var modelSource: String?
        var chunking: ChunkingOptions
        var keywordAnalyzer: KeywordAnalyzer
    }

    /// Reads and checks the version and settings of an existing file.
    static func read(from db: Database, path: String) throws -> Settings {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard try db.tableExists("index_info") else {
            // An empty file is an empty SQLite database to SQLite: say what it is.
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            throw SearchError.notAnIndex(path: path, reason: pages == 0
                ? "an empty file; an index is made by nlu index create"
                : "an SQLite file without the index_info table (another program's database); an index is made by nlu index create")
        }
        if found > version { throw SearchError.newerSchema(path: path, found: found, supported: version) }
        var values: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM index_info") {
            if let key: String = try row.decode(forColumn: "key"), let value: String = try row.decode(forColumn: "value") {
                values[key] = value
            }
        }
        guard values["format"] == format, (oldestReadable...version).contains(found) else {
            throw SearchError.notAnIndex(path: path, reason: "index_info has no format \"\(format)\" with schema version \(oldestReadable)...\(version)")
        }
        guard let size = values["chunk_size"].flatMap(Int.init), let overlap = values["chunk_overlap"].flatMap(Int.init),
              let chunking = try? ChunkingOptions(size: size, overlap: overlap) else {
            throw SearchError.notAnIndex(path: path, reason: "index_info: chunk_size/chunk_overlap missing or out of range")
        }
        var model: EmbedderIdentity?
        if let name = values["model_name"] {
            guard let dimension = values["model_dimension"].flatMap(Int.init), (1...65536).contains(dimension),
                  let revision = values["model_revision"] else {
                throw SearchError.notAnIndex(path: path, reason: "index_info: model_dimension (1...65536) or model_revision missing")
            }
            model = EmbedderIdentity(name: name, dimension: dimension, revision: revision)
        }
        let keywordAnalyzer = try KeywordAnalyzer.recorded(in: values, index: path)
        return Settings(version: found, model: model, modelSource: values["model_source"], chunking: chunking,
                        keywordAnalyzer: keywordAnalyzer)
    }
}

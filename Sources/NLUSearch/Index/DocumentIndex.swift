import Foundation
import GRDB
import NLUCore
import NLUInputOutput

/// A collection of documents in one SQLite file, searchable by keyword (BM25), by meaning (exact
/// cosine over chunk embeddings) and by both (reciprocal-rank fusion).
///
/// The file holds the documents, their chunks with offsets, an FTS5 index and the chunk vectors,
/// with the embedding model's identity: opening it with another model's embedder is refused
/// (``TextEmbedder/isSameModel(as:)``). It
/// is in WAL mode, and every ``add(_:progress:)`` and ``delete(ids:)`` is one transaction, so a
/// process killed in the middle leaves the index as it was.
///
///     let embedder = try HashingEmbedder(dimension: 384)
///     let index = try DocumentIndex.create(at: url, embedder: embedder)
///     try index.add([try IndexDocument(id: "a", text: "The fox jumps over the dog.")])
///     let results = try index.search("jumping fox", options: SearchOptions(k: 3, mode: .hybrid))
public final class DocumentIndex: SearchBackend, @unchecked Sendable {
    /// The file's path (":memory:" for an in-memory index).
    public let path: String
    public var location: String { path }
    /// The embedding model the index was built with; nil for a keyword-only index.
    public let model: EmbedderIdentity?
    /// Where the model was loaded from at creation (a directory or a built-in name), if recorded.
    public let modelSource: String?
    public let chunking: ChunkingOptions
    public let embedder: (any TextEmbedder)?
    /// How chunks and queries become keyword terms: the language recorded at creation (English for
    /// an index made before languages were recorded).
    public let keywordAnalyzer: KeywordAnalyzer
    let database: DatabaseQueue

    // The vectors as one matrix, loaded at the first vector search and kept until the file changes.
    // @unchecked Sendable: the cache is only touched under `cacheLock`.
    let cacheLock = NSLock()
    var vectorCache: VectorCache?

    /// Creates an index file at `url` (refusing if any file is there), for `embedder`'s vectors,
    /// or keyword-only when `embedder` is nil.
    ///
    /// - Parameters:
    ///   - modelSource: recorded so that tools can load the same model later.
    ///   - keywordAnalyzer: the keyword analysis of the documents' language (``KeywordAnalyzer/init(language:)``),
    ///     recorded in the file.
    /// - Throws: ``SearchError/alreadyExists(path:)``, or ``SearchError/storage(path:message:)``.
    public static func create(at url: URL, embedder: (any TextEmbedder)?, modelSource: String? = nil,
                              chunking: ChunkingOptions = .default,
                              keywordAnalyzer: KeywordAnalyzer = .english) throws -> DocumentIndex {
        let path = url.path
        guard !FileManager.default.fileExists(atPath: path) else { throw SearchError.alreadyExists(path: path) }
        try checkCreatable(path)
        // Built beside the target and moved into place, so a failed create leaves nothing behind; named
        // like every atomic writer's temporary (NAME.tmp-PID-RANDOM), so a signal removes it and the next
        // create beside it sweeps what a SIGKILLed one left.
        AtomicFile.removeAbandonedTemporaries(beside: url)
        let temporaryURL = AtomicFile.temporaryURL(beside: url)
        let temporary = temporaryURL.path
        let sideFiles = ["", "-wal", "-shm", "-journal"].map { URL(fileURLWithPath: temporary + $0) }
        // SQLite creates the side files itself, later; the database is created under the registry's lock.
        sideFiles.dropFirst().forEach(TemporaryFiles.register)
        defer {
            for file in sideFiles {
                try? FileManager.default.removeItem(at: file)
                TemporaryFiles.unregister(file)
            }
        }
        try storage(path) {
            let queue = try TemporaryFiles.create(temporaryURL) {
                try DatabaseQueue(path: temporary, configuration: IndexFile.configuration(readonly: false))
            }
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try queue.write { db in
                try IndexSchema.create(in: db, model: embedder?.identity, modelSource: modelSource, chunking: chunking,
                                       keywordAnalyzer: keywordAnalyzer)
            }
            try queue.close()
        }
        do {
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            // Foundation's own text would reach the user: say what happened instead.
            if FileManager.default.fileExists(atPath: path) { throw SearchError.alreadyExists(path: path) }
            throw SearchError.storage(path: path, message: "cannot move the new index into place: \(String(cString: strerror(errno)))")
        }
        return try DocumentIndex(at: url, embedder: embedder)
    }

    /// What SQLite ("unable to open database file") and the final rename ("No such file or
    /// directory") would say less clearly: a missing folder, or a symbolic link to nothing (which
    /// `fileExists` reports as absent, following the link).
    private static func checkCreatable(_ path: String) throws {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            throw SearchError.storage(path: path, message: "a symbolic link to \(target), which does not exist (a dangling link); remove the link, or create the index at its target")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw SearchError.storage(path: path, message: "the folder \(folder) does not exist")
        }
        guard isDirectory.boolValue else { throw SearchError.storage(path: path, message: "\(folder) is not a folder") }
    }

    /// Opens an existing index. Give the embedder of the model it was built with to add
    /// documents or search by vector; without one only keyword search works. `readOnly` gives a
    /// handle that only reads (search, info), which also opens an index this process cannot write:
    /// another user's file, a read-only folder or mount (``IndexFile/open(_:readOnly:writable:)``).
    ///
    /// - Throws: ``SearchError/notAnIndex(path:reason:)`` (missing file, not SQLite, not an
    ///   index), ``SearchError/damaged(path:reason:)`` (truncated or overwritten),
    ///   ``SearchError/newerSchema(path:found:supported:)``, ``SearchError/modelMismatch(path:index:given:)``.
    public convenience init(at url: URL, embedder: (any TextEmbedder)? = nil, readOnly: Bool = false) throws {
        try self.init(at: url, embedder: embedder, readOnly: readOnly, writable: nil)
    }

    /// `writable` stands for the check of the file's permissions, which tests running as root cannot
    /// make fail.
    convenience init(at url: URL, embedder: (any TextEmbedder)?, readOnly: Bool, writable: Bool?) throws {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SearchError.notAnIndex(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw SearchError.notAnIndex(path: path, reason: "a directory") }
        let (queue, settings) = try IndexFile.open(path, readOnly: readOnly, writable: writable)
        try self.init(path: path, database: queue, model: settings.model, modelSource: settings.modelSource,
                      chunking: settings.chunking, keywordAnalyzer: settings.keywordAnalyzer, embedder: embedder)
    }

    /// An index that lives in memory only (for one document's passages, or tests).
    public convenience init(inMemoryWith embedder: (any TextEmbedder)? = nil, chunking: ChunkingOptions = .default) throws {
        let queue = try DatabaseQueue(configuration: IndexFile.configuration(readonly: false))
        try queue.write { db in try IndexSchema.create(in: db, model: embedder?.identity, modelSource: nil, chunking: chunking) }
        try self.init(path: ":memory:", database: queue, model: embedder?.identity, modelSource: nil, chunking: chunking,
                      keywordAnalyzer: .english, embedder: embedder)
    }

    private init(path: String, database: DatabaseQueue, model: EmbedderIdentity?, modelSource: String?, chunking: ChunkingOptions,
                 keywordAnalyzer: KeywordAnalyzer, embedder: (any TextEmbedder)?) throws {
        try embedder?.checkSameModel(as: model, index: path)
        self.path = path
        self.database = database
        self.model = model
        self.modelSource = modelSource
        self.chunking = chunking
        self.keywordAnalyzer = keywordAnalyzer
        self.embedder = embedder
    }

    /// This index with `embedder`, on the same open file: for a tool that opens an index without
    /// one, reads which model it records (``model``, ``modelSource``), then loads that model,
    /// without opening the file a second time.
    ///
    ///     let plain = try DocumentIndex(at: url, readOnly: true)        // no model loaded yet
    ///     let index = try plain.withEmbedder(try EmbedderLoading.load(plain.modelSource!))   // NLUPipelines
    ///
    /// - Throws: ``SearchError/modelMismatch(path:index:given:)``, or ``SearchError/invalidArgument(_:)``
    ///   for a keyword-only index.
    public func withEmbedder(_ embedder: any TextEmbedder) throws -> DocumentIndex {
        try DocumentIndex(path: path, database: database, model: model, modelSource: modelSource, chunking: chunking,
                          keywordAnalyzer: keywordAnalyzer, embedder: embedder)
    }

    /// Runs `body`, turning SQLite's errors into ``SearchError``s that say what they mean for the file
    /// (``IndexFile/error(_:path:)``).
    static func storage<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw IndexFile.error(error, path: path)
        }
    }

    /// Whether vector and hybrid search are possible: the index has vectors and was opened with their embedder.
    public var canSearchVectors: Bool { model != nil && embedder != nil }

    /// Counts and settings.
    public func info() throws -> IndexInfo {
        try Self.storage(path) {
            try database.read { db in
                IndexInfo(path: path, schemaVersion: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? IndexSchema.version, model: model, modelSource: modelSource,
                          chunking: chunking,
                          documentCount: try Int.fetchOne(db, sql: "SELECT count(*) FROM documents") ?? 0,
                          chunkCount: try Int.fetchOne(db, sql: "SELECT count(*) FROM chunks") ?? 0)
            }
        }
    }

    /// Whether a document with this id is in the index.
    public func contains(id: String) throws -> Bool {
        try Self.storage(path) {
            try database.read { db in try Bool.fetchOne(db, sql: "SELECT 1 FROM documents WHERE id = ?", arguments: [id]) ?? false }
        }
    }

    /// The text of the document with this id, or nil.
    public func documentText(id: String) throws -> String? {
        try Self.storage(path) {
            try database.read { db in try String.fetchOne(db, sql: "SELECT text FROM documents WHERE id = ?", arguments: [id]) }
        }
    }
}

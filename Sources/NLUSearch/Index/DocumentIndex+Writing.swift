import Foundation
import GRDB

extension DocumentIndex {
    /// Adds documents (replacing any with the same id) in one transaction: all of them or, when
    /// anything fails or the process dies, none. Chunks are embedded before the transaction starts.
    ///
    /// - Parameter progress: called as chunks are embedded, then as documents are written.
    /// - Throws: ``SearchError/invalidDocument(id:reason:)`` for an empty id or text or an id given
    ///   twice; ``SearchError/embedderRequired(_:)`` when the index has vectors and no embedder
    ///   was given; ``SearchError/badEmbedding(_:)``.
    public func add(_ documents: [IndexDocument], progress: ((AddProgress) -> Void)? = nil) throws {
        try IndexDocument.validateBatch(documents)
        if model != nil, embedder == nil {
            throw SearchError.embedderRequired("\(path): adding to an index with vectors needs the embedder of \(model.map(String.init(describing:)) ?? "")")
        }
        let chunker = Chunker(options: chunking)
        let chunksByDocument = documents.map { chunker.chunks(of: $0.text) }
        let vectors = try embed(chunksByDocument.flatMap { $0.map(\.text) }) { done, total in
            progress?(AddProgress(phase: .embedding, done: done, total: total))
        }

        try Self.storage(path) {
            try database.write { db in
                try IndexMigration.upgrade(db) { done, total in progress?(AddProgress(phase: .upgrading, done: done, total: total)) }
                var vectorIndex = 0
                for (written, (document, chunks)) in zip(documents, chunksByDocument).enumerated() {
                    if written.isMultiple(of: 500) {
                        progress?(AddProgress(phase: .writing, done: written, total: documents.count))
                    }
                    try Self.deleteDocument(id: document.id, in: db)
                    try db.execute(sql: "INSERT INTO documents (id, text, metadata) VALUES (?, ?, ?)",
                                   arguments: [document.id, document.text, document.metadataJSON])
                    let documentNumber = db.lastInsertedRowID
                    for chunk in chunks {
                        let blob = vectors.map { Self.blob($0[vectorIndex]) }
                        vectorIndex += 1
                        try db.execute(sql: """
                            INSERT INTO chunks (document, position, start, end, text, vector, keywords) VALUES (?, ?, ?, ?, ?, ?, ?)
                            """, arguments: [documentNumber, chunk.position, chunk.start, chunk.end, chunk.text, blob,
                                             keywordAnalyzer.analysedText(chunk.text)])
                    }
                }
            }
        }
        invalidateVectors()
        progress?(AddProgress(phase: .writing, done: documents.count, total: documents.count))
    }

    /// Deletes the documents with these ids, in one transaction; returns how many were there.
    @discardableResult
    public func delete(ids: [String]) throws -> Int {
        let removed = try Self.storage(path) {
            try database.write { db in
                try IndexMigration.upgrade(db)
                var removed = 0
                for id in Set(ids) where try Self.deleteDocument(id: id, in: db) { removed += 1 }
                return removed
            }
        }
        invalidateVectors()
        return removed
    }

    @discardableResult
    static func deleteDocument(id: String, in db: Database) throws -> Bool {
        guard let number = try Int64.fetchOne(db, sql: "SELECT number FROM documents WHERE id = ?", arguments: [id]) else {
            return false
        }
        // Chunks first and explicitly, so the FTS trigger sees each deleted row.
        try db.execute(sql: "DELETE FROM chunks WHERE document = ?", arguments: [number])
        try db.execute(sql: "DELETE FROM documents WHERE number = ?", arguments: [number])
        return true
    }

    /// The vectors of `texts` (nil for a keyword-only index), checked for count, dimension and finiteness.
    func embed(_ texts: [String], progress: ((Int, Int) -> Void)? = nil) throws -> [[Float]]? {
        guard let model, let embedder else { return nil }
        return try embedder.checkedVectors(for: texts, model: model, progress: progress)
    }

    /// Little-endian F32 bytes, as stored in `chunks.vector`.
    static func blob(_ vector: [Float]) -> Data {
        var data = Data(capacity: vector.count * 4)
        for value in vector {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }
}

/// How far an ``DocumentIndex/add(_:progress:)`` has come: chunks embedded, then (an index of an older
/// schema only) its chunks re-analysed, then documents written (inside the transaction: until the
/// last, nothing is visible to others).
public struct AddProgress: Sendable, Equatable {
    public enum Phase: String, Sendable { case embedding, upgrading, writing }
    public var phase: Phase
    public var done: Int
    public var total: Int

    public init(phase: Phase, done: Int, total: Int) {
        self.phase = phase
        self.done = done
        self.total = total
    }
}

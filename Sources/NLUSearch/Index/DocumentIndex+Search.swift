import Foundation
import GRDB

/// The SQLite backend's search primitives (``SearchBackend``); the query pipeline over them is QueryPipeline.swift.
extension DocumentIndex {
    // MARK: Keyword

    /// FTS5 query text: every term of `query` quoted (so no word is read as an operator), any one may
    /// match, each once (``KeywordQuery``: FTS5 pairs every OR-ed phrase with every other for each row,
    /// so repeats cost the square of the query's length). Schema 2 looks up the ``KeywordAnalyzer``
    /// terms; a version 1 file (not yet upgraded by a write) the plain ``KeywordTerms`` its porter
    /// tokenizer stems, each once too.
    static func ftsQuery(_ query: KeywordQuery, schemaVersion: Int = IndexSchema.version) throws -> String? {
        let terms = schemaVersion >= 2 ? query.terms : try KeywordQuery(query.text, analysis: { KeywordTerms.terms($0) }).terms
        guard !terms.isEmpty else { return nil }
        return terms.map { "\"\($0)\"" }.joined(separator: " OR ")
    }

    /// BM25 (FTS5's bm25(): k1 1.2, b 0.75, idf ln((N − n + 0.5)/(n + 0.5)) floored at 1e-6, a chunk's
    /// length its number of terms), best first, ties by document id then chunk.
    public func keywordHits(_ query: KeywordQuery, limit: Int, filter: [String: String]) throws -> [Candidate] {
        let (filterSQL, filterArguments) = Self.filterClause(filter)
        let sql = """
            SELECT c.number, d.id, c.position, bm25(chunks_fts) AS rank
            FROM chunks_fts JOIN chunks c ON c.number = chunks_fts.rowid JOIN documents d ON d.number = c.document
            WHERE chunks_fts MATCH ?\(filterSQL)
            ORDER BY rank, d.id, c.position LIMIT ?
            """
        return try Self.storage(path) {
            try database.read { db in
                // Read in the same transaction as the search: another process may have upgraded the file.
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? IndexSchema.version
                guard let match = try Self.ftsQuery(query, schemaVersion: version) else { return [] }
                var arguments: [(any DatabaseValueConvertible)?] = [match]
                arguments += filterArguments
                arguments.append(limit)
                return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                    // FTS5's bm25() is negated so that better matches sort first; we report it positive.
                    // decode(atIndex:) throws where row[i] would trap on a NULL or a wrong type (a hand-edited file).
                    Candidate(number: try row.decode(atIndex: 0),
                              key: ChunkKey(documentID: try row.decode(atIndex: 1), position: try row.decode(atIndex: 2)),
                              score: -(try row.decode(Double.self, atIndex: 3)))
                }
            }
        }
    }

    /// SQL that keeps documents (`d`) whose metadata matches every key=value, and its arguments.
    static func filterClause(_ filter: [String: String]) -> (String, [(any DatabaseValueConvertible)?]) {
        var sql = ""
        var arguments: [(any DatabaseValueConvertible)?] = []
        for (key, value) in filter.sorted(by: { $0.key < $1.key }) {
            // JSON true/false/null compare as those words, numbers as JSON writes them.
            sql += """
                 AND EXISTS (SELECT 1 FROM json_each(d.metadata) AS m WHERE m.key = ? AND
                (CASE m.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null'
                 ELSE CAST(m.atom AS TEXT) END) = ?)
                """
            arguments += [key, value]
        }
        return (sql, arguments)
    }

    // MARK: Vector

    /// By cosine over the vectors in memory (``loadedVectors()``), ties by document id then chunk.
    public func vectorHits(_ query: [Float], limit: Int, filter: [String: String]) throws -> [Candidate] {
        let cache = try loadedVectors()
        // A zero query vector (no term the model knows: "!!!" for the hashing embedder) has no
        // direction: every chunk's cosine with it is 0, so any order would be arbitrary. No vector
        // hits; a hybrid search then ranks by its keyword side alone.
        guard !VectorMatrix.isZero(query) else { return [] }
        var allowed: [Bool]?
        if !filter.isEmpty {
            let (filterSQL, filterArguments) = Self.filterClause(filter)
            let numbers = try Self.storage(path) {
                try database.read { db in
                    try Int64.fetchAll(db, sql: "SELECT c.number FROM chunks c JOIN documents d ON d.number = c.document WHERE 1\(filterSQL)",
                                       arguments: StatementArguments(filterArguments))
                }
            }
            var mask = [Bool](repeating: false, count: cache.matrix.rowCount)
            for number in numbers { if let row = cache.rowOfChunk[number] { mask[row] = true } }
            allowed = mask
        }
        let top = cache.matrix.top(limit, for: query, where: allowed.map { mask in { mask[$0] } })
        return top.map { Candidate(number: cache.chunkNumbers[$0.row], key: cache.keys[$0.row], score: Double($0.score)) }
    }

    /// The vector matrix, loaded once and reloaded only when the file changed since.
    func loadedVectors() throws -> VectorCache {
        guard let model else { throw SearchError.noVectors(path: path) }
        cacheLock.lock()
        defer { cacheLock.unlock() }
        return try Self.storage(path) {
            try database.read { db in
                let dataVersion = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                if let cache = vectorCache, cache.dataVersion == dataVersion { return cache }
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM chunks") ?? 0
                var cache = VectorCache(matrix: VectorMatrix(dimension: model.dimension), dataVersion: dataVersion)
                cache.matrix.reserve(rows: count)
                cache.chunkNumbers.reserveCapacity(count)
                cache.keys.reserveCapacity(count)
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT c.number, d.id, c.position, c.vector FROM chunks c JOIN documents d ON d.number = c.document
                    ORDER BY d.id, c.position
                    """)
                while let row = try rows.next() {
                    let number: Int64 = try row.decode(atIndex: 0)
                    let key = ChunkKey(documentID: try row.decode(atIndex: 1), position: try row.decode(atIndex: 2))
                    // Read the BLOB in place; a vector of the wrong size means the file was edited by hand.
                    let ok = try row.withUnsafeData(atIndex: 3) { data -> Bool in
                        guard let data, data.count == model.dimension * 4 else { return false }
                        data.withUnsafeBytes { cache.matrix.append(bytes: $0) }
                        return true
                    }
                    guard ok else {
                        throw SearchError.damaged(path: path, reason: "chunk \(key.position) of \"\(key.documentID)\" has no vector of \(model.dimension) F32 numbers")
                    }
                    cache.rowOfChunk[number] = cache.chunkNumbers.count
                    cache.chunkNumbers.append(number)
                    cache.keys.append(key)
                }
                // Large collections are scanned in INT8 (a quarter of the bytes), re-ranked exactly.
                if cache.matrix.rowCount >= VectorMatrix.quantizationThreshold { cache.matrix.quantize() }
                vectorCache = cache
                return cache
            }
        }
    }

    func invalidateVectors() {
        cacheLock.lock()
        vectorCache = nil
        cacheLock.unlock()
    }

    // MARK: Results

    /// The chunk rows of `candidates`, in their order, each checked against its document
    /// (``SearchResult/checkOffsets(of:inDocument:index:)``: each document's text read once).
    public func results(for candidates: [Candidate]) throws -> [SearchResult] {
        guard !candidates.isEmpty else { return [] }
        func placeholders(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ",") }
        return try Self.storage(path) {
            try database.read { db in
                var byNumber: [Int64: (row: Row, document: Int64)] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT number, start, end, text, document FROM chunks WHERE number IN (\(placeholders(candidates.count)))",
                                            arguments: StatementArguments(candidates.map(\.number))) {
                    byNumber[try row.decode(atIndex: 0)] = (row, try row.decode(atIndex: 4))
                }
                var results: [SearchResult] = []
                var documentOf: [Int64] = []
                results.reserveCapacity(candidates.count)
                for candidate in candidates {
                    guard let (row, document) = byNumber[candidate.number] else { continue }
                    results.append(SearchResult(documentID: candidate.key.documentID, chunk: candidate.key.position, score: candidate.score,
                                                start: try row.decode(atIndex: 1), end: try row.decode(atIndex: 2), text: try row.decode(atIndex: 3)))
                    documentOf.append(document)
                }
                // One document in memory at a time.
                for document in Set(documentOf) {
                    let text = try String.fetchOne(db, sql: "SELECT text FROM documents WHERE number = ?", arguments: [document])
                    try SearchResult.checkOffsets(of: results.indices.filter { documentOf[$0] == document }.map { results[$0] },
                                                  inDocument: text, index: path)
                }
                return results
            }
        }
    }
}

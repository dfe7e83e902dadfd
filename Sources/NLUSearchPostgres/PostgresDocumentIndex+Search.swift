import NLUSearch
import PostgresNIO

/// The PostgreSQL backend's search primitives (``SearchBackend``); the query pipeline over them is NLUSearch's.
extension PostgresDocumentIndex {
    /// `hits` (whole rows, read while ranking), each checked against its document
    /// (``SearchResult/checkOffsets(of:inDocument:index:)``): each document's text read once, one at a time.
    public func results(for hits: [SearchResult]) throws -> [SearchResult] {
        for id in Set(hits.map(\.documentID)) {
            var text: String?
            for row in try session.query("SELECT text FROM \(schema).documents WHERE id = $1", [PostgresData(string: id)]) {
                text = try row.decode(String.self)
            }
            try SearchResult.checkOffsets(of: hits.filter { $0.documentID == id }, inDocument: text, index: location)
        }
        return hits
    }

    /// SQL that keeps documents (`d`) whose metadata matches every key=value, as the SQLite backend
    /// compares (JSON true/false/null as those words, numbers as JSON writes them), appending its binds.
    static func filterClause(_ filter: [String: String], binds: inout [PostgresData]) -> String {
        var sql = ""
        for (key, value) in filter.sorted(by: { $0.key < $1.key }) {
            binds.append(PostgresData(string: key))
            let k = binds.count
            binds.append(PostgresData(string: value))
            sql += " AND (CASE jsonb_typeof(d.metadata -> $\(k)) WHEN 'null' THEN 'null' ELSE d.metadata ->> $\(k) END) = $\(k + 1)"
        }
        return sql
    }

    // MARK: Keyword

    /// BM25 over the chunks' analysed terms (``bm25SQL(filterSQL:limit:)``), the same terms and the same
    /// formula as the SQLite backend's FTS5; any query term may match, each counted once.
    public func keywordHits(_ query: KeywordQuery, limit: Int, filter: [String: String]) throws -> [SearchResult] {
        let terms = query.terms
        guard !terms.isEmpty else { return [] }
        var binds = [PostgresData(array: terms.map { PostgresData(string: $0) }, elementType: .text)]
        let filterSQL = Self.filterClause(filter, binds: &binds)
        binds.append(PostgresData(int64: Int64(limit)))
        return try session.query(bm25SQL(filterSQL: filterSQL, limit: binds.count), binds).map { row in
            let (id, position, score, start, end, text) = try row.decode((String, Int, Double, Int, Int, String).self)
            return SearchResult(documentID: id, chunk: position, score: score, start: start, end: end, text: text)
        }
    }

    // MARK: Vector

    /// The exact top `limit` by cosine, as the SQLite backend computes it (double precision over
    /// the F32 vectors scaled to unit length, ties by id then chunk).
    ///
    /// The server orders rows by pgvector's cosine distance, computed in F32, whose error is at
    /// most β. The rows it returns are re-scored exactly here; every row it did not return has an
    /// exact score ≤ 1 − (last distance returned) + β. When the k-th exact score is above that, no
    /// row left out could rank, or tie, in the top k; otherwise the query is repeated with four
    /// times as many rows. With an HNSW index the server's candidates are approximate, and the
    /// result is the exact order of those candidates.
    public func vectorHits(_ query: [Float], limit: Int, filter: [String: String]) throws -> [SearchResult] {
        // A zero query vector has no direction (pgvector's cosine distance to it is NaN): no vector
        // hits, as in the SQLite backend.
        guard !VectorMatrix.isZero(query) else { return [] }
        let unitQuery = VectorMatrix.normalized(query)
        // pgvector's float sums (dot product and two norms) then a division: a few d·u at most.
        let beta = 4 * Double(unitQuery.count + 2) / Double(1 << 24) + 1e-6
        var fetch = limit + 32
        while true {
            var binds = [PostgresData(string: Self.vectorLiteral(query))]
            let filterSQL = Self.filterClause(filter, binds: &binds)
            binds.append(PostgresData(int64: Int64(fetch)))
            let sql = """
                SELECT d.id, c.position, (c.vector <=> $1::vector)::float8 AS distance, c.vector::text, c.start, c."end", c.text
                FROM \(schema).chunks c JOIN \(schema).documents d ON d.number = c.document
                WHERE c.vector IS NOT NULL\(filterSQL)
                ORDER BY c.vector <=> $1::vector, d.id COLLATE "C", c.position LIMIT $\(binds.count)
                """
            let rows = usesHNSW ? try session.transaction { () -> [PostgresRow] in
                try session.query("SET LOCAL hnsw.ef_search = \(min(1000, max(40, fetch)))")
                return try session.query(sql, binds)
            } : try session.query(sql, binds)
            var scored: [(result: SearchResult, key: ChunkKey, exact: Double)] = []
            var lastDistance = -Double.infinity
            for row in rows {
                let (id, position, distance, vectorText, start, end, text) = try row.decode((String, Int, Double?, String, Int, Int, String).self)
                guard let vector = Self.parseVector(vectorText), vector.count == unitQuery.count else {
                    throw SearchError.damaged(path: location, reason: "chunk \(position) of \"\(id)\" has no vector of \(unitQuery.count) numbers")
                }
                let unit = VectorMatrix.normalized(vector)
                var dot = 0.0
                for index in 0..<unit.count { dot += Double(unit[index]) * Double(unitQuery[index]) }
                if let distance, distance.isFinite { lastDistance = max(lastDistance, distance) }
                // Reported as F32, as the SQLite backend reports its scores.
                scored.append((SearchResult(documentID: id, chunk: position, score: Double(Float(dot)), start: start, end: end, text: text),
                               ChunkKey(documentID: id, position: position), dot))
            }
            scored.sort { $0.exact != $1.exact ? $0.exact > $1.exact : $0.key < $1.key }
            let top = scored.prefix(limit)
            let complete = rows.count < fetch || usesHNSW || fetch >= 1_000_000
            if complete || (top.count == limit && top[top.endIndex - 1].exact > 1 - lastDistance + beta) { return top.map(\.result) }
            fetch *= 4
        }
    }
}

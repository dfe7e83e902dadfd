import NLUSearch
import PostgresNIO

extension PostgresDocumentIndex {
    /// Rows per multi-row INSERT (PostgreSQL takes at most 65,535 parameters per statement).
    static let insertBatch = 1000

    /// Adds documents (replacing any with the same id) in one transaction, as the SQLite backend does.
    public func add(_ documents: [IndexDocument], progress: ((AddProgress) -> Void)? = nil) throws {
        try IndexDocument.validateBatch(documents)
        if model != nil, embedder == nil {
            throw SearchError.embedderRequired("\(location): adding to an index with vectors needs the embedder of \(model.map(String.init(describing:)) ?? "")")
        }
        let chunker = Chunker(options: chunking)
        let chunksByDocument = documents.map { chunker.chunks(of: $0.text) }
        var vectors: [[Float]]?
        if let model, let embedder {
            vectors = try embedder.checkedVectors(for: chunksByDocument.flatMap { $0.map(\.text) }, model: model) { done, total in
                progress?(AddProgress(phase: .embedding, done: done, total: total))
            }
        }
        try session.transaction {
            let ids = documents.map(\.id)
            for start in stride(from: 0, to: ids.count, by: Self.insertBatch) {
                let batch = ids[start..<min(start + Self.insertBatch, ids.count)]
                try session.query("DELETE FROM \(schema).documents WHERE id = ANY($1)",
                                  [PostgresData(array: batch.map { PostgresData(string: $0) }, elementType: .text)])
            }
            var numberOf: [String: Int64] = [:]
            for start in stride(from: 0, to: documents.count, by: Self.insertBatch) {
                progress?(AddProgress(phase: .writing, done: start, total: documents.count))
                let batch = documents[start..<min(start + Self.insertBatch, documents.count)]
                var binds: [PostgresData] = []
                let rows = batch.map { document -> String in
                    binds += [PostgresData(string: document.id), PostgresData(string: document.text), PostgresData(string: document.metadataJSON)]
                    return "($\(binds.count - 2), $\(binds.count - 1), $\(binds.count)::jsonb)"
                }
                for row in try session.query("INSERT INTO \(schema).documents (id, text, metadata) VALUES \(rows.joined(separator: ", ")) RETURNING number, id", binds) {
                    let (number, id) = try row.decode((Int64, String).self)
                    numberOf[id] = number
                }
            }
            var pending: [PostgresData] = []
            var tuples: [String] = []
            func flush() throws {
                guard !tuples.isEmpty else { return }
                try session.query("INSERT INTO \(schema).chunks (document, position, start, \"end\", text, terms, vector) VALUES \(tuples.joined(separator: ", "))", pending)
                pending.removeAll(keepingCapacity: true)
                tuples.removeAll(keepingCapacity: true)
            }
            var vectorIndex = 0
            for (document, chunks) in zip(documents, chunksByDocument) {
                guard let number = numberOf[document.id] else { continue }
                for chunk in chunks {
                    pending += [PostgresData(int64: number), PostgresData(int64: Int64(chunk.position)), PostgresData(int64: Int64(chunk.start)),
                                PostgresData(int64: Int64(chunk.end)), PostgresData(string: chunk.text),
                                PostgresData(string: keywordAnalyzer.analysedText(chunk.text))]
                    let n = pending.count
                    // The terms as the SQLite backend stores them (string_to_array of '' is the empty array).
                    var tuple = "($\(n - 5), $\(n - 4), $\(n - 3), $\(n - 2), $\(n - 1), string_to_array($\(n), ' ')"
                    if let vectors {
                        pending.append(PostgresData(string: Self.vectorLiteral(vectors[vectorIndex])))
                        tuple += ", $\(pending.count)::vector)"
                    } else {
                        tuple += ", NULL)"
                    }
                    vectorIndex += 1
                    tuples.append(tuple)
                    if tuples.count == Self.insertBatch { try flush() }
                }
            }
            try flush()
        }
        progress?(AddProgress(phase: .writing, done: documents.count, total: documents.count))
    }

    @discardableResult
    public func delete(ids: [String]) throws -> Int {
        try session.transaction {
            try session.query("DELETE FROM \(schema).documents WHERE id = ANY($1) RETURNING 1",
                              [PostgresData(array: Array(Set(ids)).map { PostgresData(string: $0) }, elementType: .text)]).count
        }
    }

    /// pgvector's text form, `[x1,x2,...]`: Swift prints the shortest digits that read back as the same F32.
    static func vectorLiteral(_ vector: [Float]) -> String {
        "[" + vector.map { "\($0)" }.joined(separator: ",") + "]"
    }

    /// The numbers of pgvector's text form.
    static func parseVector(_ text: String) -> [Float]? {
        guard text.hasPrefix("["), text.hasSuffix("]") else { return nil }
        let numbers = text.dropFirst().dropLast().split(separator: ",").map { Float(String($0)) }
        return numbers.contains(nil) ? nil : numbers.compactMap { $0 }
    }
}

import Foundation

/// A document to index: a unique id, its text, and optional metadata (a JSON object) that search
/// filters can test.
///
///     let document = try IndexDocument(id: "faq-12", text: "To reset your password...",
///                                      metadataJSON: #"{"lang": "en"}"#)
public struct IndexDocument: Sendable, Equatable {
    public var id: String
    public var text: String
    /// A JSON object, as text ("{}" when there is none).
    public var metadataJSON: String

    /// - Throws: ``SearchError/invalidDocument(id:reason:)`` when `metadataJSON` is not a JSON object.
    public init(id: String, text: String, metadataJSON: String = "{}") throws {
        guard let data = metadataJSON.data(using: .utf8),
              (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw SearchError.invalidDocument(id: id, reason: "metadata must be a JSON object, got \(metadataJSON.prefix(80))")
        }
        self.id = id
        self.text = text
        self.metadataJSON = metadataJSON
    }

    /// Checks the documents of one add, before anything is written: no empty id, no id twice,
    /// no empty text, no NUL character (U+0000) in an id or a text: neither backend can store one
    /// (SQLite's text ends at it, PostgreSQL refuses it), and a text cut there would no longer hold
    /// its chunks' offsets.
    ///
    /// - Throws: ``SearchError/invalidDocument(id:reason:)`` naming the document.
    public static func validateBatch(_ documents: [IndexDocument]) throws {
        var seen = Set<String>()
        for document in documents {
            guard !document.id.isEmpty else { throw SearchError.invalidDocument(id: "", reason: "the id is empty") }
            guard seen.insert(document.id).inserted else {
                throw SearchError.invalidDocument(id: document.id, reason: "the id appears twice in one add")
            }
            guard document.text.contains(where: { !$0.isWhitespace }) else {
                throw SearchError.invalidDocument(id: document.id, reason: "the text is empty")
            }
            for (field, value) in [("id", document.id), ("text", document.text)] where value.unicodeScalars.contains("\u{0}") {
                throw SearchError.invalidDocument(id: document.id.replacingOccurrences(of: "\u{0}", with: "\\u0000"),
                                                  reason: "the \(field) holds a NUL character (U+0000), which an index cannot store")
            }
        }
    }
}

/// One result of a search: a chunk of a document, its score, and where it lies in the document.
public struct SearchResult: Sendable, Equatable {
    public var documentID: String
    /// The chunk's position in its document (0, 1, ...).
    public var chunk: Int
    /// Keyword: BM25 (higher is better); vector: cosine similarity; hybrid: the fused score.
    public var score: Double
    /// Unicode-scalar offsets of the chunk in its document.
    public var start: Int
    public var end: Int
    public var text: String

    public init(documentID: String, chunk: Int, score: Double, start: Int, end: Int, text: String) {
        self.documentID = documentID
        self.chunk = chunk
        self.score = score
        self.start = start
        self.end = end
        self.text = text
    }
}

extension SearchResult {
    /// Checks the chunk row this result was read from against its document, `documentLength`
    /// Unicode scalars long: 0 ≤ `start` ≤ `end` ≤ `documentLength`, and `text` the `end − start`
    /// scalars between them (as ``Chunker`` writes every chunk), `documentSlice` being what the
    /// database cut out of the document there. A damaged or hand-edited index can hold anything in
    /// these columns: slicing the document with out-of-range offsets would trap, and offsets shifted
    /// by a few scalars would point a caller at text other than the result's. Both backends check
    /// every result they return.
    ///
    /// - Throws: ``SearchError/damaged(path:reason:)`` naming `location`, the chunk and its document.
    public func checkOffsets(documentLength: Int, documentSlice: String?, index location: String) throws {
        let problem: String
        if start < 0 || end < start {
            problem = "has the offsets \(start)..<\(end), which are no range in a document (0 ≤ start ≤ end)"
        } else if end > documentLength {
            problem = "has the offsets \(start)..<\(end), beyond the end of its document (\(documentLength) Unicode scalars)"
        } else if text.unicodeScalars.count != end - start {
            problem = "has the offsets \(start)..<\(end) (\(end - start) Unicode scalars) but a text of \(text.unicodeScalars.count)"
        } else if !(documentSlice?.unicodeScalars.elementsEqual(text.unicodeScalars) ?? false) {
            // Scalar by scalar: String's == would take "é" and "e" + U+0301 for the same text.
            problem = "has the offsets \(start)..<\(end), where its document does not hold its text"
        } else {
            return
        }
        throw SearchError.damaged(path: location, reason: "chunk \(chunk) of \"\(documentID)\" \(problem)")
    }

    /// ``checkOffsets(documentLength:documentSlice:index:)`` for every result of one document, `text`
    /// (nil when the index has no such document), in one pass over its UTF-8: the slices come from
    /// that pass, so a long document is read once per search, whatever the number of its results
    /// (SQL's `substr` read the whole text again for every result: 11 ms a result in a 17 MB document).
    public static func checkOffsets(of results: [SearchResult], inDocument text: String?, index location: String) throws {
        guard var text else {
            for result in results { try result.checkOffsets(documentLength: 0, documentSlice: nil, index: location) }
            return
        }
        // The scalar offsets the results' ranges need, in order; a scalar starts at every byte that is
        // not a UTF-8 continuation byte (10xxxxxx).
        let boundaries = Set(results.filter { $0.start >= 0 && $0.end >= $0.start }.flatMap { [$0.start, $0.end] }).sorted()
        let (length, slices) = text.withUTF8 { bytes -> (Int, [Int: Int]) in
            var byteOffset: [Int: Int] = [:]
            var scalars = 0, next = 0
            for position in 0..<bytes.count where bytes[position] & 0xC0 != 0x80 {
                while next < boundaries.count && boundaries[next] == scalars {
                    byteOffset[boundaries[next]] = position
                    next += 1
                }
                scalars += 1
            }
            if next < boundaries.count && boundaries[next] == scalars { byteOffset[scalars] = bytes.count }
            return (scalars, byteOffset)
        }
        for result in results {
            var slice: String?
            if let start = slices[result.start], let end = slices[result.end], start <= end {
                slice = text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
            }
            try result.checkOffsets(documentLength: length, documentSlice: slice, index: location)
        }
    }
}

/// What an index holds and how it was built.
public struct IndexInfo: Sendable, Equatable {
    public var path: String
    public var schemaVersion: Int
    /// Nil for a keyword-only index.
    public var model: EmbedderIdentity?
    /// Where the model was loaded from when the index was created (a directory, or a built-in name).
    public var modelSource: String?
    public var chunking: ChunkingOptions
    public var documentCount: Int
    public var chunkCount: Int

    public init(path: String, schemaVersion: Int, model: EmbedderIdentity?, modelSource: String?, chunking: ChunkingOptions,
                documentCount: Int, chunkCount: Int) {
        self.path = path
        self.schemaVersion = schemaVersion
        self.model = model
        self.modelSource = modelSource
        self.chunking = chunking
        self.documentCount = documentCount
        self.chunkCount = chunkCount
    }
}

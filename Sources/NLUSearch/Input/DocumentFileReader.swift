import Foundation
import NLUCore
import NLUInputOutput

/// Reads the documents of files for ``DocumentIndex/add(_:progress:)``: JSONL (one
/// `{"id": ..., "text": ..., "metadata": {...}}` per line, metadata optional) or a plain `.txt` /
/// `.md` file, which is one document whose id is the path as given; and the same from a stream
/// (standard input), whose bytes the caller reads (``read(stream:named:documentID:)``).
///
/// Errors name the file (or stream) and line and say what was expected; an id given twice (in one
/// file or across the files of one add) names both places.
///
///     var reader = DocumentFileReader()
///     let documents = try reader.read(path: "faq.jsonl") + reader.read(path: "notes/setup.md")
public struct DocumentFileReader {
    // Where each id was first read, to name both places when one comes again.
    private var seen: [String: String] = [:]

    public init() {}

    /// What a source holds.
    enum Format {
        /// One `{"id", "text", "metadata"}` object per line.
        case jsonl
        /// The whole text is one document with this id.
        case document(id: String)
    }

    /// The documents of the file at `path` (JSONL, or one plain-text document).
    public mutating func read(path: String) throws -> [IndexDocument] {
        let lowered = path.lowercased()
        let isJSONL = lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson")
        guard isJSONL || lowered.hasSuffix(".txt") || lowered.hasSuffix(".md") || lowered.hasSuffix(".markdown") else {
            throw SearchError.invalidArgument("\(path): expected a .jsonl file of {\"id\", \"text\", \"metadata\"} lines, or a .txt or .md document")
        }
        let data: Data
        do { data = try InputFile.read(URL(fileURLWithPath: path), name: path) } catch let error as InputReadError {
            throw SearchError.invalidArgument(error.description)
        }
        return try read(data, named: path, as: isJSONL ? .jsonl : .document(id: path))
    }

    /// The documents of a stream's bytes (standard input, named `name` in messages): JSONL
    /// records, or with `documentID` one plain-text document with that id. A stream without a
    /// document (empty, or only whitespace) is refused, where an empty JSONL file adds nothing: a
    /// stream is empty when the command feeding it failed, and adding nothing would hide that.
    ///
    ///     var reader = DocumentFileReader()
    ///     let documents = try reader.read(stream: FileHandle.standardInput.readDataToEndOfFile(), named: "standard input")
    ///
    /// - Throws: ``SearchError/invalidArgument(_:)`` naming the stream (and line): no document, not
    ///   UTF-8, a JSONL line that is not a document (no id, no text...), an empty `documentID`.
    public mutating func read(stream data: Data, named name: String, documentID: String? = nil) throws -> [IndexDocument] {
        if let documentID, documentID.isEmpty { throw SearchError.invalidArgument("\(name): the document's id is empty") }
        let documents: [IndexDocument]
        do {
            documents = try read(data, named: name, as: documentID.map { .document(id: $0) } ?? .jsonl)
        } catch SearchError.invalidArgument(let message) where documentID == nil && !Self.startsWithObject(data) {
            // Plain text piped without an id reads as JSONL and fails on its first line: say how
            // plain text is taken, which the JSONL message alone does not.
            throw SearchError.invalidArgument(message + "; plain text is read as one document when its id is given")
        }
        guard !documents.isEmpty else {
            throw SearchError.invalidArgument("\(name): no document (it is empty); expected JSONL lines {\"id\": ..., \"text\": ..., \"metadata\": {...}}, or the text of one document with its id given")
        }
        return documents
    }

    /// Whether the first byte that is not white space opens a JSON object (a JSONL stream's start).
    private static func startsWithObject(_ data: Data) -> Bool {
        data.first { ![0x20, 0x09, 0x0D, 0x0A].contains($0) } == UInt8(ascii: "{")
    }

    private mutating func read(_ data: Data, named name: String, as format: Format) throws -> [IndexDocument] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw SearchError.invalidArgument("\(name) line \(Self.firstLineNotUTF8(data)): not valid UTF-8")
        }
        switch format {
        case .jsonl: return try jsonLines(text, source: name)
        case let .document(id): return [try plain(text, id: id, source: name)]
        }
    }

    private mutating func plain(_ text: String, id: String, source: String) throws -> IndexDocument {
        guard text.contains(where: { !$0.isWhitespace }) else { throw SearchError.invalidArgument("\(source): the document is empty") }
        try remember(id, at: source)
        return try IndexDocument(id: id, text: text)
    }

    private mutating func jsonLines(_ text: String, source: String) throws -> [IndexDocument] {
        var documents: [IndexDocument] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let place = "\(source) line \(lineNumber)"
            guard line.contains(where: { !$0.isWhitespace }) else { continue }
            // Foundation refuses deep nesting as a failure of the whole line; say what it is.
            let depth = JSONNesting.depth(line.utf8)
            guard depth <= JSONNesting.maximumDepth else {
                throw SearchError.invalidArgument("\(place): arrays and objects nest \(depth) deep; at most \(JSONNesting.maximumDepth) levels are accepted")
            }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                throw SearchError.invalidArgument("\(place): not a JSON object (expected {\"id\": ..., \"text\": ..., \"metadata\": {...}})")
            }
            let id: String
            switch object["id"] {
            case let value as String where !value.isEmpty: id = value
            case let value as NSNumber where !(value is Bool) && value.doubleValue == value.doubleValue.rounded(): id = value.stringValue
            default: throw SearchError.invalidArgument("\(place): \"id\" must be a non-empty string (or an integer)")
            }
            guard let text = object["text"] as? String else {
                throw SearchError.invalidArgument("\(place): \"text\" must be a string")
            }
            guard text.contains(where: { !$0.isWhitespace }) else {
                throw SearchError.invalidArgument("\(place): the text of \"\(id)\" is empty")
            }
            var metadataJSON = "{}"
            if let metadata = object["metadata"], !(metadata is NSNull) {
                guard metadata is [String: Any],
                      let encoded = try? JSONSerialization.data(withJSONObject: metadata, options: [.sortedKeys]) else {
                    throw SearchError.invalidArgument("\(place): \"metadata\" must be a JSON object")
                }
                metadataJSON = String(decoding: encoded, as: UTF8.self)
            }
            let unknown = Set(object.keys).subtracting(["id", "text", "metadata"])
            guard unknown.isEmpty else {
                throw SearchError.invalidArgument("\(place): unknown field \(unknown.sorted().map { "\"\($0)\"" }.joined(separator: ", ")) (expected id, text, metadata)")
            }
            try remember(id, at: place)
            documents.append(try IndexDocument(id: id, text: text, metadataJSON: metadataJSON))
        }
        return documents
    }

    /// The 1-based line of the first byte sequence that is not UTF-8 (for a message that names it).
    static func firstLineNotUTF8(_ data: Data) -> Int {
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return (lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0) + 1
    }

    private mutating func remember(_ id: String, at place: String) throws {
        if let first = seen[id] {
            throw SearchError.invalidArgument("\(place): the id \"\(id)\" was already given at \(first); ids must be unique within one add")
        }
        seen[id] = place
    }
}

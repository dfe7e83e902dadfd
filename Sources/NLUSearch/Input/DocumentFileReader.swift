import Foundation
import NLUCore

/// Reads the documents of files for ``DocumentIndex/add(_:progress:)``: JSONL (one
/// `{"id": ..., "text": ..., "metadata": {...}}` per line, metadata optional) or a plain `.txt` /
/// `.md` file, which is one document whose id is the path as given.
///
/// Errors name the file and line and say what was expected; an id given twice (in one file or
/// across the files of one add) names both places.
///
///     var reader = DocumentFileReader()
///     let documents = try reader.read(path: "faq.jsonl") + reader.read(path: "notes/setup.md")
public struct DocumentFileReader {
    // Where each id was first read, to name both places when one comes again.
    private var seen: [String: String] = [:]

    public init() {}

    /// The documents of the file at `path` (JSONL, or one plain-text document).
    public mutating func read(path: String) throws -> [IndexDocument] {
        let lowered = path.lowercased()
        let isJSONL = lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson")
        guard isJSONL || lowered.hasSuffix(".txt") || lowered.hasSuffix(".md") || lowered.hasSuffix(".markdown") else {
            throw SearchError.invalidArgument("\(path): expected a .jsonl file of {\"id\", \"text\", \"metadata\"} lines, or a .txt or .md document")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SearchError.invalidArgument("\(path): cannot read the file (\(ExistingPath.unreadableReason(path)))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SearchError.invalidArgument("\(path) line \(Self.firstLineNotUTF8(data)): not valid UTF-8")
        }
        return isJSONL ? try jsonLines(text, path: path) : [try plain(text, path: path)]
    }

    private mutating func plain(_ text: String, path: String) throws -> IndexDocument {
        guard text.contains(where: { !$0.isWhitespace }) else { throw SearchError.invalidArgument("\(path): the document is empty") }
        try remember(path, at: path)
        return try IndexDocument(id: path, text: text)
    }

    private mutating func jsonLines(_ text: String, path: String) throws -> [IndexDocument] {
        var documents: [IndexDocument] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let place = "\(path) line \(lineNumber)"
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

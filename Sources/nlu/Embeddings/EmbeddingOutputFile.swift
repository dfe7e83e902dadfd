import Foundation
import NLUKit

/// What `nlu embed --output FILE` may replace without `--force` (``OutputFile``): an earlier output
/// of the same kind, recognised by its head since none of these formats has room for a mark.
/// - jsonl: the first line is {"text": "...", "embedding": [numbers]} and nothing else;
/// - tsv: never: the projector format has no header, so a user's own numeric TSV looks exactly like ours,
///   and replacing it silently was the one way `embed` could lose a user's file; only an empty file or `--force`;
/// - npy: the header is byte for byte the one `embed` writes for its shape (float32, C order, two
///   dimensions, padded to 64 bytes) and the file size is that header plus rows × columns × 4. NumPy
///   rejects extra header keys, so the file cannot carry a mark; a float32 matrix that `numpy.save`
///   wrote in the same layout is therefore replaced too, but no other kind of file is;
/// - a `--query` ranking: "score<TAB>line<TAB>text" lines, or with --json {"line", "score", "text"}.
enum EmbeddingOutputFile {
    /// The policy for embeddings written in `format`.
    static func embeddings(_ format: EmbeddingFormat) -> OutputFile {
        switch format {
        case .jsonl: return OutputFile(kind: "a jsonl embeddings file") { isJSONL(at: $0) }
        case .tsv: return OutputFile(kind: "a tsv embeddings file (nlu cannot tell its own from another numeric TSV)") { _ in false }
        case .npy: return OutputFile(kind: "an npy embeddings matrix") { isNPY(at: $0) }
        }
    }

    /// The policy for a `--query` ranking (`json`: one JSON object per line).
    static func ranking(json: Bool) -> OutputFile {
        json ? OutputFile(kind: "a JSON lines embed --query ranking") { isJSONRanking(at: $0) }
            : OutputFile(kind: "an embed --query ranking") { isRanking(at: $0) }
    }

    static func isJSONL(at url: URL) -> Bool {
        guard let object = OutputFile.firstJSONObject(of: url), Set(object.keys) == ["text", "embedding"],
              object["text"] is String, let embedding = object["embedding"] as? [Any] else { return false }
        return !embedding.isEmpty && embedding.allSatisfy { $0 is NSNumber }
    }

    static func isNPY(at url: URL) -> Bool {
        let head = OutputFile.prefix(of: url, count: 4096)
        // Magic, version 1.0, then the header length (little-endian): the dictionary follows.
        guard head.count >= 10, head.starts(with: [0x93] + Array("NUMPY".utf8) + [1, 0]) else { return false }
        let length = Int(head[head.startIndex + 8]) | Int(head[head.startIndex + 9]) << 8
        guard head.count >= 10 + length,
              let dictionary = String(data: head[(head.startIndex + 10)..<(head.startIndex + 10 + length)], encoding: .utf8),
              let open = dictionary.range(of: "'shape': ("),
              let close = dictionary[open.upperBound...].firstIndex(of: ")") else { return false }
        let dimensions = dictionary[open.upperBound..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard dimensions.count == 2, let rows = Int(dimensions[0]), let columns = Int(dimensions[1]), rows >= 0, columns >= 0 else { return false }
        let header = EmbeddingWriter.npyHeader(rows: rows, columns: columns)
        guard head.prefix(header.count) == header,
              let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber else { return false }
        let (cells, overflow) = rows.multipliedReportingOverflow(by: columns)
        return !overflow && cells <= (Int.max - header.count) / 4 && size.intValue == header.count + cells * 4
    }

    static func isRanking(at url: URL) -> Bool {
        guard let fields = firstLineFields(of: url), fields.count >= 3 else { return false }  // the text may hold tabs
        return Double(fields[0]) != nil && (Int(fields[1]) ?? 0) >= 1
    }

    static func isJSONRanking(at url: URL) -> Bool {
        guard let object = OutputFile.firstJSONObject(of: url), Set(object.keys) == ["line", "score", "text"] else { return false }
        return object["line"] is NSNumber && object["score"] is NSNumber && object["text"] is String
    }

    /// The tab-separated fields of the first line, or nil when it is not UTF-8 (or too long).
    private static func firstLineFields(of url: URL) -> [String]? {
        guard let line = OutputFile.firstLine(of: url), let text = String(data: line, encoding: .utf8) else { return nil }
        return text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
}

import Foundation
import NLUInputOutput

/// The tokens a BERT model knows, with their ids: line *n* (zero-based) of `vocab.txt` is token id *n*
/// (`[PAD]` = 0, `[CLS]` = 101, `[SEP]` = 102 in the uncased English vocabulary).
///
///     let vocabulary = try Vocabulary(contentsOf: modelDirectory.appendingPathComponent("vocab.txt"))
///     vocabulary.id(for: "[CLS]")  // 101
///     vocabulary.token(for: 102)   // "[SEP]"
public struct Vocabulary: Sendable {
    /// Tokens by id.
    public let tokens: [String]
    /// Token bytes → id. Byte-exact on purpose: Swift `String` equality is canonical equivalence, so
    /// "é" (U+00E9) and "e\u{301}" would be one key, while they are two tokens in a vocabulary.
    let table: TokenTable
    /// Where the vocabulary came from (file name), used in error messages.
    public let source: String

    /// Loads a `vocab.txt`: one token per line, id = zero-based line number. A final newline is
    /// optional, `\r\n` line ends are accepted; empty lines and duplicates are errors.
    public init(contentsOf url: URL) throws {
        let source = url.path
        let data: Data
        do {
            data = try InputFile.readModelFile(url)
        } catch let error as InputTooLargeError {
            throw VocabularyError.unreadable(source: url.path, reason: error.reason)
        } catch let error as InputReadError {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw VocabularyError.directory(source: url.path)
            }
            throw VocabularyError.unreadable(source: url.path, reason: error.reason)
        }
        // Split on bytes: "\r\n" is one Character in Swift, so String splitting on "\n" would miss it.
        let bytes = [UInt8](data)
        guard String(data: data, encoding: .utf8) != nil else { throw VocabularyError.invalidUTF8(source: source) }
        var lines: [String] = []
        var lineStart = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
            var lineEnd = index
            if lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if index < bytes.count || lineStart < bytes.count {
                lines.append(String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self))
            }
            lineStart = index + 1
        }
        try self.init(tokens: lines, source: source)
    }

    /// Makes a vocabulary from tokens in id order.
    ///
    ///     let vocabulary = try Vocabulary(tokens: ["[PAD]", "[UNK]", "hello", "##s"])
    public init(tokens: [String]) throws {
        try self.init(tokens: tokens, source: "vocabulary")
    }

    /// Makes a vocabulary from tokens in id order; `source` names it in errors ("line" = id + 1).
    public init(tokens: [String], source: String) throws {
        guard !tokens.isEmpty else { throw VocabularyError.empty(source: source) }
        var ids: [[UInt8]: Int32] = [:]
        ids.reserveCapacity(tokens.count)
        var entries: [(key: [UInt8], id: Int32)] = []
        entries.reserveCapacity(tokens.count)
        for (index, token) in tokens.enumerated() {
            guard !token.isEmpty else { throw VocabularyError.emptyLine(source: source, line: index + 1) }
            let bytes = Array(token.utf8)
            if let first = ids[bytes] {
                throw VocabularyError.duplicateToken(source: source, token: token, firstLine: Int(first) + 1, line: index + 1)
            }
            ids[bytes] = Int32(index)
            entries.append((key: bytes, id: Int32(index)))
        }
        self.tokens = tokens
        self.table = TokenTable(entries)
        self.source = source
    }

    /// The number of tokens.
    public var count: Int { tokens.count }

    /// The id of `token`, or nil if it is not in the vocabulary.
    public func id(for token: String) -> Int32? {
        let id = table.id(of: Array(token.utf8))
        return id >= 0 ? id : nil
    }

    /// The token with id `id`, or nil if out of range.
    public func token(for id: Int32) -> String? {
        id >= 0 && Int(id) < tokens.count ? tokens[Int(id)] : nil
    }

    /// The id of `token`, or an error naming its `role` ("unknown", "separator", ...).
    func requireID(for token: String, role: String) throws -> Int32 {
        guard let id = id(for: token) else {
            throw VocabularyError.missingToken(source: source, token: token, role: role)
        }
        return id
    }
}

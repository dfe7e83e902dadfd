import Foundation

/// Why a vocabulary could not be loaded: names the file (or source) and the line or token at fault.
///
///     do { _ = try Vocabulary(contentsOf: url) } catch { print(error) }
///     // vocab.txt line 7: duplicate token "the" (first on line 3)
public enum VocabularyError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The file could not be read.
    case unreadable(source: String, reason: String)
    /// The path is a directory, where a vocabulary file (`vocab.txt`) was expected; a front end can point to the
    /// option that takes a model directory.
    case directory(source: String)
    /// The file is not valid UTF-8.
    case invalidUTF8(source: String)
    /// The vocabulary has no tokens.
    case empty(source: String)
    /// A line is empty (every line must hold one token).
    case emptyLine(source: String, line: Int)
    /// A token occurs twice.
    case duplicateToken(source: String, token: String, firstLine: Int, line: Int)
    /// A token the tokenizer needs (e.g. `[UNK]`) is missing.
    case missingToken(source: String, token: String, role: String)
    /// Ids (from `tokenizer.json`) are not exactly 0..<count.
    case invalidIDs(source: String, detail: String)

    /// A message that names the file and what is wrong.
    public var description: String {
        switch self {
        case let .unreadable(source, reason): return "\(source): cannot read the vocabulary (\(reason))"
        case let .directory(source): return "\(source) is a directory, not a vocabulary file (expected a vocab.txt, one token per line)"
        case let .invalidUTF8(source): return "\(source): the vocabulary is not valid UTF-8"
        case let .empty(source): return "\(source): the vocabulary is empty (expected one token per line)"
        case let .emptyLine(source, line): return "\(source) line \(line): empty line (expected one token per line)"
        case let .duplicateToken(source, token, firstLine, line):
            return "\(source) line \(line): duplicate token \"\(token)\" (first on line \(firstLine))"
        case let .missingToken(source, token, role):
            return "\(source): the vocabulary has no \(role) token \"\(token)\""
        case let .invalidIDs(source, detail): return "\(source): invalid token ids: \(detail)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

import Foundation

/// Why a BERT tokenizer could not be made or could not encode: names the file, field or argument.
///
///     // tokenizer.json: model.type is "BPE"; only WordPiece models are supported
public enum BertTokenizerError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The model directory has neither `tokenizer.json` nor `vocab.txt`.
    case noVocabulary(directory: String)
    /// A JSON file is malformed or a field has the wrong type.
    case invalidFile(file: String, detail: String)
    /// A configuration this implementation does not reproduce exactly.
    case unsupported(file: String, detail: String)
    /// An option is out of range.
    case invalidOption(String)
    /// Pair truncation is impossible: the first text plus special tokens already fill `maxLength`.
    case firstSequenceTooLong(firstTokens: Int, maxLength: Int)
    /// The stride is not smaller than the room left for the second text.
    case strideTooLarge(stride: Int, windowLength: Int)
    /// A text longer than ``TextLengthLimit/maximumUTF8Bytes``.
    case textTooLong(name: String, bytes: Int, limit: Int)

    /// A message that names what is wrong and what was expected.
    public var description: String {
        switch self {
        case let .noVocabulary(directory):
            return "\(directory): no tokenizer.json or vocab.txt in the model directory"
        case let .invalidFile(file, detail): return "\(file): \(detail)"
        case let .unsupported(file, detail): return "\(file): \(detail)"
        case let .invalidOption(detail): return detail
        case let .firstSequenceTooLong(firstTokens, maxLength):
            return "max length \(maxLength) leaves no room for the second text: the first text has \(firstTokens) tokens plus 3 special tokens"
        case let .strideTooLarge(stride, windowLength):
            return "stride \(stride) must be smaller than the \(windowLength) tokens of the second text that fit in one window"
        case let .textTooLong(name, bytes, limit):
            return "\(name) is \(bytes) bytes of UTF-8; the tokenizers take at most \(limit) (2 GiB - 1: they count offsets in 32 bits)"
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}

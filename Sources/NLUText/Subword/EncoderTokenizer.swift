import Foundation

/// What an encoder model needs from its tokenizer, whatever its kind (WordPiece, byte-level BPE,
/// Unigram): the tokens of a text without special tokens, and the ids of the tokens a sequence is
/// framed and padded with (`[CLS] … [SEP]`, `<s> … </s>`).
///
///     let tokenizer = try loadEncoderTokenizer(modelDirectory: url)
///     let ids = [tokenizer.clsID] + tokenizer.tokenize("Hello").ids + [tokenizer.sepID]
public protocol EncoderTokenizer: Sendable {
    /// The tokens of `text` (no special tokens added): ids, original Unicode-scalar offsets, words.
    func tokenize(_ text: String) -> TokenizedSequence
    /// The token that starts a sequence (`[CLS]`, `<s>`).
    var clsID: Int32 { get }
    /// The token that ends a sequence (`[SEP]`, `</s>`).
    var sepID: Int32 { get }
    /// The padding token.
    var padID: Int32 { get }
    /// The token string of `id`, if any.
    func token(for id: Int32) -> String?
}

extension BertTokenizer: EncoderTokenizer {
    public func token(for id: Int32) -> String? { vocabulary.token(for: id) }
}

/// Loads the tokenizer of a Hugging Face model directory, of the kind its files say:
/// `tokenizer.json` with a WordPiece model (``BertTokenizer``), a BPE or Unigram model
/// (``SubwordTokenizer``); without it, `vocab.txt` (WordPiece) or `vocab.json` + `merges.txt`
/// (GPT-2/RoBERTa byte-level BPE).
///
///     let tokenizer = try loadEncoderTokenizer(modelDirectory: URL(fileURLWithPath: "all-distilroberta-v1"))
/// - Throws: ``BertTokenizerError`` naming the file and the field or value it does not support.
public func loadEncoderTokenizer(modelDirectory: URL) throws -> any EncoderTokenizer {
    let tokenizerJSON = modelDirectory.appendingPathComponent("tokenizer.json")
    if FileManager.default.fileExists(atPath: tokenizerJSON.path) {
        let file = try JSONFile(url: tokenizerJSON)
        let modelType = try file.object("model").flatMap { try file.string("type", in: $0, field: "model.type") } ?? "WordPiece"
        switch modelType {
        case "WordPiece": return try BertTokenizer(tokenizerJSON: tokenizerJSON)
        case "BPE", "Unigram": return try SubwordTokenizer(tokenizerJSON: tokenizerJSON, file: file)
        default:
            throw BertTokenizerError.unsupported(
                file: tokenizerJSON.path, detail: "model.type is \"\(modelType)\" (supported: WordPiece, BPE, Unigram)")
        }
    }
    let vocabJSON = modelDirectory.appendingPathComponent("vocab.json")
    let merges = modelDirectory.appendingPathComponent("merges.txt")
    if FileManager.default.fileExists(atPath: vocabJSON.path) && FileManager.default.fileExists(atPath: merges.path) {
        return try SubwordTokenizer(vocabJSON: vocabJSON, merges: merges)
    }
    return try BertTokenizer(modelDirectory: modelDirectory)
}

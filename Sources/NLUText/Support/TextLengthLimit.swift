/// The longest text the tokenizers take: 2³¹ − 1 bytes of UTF-8 (2 GiB − 1).
///
/// They keep each token's offset into the input, and while normalizing each output byte's, as a
/// 32-bit Unicode-scalar index (half the memory of 64-bit ones over every normalized byte); a text
/// has at most as many scalars as UTF-8 bytes, so bounding its UTF-8 length keeps every index in
/// range. The throwing entry points (``BertTokenizer/encode(_:maxLength:stride:)``, pairs, question
/// answering, sentence embeddings) check it and throw ``BertTokenizerError/textTooLong(name:bytes:limit:)``;
/// `tokenize` and the plain `encode` take it as a precondition, as an array takes its bounds, so code
/// that passes them text of unbounded length checks first (`nlu` refuses a longer input line, naming it).
///
///     try TextLengthLimit.check(document, name: "document")
public enum TextLengthLimit {
    /// The largest UTF-8 length a text may have.
    public static let maximumUTF8Bytes = Int(Int32.max)

    /// Throws ``BertTokenizerError/textTooLong(name:bytes:limit:)`` when `text` is longer than
    /// ``maximumUTF8Bytes``; `name` says which text in the message ("question", "line 3").
    public static func check(_ text: String, name: String = "the text") throws {
        try check(utf8Count: text.utf8.count, name: name)
    }

    /// The same check on a UTF-8 length (of bytes not yet decoded, for instance).
    public static func check(utf8Count: Int, name: String = "the text") throws {
        guard utf8Count <= maximumUTF8Bytes else {
            throw BertTokenizerError.textTooLong(name: name, bytes: utf8Count, limit: maximumUTF8Bytes)
        }
    }

    /// Stops with the same message as ``check(_:name:)`` (for the non-throwing entry points).
    static func require(_ text: String) {
        let count = text.utf8.count
        precondition(count <= maximumUTF8Bytes,
                     BertTokenizerError.textTooLong(name: "the text", bytes: count, limit: maximumUTF8Bytes).description)
    }
}

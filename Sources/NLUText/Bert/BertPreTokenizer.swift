/// The second step of the BERT pipeline, identical to the Rust `BertPreTokenizer`: splits normalized
/// text into words on whitespace (dropped) and punctuation (each punctuation character is a word).
///
/// Whitespace is Rust's `char::is_whitespace`; punctuation is ASCII punctuation and symbols
/// (`!`…`/`, `:`…`@`, `[`…`` ` ``, `{`…`~`) plus the Unicode `P*` characters of the tokenizer's tables.
///
///     let normalized = BertNormalizer(options: .cased).normalize("Hi, you!")
///     BertPreTokenizer().words(in: normalized.bytes) // [0..<2, 2..<3, 4..<7, 7..<8]
public struct BertPreTokenizer: Sendable {
    /// Makes the pre-tokenizer (it has no options).
    public init() {}

    /// The byte ranges of the words of the UTF-8 text `bytes`.
    public func words(in bytes: [UInt8]) -> [Range<Int>] {
        var words: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { buffer in
            forEachWord(in: buffer) { words.append($0) }
        }
        return words
    }

    /// Calls `body` with the byte range of each word of `bytes` (valid UTF-8), in order.
    @inline(__always)
    func forEachWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) {
        let count = bytes.count
        var wordStart = -1
        var index = 0
        while index < count {
            let byte = bytes[index]
            let length: Int
            let kind: UInt8
            if byte < 0x80 {
                length = 1
                kind = Self.asciiKinds[Int(byte)]
            } else {
                let (scalar, scalarLength) = Self.decode(bytes, at: index)
                length = scalarLength
                let classes = BertCharacterClasses.shared
                kind = classes.isWhitespace(scalar) ? Self.space : classes.isPunctuation(scalar) ? Self.punctuation : Self.letter
            }
            if kind == Self.letter {
                if wordStart < 0 { wordStart = index }
            } else {
                if wordStart >= 0 {
                    body(wordStart..<index)
                    wordStart = -1
                }
                if kind == Self.punctuation { body(index..<(index + length)) }
            }
            index += length
        }
        if wordStart >= 0 { body(wordStart..<count) }
    }

    private static let letter: UInt8 = 0, space: UInt8 = 1, punctuation: UInt8 = 2

    /// Kind of each ASCII byte: letter (word character), space, punctuation.
    private static let asciiKinds: [UInt8] = (0..<128).map { (byte: Int) -> UInt8 in
        if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) { return space }
        return BertCharacterClasses.isASCIIPunctuation(UInt8(byte)) ? punctuation : letter
    }

    /// Decodes the scalar starting at `index` of valid UTF-8 (lead byte ≥ 0x80).
    @inline(__always)
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[index])
        if lead < 0xE0 {
            return (((lead & 0x1F) << 6) | (UInt32(bytes[index + 1]) & 0x3F), 2)
        }
        if lead < 0xF0 {
            return (((lead & 0x0F) << 12) | ((UInt32(bytes[index + 1]) & 0x3F) << 6)
                    | (UInt32(bytes[index + 2]) & 0x3F), 3)
        }
        return (((lead & 0x07) << 18) | ((UInt32(bytes[index + 1]) & 0x3F) << 12)
                | ((UInt32(bytes[index + 2]) & 0x3F) << 6) | (UInt32(bytes[index + 3]) & 0x3F), 4)
    }
}

import NLUText

/// A text split into ``Token``s in one pass over its Unicode scalars; every recognizer works on this.
///
/// Recognizers look ahead a bounded number of tokens from each position, so extraction stays linear in
/// the length of the text (no backtracking pattern matching).
struct TokenizedText: Sendable {
    let scalars: [Unicode.Scalar]
    let tokens: [Token]

    init(_ text: String) {
        var text = text
        let (scalars, tokens) = text.withUTF8 { Self.tokenize($0) }
        self.scalars = scalars
        self.tokens = tokens
    }

    /// The scalars and tokens of valid UTF-8 `bytes`, decoded in one pass (`Array(text.unicodeScalars)` counts the
    /// scalars, then decodes them again); a token whose text is as written is copied from the bytes.
    private static func tokenize(_ bytes: UnsafeBufferPointer<UInt8>) -> ([Unicode.Scalar], [Token]) {
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int32] = []  // each scalar's first byte, then the end
        var scalarCount = 0
        for byte in bytes where byte & 0xC0 != 0x80 { scalarCount += 1 }
        scalars.reserveCapacity(scalarCount)
        offsets.reserveCapacity(scalarCount + 1)
        var position = 0
        while position < bytes.count {
            let lead = UInt32(bytes[position])
            offsets.append(Int32(truncatingIfNeeded: position))
            let value: UInt32
            if lead < 0x80 {
                value = lead
                position += 1
            } else if lead < 0xE0 {
                value = (lead & 0x1F) << 6 | UInt32(bytes[position + 1] & 0x3F)
                position += 2
            } else if lead < 0xF0 {
                value = (lead & 0x0F) << 12 | UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F)
                position += 3
            } else {
                value = (lead & 0x07) << 18 | UInt32(bytes[position + 1] & 0x3F) << 12 | UInt32(bytes[position + 2] & 0x3F) << 6
                    | UInt32(bytes[position + 3] & 0x3F)
                position += 4
            }
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")  // a String's bytes are valid: never the replacement
        }
        offsets.append(Int32(truncatingIfNeeded: bytes.count))
        var tokens: [Token] = []
        tokens.reserveCapacity(scalars.count / 2)
        var index = 0
        var spaceBefore = true
        while index < scalars.count {
            let scalar = scalars[index]
            if isWhitespace(scalar) {
                spaceBefore = true
                index += 1
                continue
            }
            let start = index
            let kind: Token.Kind
            if isDigit(scalar) {
                kind = .digits
                while index < scalars.count, isDigit(scalars[index]) { index += 1 }
            } else if isLetter(scalar) {
                kind = .word
                while index < scalars.count {
                    if isLetter(scalars[index]) {
                        index += 1
                    } else if isApostrophe(scalars[index]), index + 1 < scalars.count, isLetter(scalars[index + 1]) {
                        index += 2
                    } else {
                        break
                    }
                }
            } else {
                kind = .symbol
                index += 1
            }
            let written = UnsafeBufferPointer(rebasing: bytes[Int(offsets[start])..<Int(offsets[index])])
            let text = kind == .word ? lowercasedWord(scalars[start..<index], written: written) : copy(written)
            let capitalized = kind == .word && (scalar.value < 128 ? scalar.value >= 65 && scalar.value <= 90
                : !isCaselessUnspacedLetter(scalar) && scalar.properties.isUppercase)
            tokens.append(Token(kind: kind, text: text, start: start, end: index, spaceBefore: spaceBefore,
                                capitalized: capitalized))
            spaceBefore = false
        }
        return (scalars, tokens)
    }

    var count: Int { tokens.count }

    subscript(index: Int) -> Token { tokens[index] }

    /// The token at `index`, or nil past either end.
    func token(_ index: Int) -> Token? { index >= 0 && index < tokens.count ? tokens[index] : nil }

    /// The lowercased word at `index`, or nil when there is no word there.
    func word(_ index: Int) -> String? {
        guard index >= 0, index < tokens.count, tokens[index].kind == .word else { return nil }
        return tokens[index].text
    }

    /// Whether the token at `index` exists and follows the previous one with no space in between.
    func touchesPrevious(_ index: Int) -> Bool {
        index > 0 && index < tokens.count && !tokens[index].spaceBefore
    }

    /// The text from the start of token `first` to the end of token `last` (inclusive), as written.
    func text(from first: Int, through last: Int) -> String {
        String(scalars: scalars[tokens[first].start..<tokens[last].end])
    }

    /// A word's text lowercased, from its scalars and its bytes as written. ASCII is lowercased byte by byte, which
    /// costs a fraction of building a `String` from scalars and lowercasing it with Unicode's tables. Other words are
    /// kept in the stream-safe format: recognizers look words up in sets and dictionaries, and Swift hashes a word
    /// with a run of 100,000 combining marks (Hebrew points, which are letters) in a minute; a joiner every 30 marks
    /// keeps that linear, and no word the recognizers know has such a run. Kana and CJK ideographs (most words of
    /// Chinese and Japanese text) have no case and are no combining marks, so such words skip both Unicode table walks,
    /// as Latin-1 words do: without a capital they are copied as written.
    private static func lowercasedWord(_ scalars: ArraySlice<Unicode.Scalar>, written: UnsafeBufferPointer<UInt8>) -> String {
        if scalars.count == written.count {  // ASCII
            return String(unsafeUninitializedCapacity: written.count) { buffer in
                for (offset, byte) in written.enumerated() { buffer[offset] = byte >= 65 && byte <= 90 ? byte | 0x20 : byte }
                return written.count
            }
        }
        var hasCapital = false
        for scalar in scalars {
            let value = scalar.value
            if value < 0x100 {
                // Latin-1 ("Größe", "VINGTIÈME"): the only capitals (A-Z, À-Þ but ×) lower case by adding 32, as
                // Unicode's tables would.
                if isLatin1Capital(value) { hasCapital = true }
            } else if !isCaselessUnspacedLetter(scalar) {
                return StreamSafeText.string(of: String(scalars: scalars)).lowercased()
            }
        }
        guard hasCapital else { return copy(written) }
        return String(scalars: scalars.lazy.map { scalar in
            isLatin1Capital(scalar.value) ? Unicode.Scalar(UInt8(scalar.value + 32)) : scalar
        })
    }

    /// A-Z and À-Þ but ×: the capitals of Latin-1, each lower-cased by adding 32.
    private static func isLatin1Capital(_ value: UInt32) -> Bool {
        (value >= 65 && value <= 90) || (value >= 0xC0 && value <= 0xDE && value != 0xD7)
    }

    /// A string of valid UTF-8 `bytes`.
    private static func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            _ = buffer.initialize(from: bytes)
            return bytes.count
        }
    }

    /// Hiragana and katakana letters and CJK ideographs (the unified block and extension A): letters without case
    /// and with canonical combining class 0 (the combining kana marks U+3099 and U+309A lie outside these ranges).
    static func isCaselessUnspacedLetter(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (0x4E00...0x9FFF).contains(value) || (0x3041...0x3096).contains(value) || (0x309D...0x30FF).contains(value)
            || (0x3400...0x4DBF).contains(value)
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 128 { return scalar == " " || (scalar.value >= 9 && scalar.value <= 13) }
        // U+3000 (the ideographic space) is the last White_Space scalar: Chinese and Japanese text needs no table look-up.
        return scalar.value <= 0x3000 && scalar.properties.isWhitespace
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 128 { return isASCIILetter(scalar) }
        // Ideographs and kana letters (all alphabetic) without the property table's look-up: most of Chinese and Japanese text.
        let value = scalar.value
        if (0x4E00...0x9FFF).contains(value) || (0x3041...0x3096).contains(value) || (0x30A1...0x30FA).contains(value)
            || (0x30FC...0x30FF).contains(value) { return true }
        // CJK punctuation ("、", "。", "「") is no letter; "々", "〆", "〇", the Hangzhou numerals and the kana repeat
        // marks of its block are.
        if (0x3000...0x303F).contains(value) { return (0x3005...0x3007).contains(value) || (0x3021...0x3029).contains(value)
            || (0x3031...0x3035).contains(value) || (0x3038...0x303C).contains(value) }
        return scalar.properties.isAlphabetic
    }
    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        let folded = scalar.value | 0x20  // "A"-"Z" onto "a"-"z"
        return folded >= 0x61 && folded <= 0x7A
    }
    static func isApostrophe(_ scalar: Unicode.Scalar) -> Bool { scalar == "'" || scalar == "\u{2019}" }

    /// Whether `scalar` is a letter of a script written without spaces (Chinese ideographs, Japanese kana): digits
    /// touching it begin or end a token of their own ("电话是13604779660或…"), where touching a Latin letter they
    /// are part of a word ("abc123").
    static func isUnspacedLetter(_ scalar: Unicode.Scalar) -> Bool {
        CJKNumerals.isIdeograph(scalar) || (0x3040...0x30FF).contains(scalar.value) || (0xFF66...0xFF9F).contains(scalar.value)
    }

    /// Whether the word at `index` ends (or, `atStart`, begins) with a letter of a script written without spaces.
    func isUnspacedWord(_ index: Int, atStart: Bool = false) -> Bool {
        guard let token = token(index), token.kind == .word, token.end > token.start else { return false }
        return Self.isUnspacedLetter(scalars[atStart ? token.start : token.end - 1])
    }
}

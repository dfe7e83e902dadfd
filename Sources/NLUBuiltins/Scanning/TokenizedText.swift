import NLUText

/// A text split into ``Token``s in one pass over its Unicode scalars; every recognizer works on this.
///
/// Recognizers look ahead a bounded number of tokens from each position, so extraction stays linear in
/// the length of the text (no backtracking pattern matching).
struct TokenizedText: Sendable {
    let scalars: [Unicode.Scalar]
    let tokens: [Token]

    init(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var tokens: [Token] = []
        tokens.reserveCapacity(scalars.count / 4)
        var index = 0
        var spaceBefore = true
        while index < scalars.count {
            let scalar = scalars[index]
            if Self.isWhitespace(scalar) {
                spaceBefore = true
                index += 1
                continue
            }
            let start = index
            let kind: Token.Kind
            if Self.isDigit(scalar) {
                kind = .digits
                while index < scalars.count, Self.isDigit(scalars[index]) { index += 1 }
            } else if Self.isLetter(scalar) {
                kind = .word
                while index < scalars.count {
                    if Self.isLetter(scalars[index]) {
                        index += 1
                    } else if Self.isApostrophe(scalars[index]), index + 1 < scalars.count, Self.isLetter(scalars[index + 1]) {
                        index += 2
                    } else {
                        break
                    }
                }
            } else {
                kind = .symbol
                index += 1
            }
            let text = Self.tokenText(scalars[start..<index], lowercased: kind == .word)
            let capitalized = kind == .word && (scalar.value < 128 ? scalar.value >= 65 && scalar.value <= 90 : scalar.properties.isUppercase)
            tokens.append(Token(kind: kind, text: text, start: start, end: index, spaceBefore: spaceBefore,
                                capitalized: capitalized))
            spaceBefore = false
        }
        self.scalars = scalars
        self.tokens = tokens
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

    /// A token's text, lowercased for words. ASCII (nearly every token) is copied byte by byte, which
    /// costs a fraction of building a `String` from scalars and lowercasing it with Unicode's tables.
    /// Other words are kept in the stream-safe format: recognizers look words up in sets and dictionaries,
    /// and Swift hashes a word with a run of 100,000 combining marks (Hebrew points, which are letters)
    /// in a minute; a joiner every 30 marks keeps that linear, and no word the recognizers know has such a run.
    /// Kana and CJK ideographs (most tokens of Chinese and Japanese text) have no case and are no combining marks, so
    /// such tokens skip both Unicode table walks, as Latin-1 words do.
    private static func tokenText(_ scalars: ArraySlice<Unicode.Scalar>, lowercased: Bool) -> String {
        guard scalars.allSatisfy({ $0.value < 128 }) else {
            // Latin-1 ("Größe", "vingtième"), kana and ideographs: no combining marks, and the only capitals (A-Z,
            // À-Þ but ×) lower case by adding 32, as Unicode's tables would.
            if scalars.allSatisfy({ $0.value < 0x100 || isCaselessUnspacedLetter($0) }) {
                return String(scalars: scalars.lazy.map { scalar in
                    let value = scalar.value
                    let capital = (value >= 65 && value <= 90) || (value >= 0xC0 && value <= 0xDE && value != 0xD7)
                    return lowercased && capital ? Unicode.Scalar(UInt8(value + 32)) : scalar
                })
            }
            let text = StreamSafeText.string(of: String(scalars: scalars))
            return lowercased ? text.lowercased() : text
        }
        return String(unsafeUninitializedCapacity: scalars.count) { buffer in
            for (offset, scalar) in scalars.enumerated() {
                let byte = UInt8(scalar.value)
                buffer[offset] = lowercased && byte >= 65 && byte <= 90 ? byte | 0x20 : byte
            }
            return scalars.count
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
        if scalar.value < 128 { return scalar.value | 0x20 >= 97 && scalar.value | 0x20 <= 122 }
        // Ideographs and kana letters (all alphabetic) without the property table's look-up: most of Chinese and Japanese text.
        let value = scalar.value
        if (0x4E00...0x9FFF).contains(value) || (0x3041...0x3096).contains(value) || (0x30A1...0x30FA).contains(value) { return true }
        return scalar.properties.isAlphabetic
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

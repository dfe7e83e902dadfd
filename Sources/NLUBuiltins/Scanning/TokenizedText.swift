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
            if scalar.properties.isWhitespace {
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
            var text = String(String.UnicodeScalarView(scalars[start..<index]))
            let capitalized = kind == .word && scalar.properties.isUppercase
            if kind == .word { text = text.lowercased() }
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
        String(String.UnicodeScalarView(scalars[tokens[first].start..<tokens[last].end]))
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 128 ? (scalar.value | 0x20 >= 97 && scalar.value | 0x20 <= 122) : scalar.properties.isAlphabetic
    }
    static func isApostrophe(_ scalar: Unicode.Scalar) -> Bool { scalar == "'" || scalar == "\u{2019}" }
}

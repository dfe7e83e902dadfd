/// One token of a text as the built-in recognizers see it: a run of letters (a word, apostrophes
/// inside it included), a run of ASCII digits, or one other non-space character.
struct Token: Sendable {
    enum Kind: Sendable { case word, digits, symbol }

    var kind: Kind
    /// The token's text, lowercased for words (recognizers compare words case-insensitively).
    var text: String
    /// Unicode-scalar offsets into the text, end exclusive.
    var start: Int
    var end: Int
    /// Whether whitespace (or the start of the text) comes right before the token.
    var spaceBefore: Bool
    /// Whether the token's first letter is upper-case ("M" as a suffix means million, "m" does not).
    var capitalized: Bool

    var isWord: Bool { kind == .word }
    var isDigits: Bool { kind == .digits }
    func isSymbol(_ symbol: String) -> Bool { kind == .symbol && text == symbol }
}

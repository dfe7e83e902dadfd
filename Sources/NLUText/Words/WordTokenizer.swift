/// Splits a string into words, numbers, punctuation and symbols, each with its range in the string:
/// the Linux stand-in for the Natural Language framework's `NLTokenizer(unit: .word)`.
///
/// Tokens are the segments between the Unicode word boundaries of UAX #29, with NLUKit's tailoring
/// (``WordBoundaries/Rules/nlukit``), less the spaces, controls and format characters between them:
/// - A **word** is a run of letters, combining marks and digits in any script ("naïve", "Ünïcödé",
///   "R2D2", "3rd", "한국어", "привет", "m²"). An apostrophe (`'` U+0027, `’` U+2019) between two letters
///   stays inside the word ("don't", "O’Brien", "rock'n'roll"); elsewhere it is punctuation
///   ("students'" is "students" + "'"). Hyphens, dots, colons, underscores and slashes separate words
///   ("well-known" is three tokens).
/// - Scripts written without spaces between words are split into characters: every Han ideograph,
///   Hiragana or Katakana character, and every Thai, Lao, Khmer or Myanmar letter (with the marks that
///   follow it) is a word of its own (``Token/isUnspacedScriptCharacter``); the intent featurizer and keyword
///   search pair adjacent ones. There is no dictionary segmentation.
/// - A **number** is a run of digits that may contain `.` or `,` (also the Arabic separators U+066B,
///   U+066C, and the fullwidth ones) between two digits: "3.5", "1,000", "1.000.000,25". A sign is not part of it.
/// - **punctuation** (Unicode `P*`) and **symbols** (`S*`, emoji) are one token per character; an emoji
///   sequence (skin tone, ZWJ family, flag, keycap) is one symbol.
/// - Whitespace, control and format characters separate tokens and are never returned.
///
/// Ranges are exact: each token's range is a slice of the string it was given, so its Unicode-scalar
/// offsets (`String.scalarOffsets(of:)`) count the original text.
///
///     let tokens = WordTokenizer().tokens(in: "Don't pay $1,000.50!")
///     // "Don't" word, "pay" word, "$" symbol, "1,000.50" number, "!" punctuation
public struct WordTokenizer: Sendable {
    /// What a token is.
    public enum Kind: Sendable, Hashable {
        /// Letters, marks and digits, with inner apostrophes ("don't").
        case word
        /// Digits with inner `.`/`,` separators ("3.5", "1,000").
        case number
        /// A punctuation character (Unicode general category `P*`).
        case punctuation
        /// A symbol (Unicode `S*`: currency, math, emoji).
        case symbol
    }

    /// One token: its text, its range in the tokenized string, and its kind.
    public struct Token: Sendable, Equatable {
        /// The token's text, a slice of the tokenized string.
        public var text: Substring
        /// Where the token is in the tokenized string.
        public var range: Range<String.Index>
        /// Word, number, punctuation or symbol.
        public var kind: Kind
        /// Whether the token is one character of a script written without spaces (Han, kana, Thai...):
        /// ``WordBoundaries/isUnspacedScriptLetter(_:)`` of its first scalar.
        public var isUnspacedScriptCharacter: Bool

        /// Makes a token.
        public init(text: Substring, range: Range<String.Index>, kind: Kind, isUnspacedScriptCharacter: Bool = false) {
            self.text = text
            self.range = range
            self.kind = kind
            self.isUnspacedScriptCharacter = isUnspacedScriptCharacter
        }
    }

    /// Whether punctuation and symbol tokens are returned (`false`: words and numbers only).
    public var includePunctuation: Bool

    /// Makes a tokenizer; with `includePunctuation: false` only words and numbers are returned.
    ///
    ///     WordTokenizer(includePunctuation: false).tokens(in: "Hi, you!").map(\.text) // ["Hi", "you"]
    public init(includePunctuation: Bool = true) {
        self.includePunctuation = includePunctuation
    }

    /// The tokens of `text` in order.
    ///
    ///     WordTokenizer().tokens(in: "It's 3.5 km.").map(\.text) // ["It's", "3.5", "km", "."]
    public func tokens(in text: String) -> [Token] {
        let (scalars, indices, infos) = WordBreakTable.scalars(of: text)
        let boundaries = WordBoundaries.boundaryOffsets(scalars, infos: infos, rules: .nlukit)
        var tokens: [Token] = []
        for segment in 0..<max(0, boundaries.count - 1) {
            let start = boundaries[segment], end = boundaries[segment + 1]
            guard let kind = Self.kind(of: scalars[start..<end]) else { continue }
            if !includePunctuation && (kind == .punctuation || kind == .symbol) { continue }
            let range = indices[start]..<indices[end]
            tokens.append(Token(text: text[range], range: range, kind: kind,
                                isUnspacedScriptCharacter: infos[start].isUnspacedScriptLetter))
        }
        return tokens
    }

    /// What a segment of ``WordBoundaries`` (NLUKit's rules) is, or `nil` for spaces, controls and
    /// format characters, which separate tokens and are never returned. Decided as the earlier
    /// grapheme-cluster tokenizer decided, so that Latin-script text gives the same tokens.
    static func kind(of segment: ArraySlice<Unicode.Scalar>) -> Kind? {
        guard let first = segment.first else { return nil }
        // A keycap ("1️⃣") or emoji-presentation sequence is a symbol whatever its base.
        if segment.count > 1, segment.contains(where: { $0.value == 0x20E3 || $0.value == 0xFE0F }) {
            return .symbol
        }
        switch CharacterClass(first) {
        case .separator: return nil
        case .punctuation: return .punctuation
        case .symbol: return .symbol
        case .letter: return .word
        case .digit:
            // A segment that starts with a digit is a word when a letter follows ("3rd", "mp3").
            let hasLetter = segment.contains { scalar in
                if scalar.isASCII { return (scalar.value | 0x20) >= 0x61 && (scalar.value | 0x20) <= 0x7A }
                let info = WordBreakTable.info(scalar)
                return info.property.isAHLetter || info.property == .katakana || info.isUnspacedScriptLetter
            }
            return hasLetter ? .word : .number
        }
    }
}

/// How the word tokenizer sees the first scalar of a segment.
private enum CharacterClass: Equatable {
    case letter, digit, punctuation, symbol, separator

    init(_ scalar: Unicode.Scalar) {
        // ASCII fast path: most text is ASCII.
        if scalar.value < 0x80 {
            switch UInt8(scalar.value) {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): self = .letter
            case UInt8(ascii: "0")...UInt8(ascii: "9"): self = .digit
            case 0...0x20, 0x7F: self = .separator
            case UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "<"), UInt8(ascii: "="), UInt8(ascii: ">"),
                 UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
                self = .symbol
            default: self = .punctuation
            }
            return
        }
        // A lone combining mark (after a line break) still belongs to a word.
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .spacingMark, .nonspacingMark, .enclosingMark:
            self = .letter
        case .decimalNumber, .letterNumber, .otherNumber:
            self = .digit
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            self = .punctuation
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            self = .symbol
        default:
            // Spaces, controls, format characters (soft hyphen, bidi marks), private use, unassigned.
            self = .separator
        }
    }
}

/// Splits a string into words, numbers, punctuation and symbols, each with its range in the string:
/// the Linux stand-in for the Natural Language framework's `NLTokenizer(unit: .word)`.
///
/// The rules, applied to grapheme clusters (so an emoji ZWJ sequence or a letter with combining marks
/// stays whole):
/// - A **word** is a run of letters, combining marks and digits in any script ("naïve", "Ünïcödé",
///   "R2D2", "3rd", "한국어", "привет"). An apostrophe (`'` U+0027, `’` U+2019) between two letters
///   stays inside the word ("don't", "O’Brien", "rock'n'roll"); elsewhere it is punctuation
///   ("students'" is "students" + "'"). Hyphens, dots and slashes separate words ("well-known" is three
///   tokens). Han ideographs, kana and other scripts written without spaces are one word per ideograph
///   for Han, otherwise a run (there is no dictionary segmentation on Linux).
/// - A **number** is a run of digits that may contain `.` or `,` (also the Arabic separators U+066B,
///   U+066C) between two digits: "3.5", "1,000", "1.000.000,25". A sign is not part of it.
/// - **punctuation** (Unicode `P*`) and **symbols** (`S*`, emoji) are one token per grapheme cluster.
/// - Whitespace, control and format characters separate tokens and are never returned.
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

        /// Makes a token.
        public init(text: Substring, range: Range<String.Index>, kind: Kind) {
            self.text = text
            self.range = range
            self.kind = kind
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
        var tokens: [Token] = []
        var index = text.startIndex
        let end = text.endIndex
        while index < end {
            let character = text[index]
            let next = text.index(after: index)
            switch CharacterClass(character) {
            case .separator:
                index = next
            case .ideograph:
                append(.word, index..<next, to: &tokens, in: text)
                index = next
            case .punctuation:
                if includePunctuation { append(.punctuation, index..<next, to: &tokens, in: text) }
                index = next
            case .symbol:
                if includePunctuation { append(.symbol, index..<next, to: &tokens, in: text) }
                index = next
            case .letter, .digit:
                let (tokenEnd, kind) = scanWord(in: text, from: index)
                append(kind, index..<tokenEnd, to: &tokens, in: text)
                index = tokenEnd
            }
        }
        return tokens
    }

    private func append(_ kind: Kind, _ range: Range<String.Index>, to tokens: inout [Token], in text: String) {
        tokens.append(Token(text: text[range], range: range, kind: kind))
    }

    /// Scans a word or number starting at `start` (a letter or digit); returns its end and kind.
    private func scanWord(in text: String, from start: String.Index) -> (String.Index, Kind) {
        var index = start
        var hasLetter = false
        var previous: CharacterClass? = nil
        let end = text.endIndex
        while index < end {
            let character = text[index]
            let kind = CharacterClass(character)
            if kind == .letter || kind == .digit {
                hasLetter = hasLetter || kind == .letter
                previous = kind
                index = text.index(after: index)
                continue
            }
            // A joiner continues the token only between two matching characters.
            let after = text.index(after: index)
            guard after < end, let previous else { break }
            let following = CharacterClass(text[after])
            if previous == .letter, following == .letter, Self.isApostrophe(character) {
                index = after
                continue
            }
            if previous == .digit, following == .digit, !hasLetter, Self.isNumberSeparator(character) {
                index = after
                continue
            }
            break
        }
        return (index, hasLetter ? .word : .number)
    }

    static func isApostrophe(_ character: Character) -> Bool {
        character == "'" || character == "\u{2019}"
    }

    static func isNumberSeparator(_ character: Character) -> Bool {
        character == "." || character == "," || character == "\u{066B}" || character == "\u{066C}"
    }
}

/// How the word tokenizer sees one grapheme cluster (decided by its first scalar).
private enum CharacterClass: Equatable {
    case letter, digit, ideograph, punctuation, symbol, separator

    init(_ character: Character) {
        guard let scalar = character.unicodeScalars.first else {
            self = .separator
            return
        }
        // A keycap ("1️⃣") or emoji-presentation sequence is a symbol whatever its base.
        if character.unicodeScalars.count > 1,
           character.unicodeScalars.contains(where: { $0.value == 0x20E3 || $0.value == 0xFE0F }) {
            self = .symbol
            return
        }
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
        // A lone combining mark (after a space) still belongs to a word.
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter,
             .spacingMark, .nonspacingMark, .enclosingMark:
            self = .letter
        case .otherLetter:
            self = Self.isIdeograph(scalar) ? .ideograph : .letter
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

    /// Han ideographs (the CJK blocks BERT isolates too) are one word each.
    static func isIdeograph(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F,
             0x2B740...0x2B81F, 0x2B820...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default:
            return false
        }
    }
}

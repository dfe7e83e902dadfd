/// Word boundaries as Unicode Standard Annex #29 ("Unicode Text Segmentation", Unicode 15.0) defines
/// them, rules WB1-WB999 over the Word_Break property, and the tailoring ``WordTokenizer`` uses.
///
/// The properties come from the Unicode Character Database through a generated table
/// (`scripts/generate-word-break-tables.py`); the rules are written here. With ``Rules/unicode`` every
/// case of the standard's WordBreakTest.txt gives the standard's boundaries (the tests run all 1,823).
///
///     WordBoundaries.boundaries(in: "Don't stop.", rules: .unicode).count   // 6: |Don't| |stop|.|
///
/// ``Rules/nlukit`` is the tailoring UAX #29 allows (its section 4) that keeps the words NLUKit has
/// always made from Latin-script text, and splits the scripts written without spaces:
/// - letters join across an apostrophe only (`'` U+0027, `’` U+2019, `＇` U+FF07), not across `.`, `:`
///   or `·` (rules WB6/WB7: "e.g" and "a:b" are words apart);
/// - digits join across a decimal or grouping separator only (`.` `,` and their fullwidth and small forms,
///   U+066C), and only in a segment that has no letter so far (WB11/WB12: "1,000.5" is one number, "v1.2"
///   is "v1" "." "2", "1;2" three pieces);
/// - an underscore or another ExtendNumLet character does not join (WB13a/WB13b);
/// - a format character (soft hyphen, bidi marks, word joiner, byte-order mark) is a segment of its own,
///   not ignored inside a word (WB4);
/// - an "other number" (superscripts, subscripts, fractions: "m²", "H₂O") joins as a digit;
/// - every letter of a script written without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer,
///   Myanmar...) is a segment of its own with the marks that follow it (UAX #29 already separates Han and
///   Hiragana characters and Thai letters; Katakana runs and U+3005 are split here too);
/// - after a keycap or emoji presentation selector (U+20E3, U+FE0F) the segment ends.
public enum WordBoundaries {
    /// Which rules to apply.
    public enum Rules: Sendable, Hashable {
        /// UAX #29's default word boundaries, untailored.
        case unicode
        /// NLUKit's tailoring (see ``WordBoundaries``): the words ``WordTokenizer`` returns.
        case nlukit
    }

    /// The boundaries of `text`: `text.startIndex`, every position between two words, punctuation marks or
    /// runs of spaces, and `text.endIndex` (an empty text has none). Each index is a Unicode scalar boundary.
    ///
    ///     let text = "東京タワー"
    ///     WordBoundaries.boundaries(in: text, rules: .unicode).count   // 4: 東|京|タワー
    ///     WordBoundaries.boundaries(in: text, rules: .nlukit).count    // 6: every character apart
    public static func boundaries(in text: String, rules: Rules = .unicode) -> [String.Index] {
        let (scalars, indices, infos) = WordBreakTable.scalars(of: text)
        return boundaryOffsets(scalars, infos: infos, rules: rules).map { indices[$0] }
    }

    /// Whether `scalar` is a letter of a script written without spaces between words (Han, Hiragana,
    /// Katakana, Thai, Lao, Khmer, Myanmar...): such text is segmented into characters (and character
    /// pairs where features and keyword terms are made).
    ///
    ///     WordBoundaries.isUnspacedScriptLetter("語")   // true
    ///     WordBoundaries.isUnspacedScriptLetter("한")   // false: Korean is written with spaces
    public static func isUnspacedScriptLetter(_ scalar: Unicode.Scalar) -> Bool {
        WordBreakTable.info(scalar).isUnspacedScriptLetter
    }

    /// The boundaries of `scalars` as offsets (0 and `scalars.count` included unless it is empty).
    static func boundaryOffsets(_ scalars: [Unicode.Scalar], rules: Rules) -> [Int] {
        boundaryOffsets(scalars, infos: scalars.map(WordBreakTable.info), rules: rules)
    }

    /// The same, given each scalar's table entry.
    static func boundaryOffsets(_ scalars: [Unicode.Scalar], infos: [WordBreakScalarInfo], rules: Rules) -> [Int] {
        guard !scalars.isEmpty else { return [] }
        let properties = rules == .nlukit ? infos.map(tailored) : infos.map(\.property)
        var segmenter = Segmenter(scalars: scalars, infos: infos, properties: properties, tailored: rules == .nlukit)
        return segmenter.run()
    }

    /// The property NLUKit's rules see for a scalar.
    private static func tailored(_ info: WordBreakScalarInfo) -> WordBreakProperty {
        if info.isUnspacedScriptLetter { return .other }
        if info.isOtherNumber { return .numeric }
        switch info.property {
        case .format, .extendNumLet: return .other
        default: return info.property
        }
    }

    /// One left-to-right pass deciding each position between two scalars.
    private struct Segmenter {
        let scalars: [Unicode.Scalar]
        let infos: [WordBreakScalarInfo]
        let properties: [WordBreakProperty]
        let tailored: Bool
        /// The index of the character rule WB4 leaves before the current position (marks and format
        /// characters folded into it), and the one before that.
        var previous = 0
        var beforePrevious: Int? = nil
        /// Regional indicators in a row ending at `previous` (WB15/WB16 pair them).
        var regionalIndicators = 0
        /// Where the current segment starts, and whether it has a letter (tailored WB11/WB12).
        var segmentStart = 0
        var segmentHasLetter = false

        init(scalars: [Unicode.Scalar], infos: [WordBreakScalarInfo], properties: [WordBreakProperty], tailored: Bool) {
            self.scalars = scalars
            self.infos = infos
            self.properties = properties
            self.tailored = tailored
        }

        mutating func run() -> [Int] {
            var boundaries = [0]
            regionalIndicators = properties[0] == .regionalIndicator ? 1 : 0
            segmentHasLetter = isLetter(0)
            for position in 1..<properties.count {
                if breaks(at: position) {
                    boundaries.append(position)
                    segmentStart = position
                    segmentHasLetter = false
                }
                if isLetter(position) { segmentHasLetter = true }
                advance(to: position)
            }
            boundaries.append(properties.count)
            return boundaries
        }

        private func isLetter(_ index: Int) -> Bool {
            properties[index].isAHLetter || properties[index] == .katakana || infos[index].isUnspacedScriptLetter
        }

        /// Moves the WB4 state past scalar `index`.
        private mutating func advance(to index: Int) {
            let property = properties[index]
            // WB4: an ignorable scalar folds into the character before it, unless that is a line break
            // (then it stands alone, and nothing before it matters to the rules).
            if property.isIgnorable && !properties[previous].isLineBreak && index > 0 { return }
            beforePrevious = previous
            previous = index
            regionalIndicators = property == .regionalIndicator ? regionalIndicators + 1 : 0
        }

        /// The first scalar after `index` that WB4 does not fold away.
        private func next(after index: Int) -> WordBreakProperty? {
            var index = index + 1
            while index < properties.count {
                if !properties[index].isIgnorable { return properties[index] }
                index += 1
            }
            return nil
        }

        private func breaks(at position: Int) -> Bool {
            let left = properties[position - 1], right = properties[position]
            if left == .cr && right == .lf { return false }                                    // WB3
            if left.isLineBreak || right.isLineBreak { return true }                             // WB3a, WB3b
            if left == .zwj && infos[position].isExtendedPictographic { return false }          // WB3c
            if left == .wSegSpace && right == .wSegSpace { return false }                       // WB3d
            // Tailoring: a keycap or emoji presentation selector ends the emoji, and its segment.
            if tailored, !right.isIgnorable, scalars[position - 1].value == 0x20E3 || scalars[position - 1].value == 0xFE0F {
                return true
            }
            if right.isIgnorable { return false }                                               // WB4
            let before = properties[previous]
            let twoBefore = beforePrevious.map { properties[$0] }
            if before.isAHLetter && right.isAHLetter { return false }                           // WB5
            if before.isAHLetter, right == .midLetter || right.isMidNumLetQ, joinsLetters(position),
               next(after: position)?.isAHLetter == true { return false }                       // WB6
            if before == .midLetter || before.isMidNumLetQ, right.isAHLetter, joinsLetters(previous),
               twoBefore?.isAHLetter == true { return false }                                   // WB7
            if before == .hebrewLetter && right == .singleQuote { return false }                // WB7a
            if before == .hebrewLetter, right == .doubleQuote, next(after: position) == .hebrewLetter { return false } // WB7b
            if before == .doubleQuote, right == .hebrewLetter, twoBefore == .hebrewLetter { return false }             // WB7c
            if before == .numeric && right == .numeric { return false }                         // WB8
            if before.isAHLetter && right == .numeric { return false }                          // WB9
            if before == .numeric && right.isAHLetter { return false }                          // WB10
            if before == .midNum || before.isMidNumLetQ, right == .numeric, twoBefore == .numeric,
               joinsNumbers(previous), !tailored || segmentStart < previous { return false }    // WB11
            if before == .numeric, right == .midNum || right.isMidNumLetQ, joinsNumbers(position),
               next(after: position) == .numeric { return false }                              // WB12
            if before == .katakana && right == .katakana { return false }                       // WB13
            if before.isAHLetter || before == .numeric || before == .katakana || before == .extendNumLet,
               right == .extendNumLet { return false }                                          // WB13a
            if before == .extendNumLet, right.isAHLetter || right == .numeric || right == .katakana { return false } // WB13b
            if before == .regionalIndicator && right == .regionalIndicator && regionalIndicators % 2 == 1 {
                return false                                                                    // WB15, WB16
            }
            return true                                                                         // WB999
        }

        /// Whether the MidLetter/MidNumLetQ scalar at `index` may join two letters (tailored: apostrophes only).
        private func joinsLetters(_ index: Int) -> Bool {
            guard tailored else { return true }
            switch scalars[index].value {
            case 0x27, 0x2019, 0xFF07: return true
            default: return false
            }
        }

        /// Whether the MidNum/MidNumLetQ scalar at `index` may join two digits (tailored: decimal and grouping
        /// separators, in a segment without letters).
        private func joinsNumbers(_ index: Int) -> Bool {
            guard tailored else { return true }
            guard !segmentHasLetter else { return false }
            switch scalars[index].value {
            case 0x2C, 0x2E, 0x66C, 0xFE50, 0xFE52, 0xFF0C, 0xFF0E: return true
            default: return false
            }
        }
    }
}

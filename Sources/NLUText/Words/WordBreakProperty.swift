/// The Word_Break property of a scalar (UAX #29, table 3), in the order of the generated table's values.
enum WordBreakProperty: UInt8 {
    case other = 0, cr, lf, newline, extend, zwj, regionalIndicator, format, katakana, hebrewLetter, aLetter,
         singleQuote, doubleQuote, midNumLet, midLetter, midNum, numeric, extendNumLet, wSegSpace

    /// Ignored after another character by rule WB4 (they attach to what precedes them).
    var isIgnorable: Bool { self == .extend || self == .format || self == .zwj }
    /// CR, LF or another line break: rules WB3a/WB3b break around them.
    var isLineBreak: Bool { self == .cr || self == .lf || self == .newline }
    /// AHLetter in the rules.
    var isAHLetter: Bool { self == .aLetter || self == .hebrewLetter }
    /// MidNumLetQ in the rules.
    var isMidNumLetQ: Bool { self == .midNumLet || self == .singleQuote }
}

/// What the generated table (`WordBreakTable.runs`, scripts/generate-word-break-tables.py) says of one scalar.
struct WordBreakScalarInfo: Equatable {
    let byte: UInt8

    var property: WordBreakProperty { WordBreakProperty(rawValue: byte & 0x1F) ?? .other }
    /// Extended_Pictographic (emoji), for rule WB3c.
    var isExtendedPictographic: Bool { byte & 0x20 != 0 }
    /// A letter of a script written without spaces between words: Han, Hiragana, Katakana, and the letters
    /// of Thai, Lao, Khmer, Myanmar... (Line_Break=SA).
    var isUnspacedScriptLetter: Bool { byte & 0x40 != 0 }
    /// General category No (superscripts, subscripts, fractions, circled digits) that Word_Break leaves as Other.
    var isOtherNumber: Bool { byte & 0x80 != 0 }
}

enum WordBreakTable {
    /// The table's byte for every ASCII scalar, looked up once: most text is ASCII.
    static let ascii: [UInt8] = (0..<0x80).map { search(UInt32($0)) }

    static func info(_ scalar: Unicode.Scalar) -> WordBreakScalarInfo {
        let value = scalar.value
        if value < 0x80 { return WordBreakScalarInfo(byte: ascii[Int(value)]) }
        return WordBreakScalarInfo(byte: search(value))
    }

    /// The scalars of `text`, their indices (and `text.endIndex` last) and their table entries, in one walk
    /// (the ASCII table read once, not per scalar: a global's every access checks that it is initialized).
    static func scalars(of text: String) -> (scalars: [Unicode.Scalar], indices: [String.Index], infos: [WordBreakScalarInfo]) {
        var scalars: [Unicode.Scalar] = []
        var indices: [String.Index] = []
        var infos: [WordBreakScalarInfo] = []
        let capacity = text.utf8.count
        scalars.reserveCapacity(capacity)
        indices.reserveCapacity(capacity + 1)
        infos.reserveCapacity(capacity)
        ascii.withUnsafeBufferPointer { ascii in
            let view = text.unicodeScalars
            var index = view.startIndex
            while index < view.endIndex {
                let scalar = view[index]
                scalars.append(scalar)
                indices.append(index)
                infos.append(WordBreakScalarInfo(byte: scalar.value < 0x80 ? ascii[Int(scalar.value)] : search(scalar.value)))
                index = view.index(after: index)
            }
            indices.append(view.endIndex)
        }
        return (scalars, indices, infos)
    }

    /// Binary search for the last run that starts at or before `value`.
    private static func search(_ value: UInt32) -> UInt8 {
        runs.withUnsafeBufferPointer { runs -> UInt8 in
            var low = 0, high = runs.count
            while high - low > 1 {
                let middle = (low + high) / 2
                if runs[middle] >> 8 <= value { low = middle } else { high = middle }
            }
            return runs.isEmpty ? 0 : UInt8(truncatingIfNeeded: runs[low])
        }
    }
}

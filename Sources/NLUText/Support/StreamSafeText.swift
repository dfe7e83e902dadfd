/// Text in Unicode's Stream-Safe Text Format (UAX #15, section 13): after 30 non-starters (combining marks)
/// in a row, a U+034F COMBINING GRAPHEME JOINER, a starter that draws nothing, breaks the run.
///
/// Swift hashes and compares strings by their canonical form, and Foundation normalizes them, by sorting each
/// run of combining marks; a run of a million marks (a "Zalgo" word, or one letter under a storm of Hebrew
/// points) made hashing that one word take minutes, so a request that looked it up in a dictionary hung. Runs
/// of at most 31 scalars keep every normalization linear. No real text has more than 30 marks in a row (the
/// longest canonical sequence in Unicode has 18), so words anyone means are left as they are.
///
///     StreamSafeText.string(of: "e\u{301}")                           // unchanged
///     StreamSafeText.string(of: "a" + String(repeating: "\u{301}", count: 31)).unicodeScalars.count  // 33
public enum StreamSafeText {
    /// The longest run of non-starters the format allows.
    public static let longestRunOfNonStarters = 30

    /// The joiner put after every 30 non-starters in a row.
    public static let joiner: Unicode.Scalar = "\u{34F}"

    /// `text` in the stream-safe format (the same string when it already is, without copying it).
    public static func string<S: StringProtocol>(of text: S) -> String {
        guard needsJoiners(text.unicodeScalars) else { return String(text) }
        var result = String.UnicodeScalarView()
        var run = 0
        for scalar in text.unicodeScalars {
            if isNonStarter(scalar) {
                if run == longestRunOfNonStarters {
                    result.append(joiner)
                    run = 0
                }
                run += 1
            } else {
                run = 0
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// `form` (a Foundation normalization: `decomposedStringWithCanonicalMapping`,
    /// `precomposedStringWithCompatibilityMapping`) applied to the stream-safe `text`, a few hundred scalars at
    /// a time. Foundation's normalizers are quadratic on some texts even when they are stream-safe (20,000
    /// Tibetan U+0F73 separated by spaces: 0.2 s, 200,000: minutes); pieces cut before a scalar no
    /// normalization reaches across (ASCII, or a starter that neither decomposes into marks nor composes with
    /// what precedes it) give the same result, in time linear in the text. Texts of up to 256 scalars (nearly
    /// every utterance) go to `form` whole.
    ///
    ///     StreamSafeText.normalized("Ｃａｆé") { $0.precomposedStringWithCompatibilityMapping }   // "Café"
    public static func normalized(_ text: String, by form: (String) -> String) -> String {
        let safe = string(of: text)
        let scalars = safe.unicodeScalars
        guard scalars.count > piece else { return form(safe) }
        var result = ""
        var start = scalars.startIndex, length = 0
        for index in scalars.indices {
            if length >= piece, isBoundaryBefore(scalars[index]) {
                result += form(String(scalars[start..<index]))
                start = index
                length = 0
            }
            length += 1
        }
        result += form(String(scalars[start...]))
        return result
    }

    /// How many scalars ``normalized(_:by:)`` gathers before it looks for a place to cut.
    static let piece = 256

    /// Whether no canonical or compatibility normalization joins `scalar` to what comes before it: ASCII, the
    /// joiner, and starters other than the ones that decompose into marks (Tibetan) or compose backwards
    /// (Hangul vowel and final jamo).
    static func isBoundaryBefore(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 || scalar == joiner { return true }
        if isNonStarter(scalar) { return false }
        switch scalar.value {
        case 0x1160...0x11FF, 0xD7B0...0xD7FF: return false
        default: return scalar.properties.generalCategory != .spacingMark && scalar.properties.generalCategory != .nonspacingMark
        }
    }

    /// Whether `scalars` hold a run of more than 30 non-starters.
    public static func needsJoiners<C: Collection>(_ scalars: C) -> Bool where C.Element == Unicode.Scalar {
        var run = 0
        for scalar in scalars {
            if isNonStarter(scalar) {
                run += 1
                if run > longestRunOfNonStarters { return true }
            } else {
                run = 0
            }
        }
        return false
    }

    /// A scalar with a non-zero canonical combining class, or one of the few starters whose decomposition
    /// begins with one (Tibetan U+0F73, U+0F75, U+0F81; half-width katakana marks U+FF9E, U+FF9F under NFKC), as
    /// UAX #15 counts them. ASCII has none (the common case, without a table).
    @inline(__always)
    static func isNonStarter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return false }
        switch scalar.value {
        case 0xF73, 0xF75, 0xF81, 0xFF9E, 0xFF9F: return true
        default: return scalar.properties.canonicalCombiningClass.rawValue != 0
        }
    }
}

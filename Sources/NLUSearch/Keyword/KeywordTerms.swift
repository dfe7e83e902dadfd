import Foundation

/// The terms keyword ranking compares: lower-cased runs of letters and digits (a combining mark
/// inside a run stays in it, so a decomposed "cafe\u{301}" is one term, as the composed "café" is).
///
/// A scalar-level split rather than `WordTokenizer` (grapheme clusters, apostrophes, number
/// grouping): ranking needs only comparable terms, and this is several times faster on the
/// megabytes of a long book.
///
///     KeywordTerms.terms("Café au lait, 2 cups!")   // ["café", "au", "lait", "2", "cups"]
public enum KeywordTerms {
    /// The terms of `text`, in order.
    public static func terms(_ text: String) -> [String] {
        var result: [String] = []
        forEachTerm(in: text) { term, _ in result.append(term) }
        return result
    }

    /// Calls `body(term, scalarRange)` for every term of `text`, in order; the range counts
    /// Unicode scalars from the start of `text`.
    public static func forEachTerm(in text: String, _ body: (String, Range<Int>) -> Void) {
        var current = String.UnicodeScalarView()
        var hasUpper = false
        var start = 0, position = 0
        func flush() {
            guard !current.isEmpty else { return }
            let term = String(current)
            body(hasUpper ? term.lowercased() : term, start..<position)
            current = String.UnicodeScalarView()
            hasUpper = false
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let value = scalar.value
                if (value >= 0x61 && value <= 0x7A) || (value >= 0x30 && value <= 0x39) {
                    if current.isEmpty { start = position }
                    current.append(scalar)
                } else if value >= 0x41 && value <= 0x5A {
                    if current.isEmpty { start = position }
                    current.append(Unicode.Scalar(value + 0x20) ?? scalar)
                } else {
                    flush()
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if current.isEmpty { start = position }
                current.append(scalar)
                hasUpper = hasUpper || scalar.properties.changesWhenLowercased
            } else if !current.isEmpty, Self.isMark(scalar) {
                current.append(scalar)
            } else {
                flush()
            }
            position += 1
        }
        flush()
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}

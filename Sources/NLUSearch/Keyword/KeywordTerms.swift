import Foundation
import NLUText

/// The terms keyword ranking compares: lower-cased runs of letters and digits (a combining mark
/// inside a run stays in it, so a decomposed "cafe\u{301}" is one term, as the composed "café" is).
///
/// A scalar-level split rather than `WordTokenizer` (grapheme clusters, apostrophes, number
/// grouping): ranking needs only comparable terms, and this is several times faster on the
/// megabytes of a long book.
///
///     KeywordTerms.terms("Café au lait, 2 cups!")   // ["café", "au", "lait", "2", "cups"]
///
/// With `segmentingUnspacedScripts`, text in a script written without spaces (Han, Hiragana, Katakana,
/// Thai...: ``WordBoundaries/isUnspacedScriptLetter(_:)``) is not one term per run: each character is a
/// term and so is each pair of adjacent characters, as Lucene's CJK bigram analysis with unigrams makes
/// them. A query then matches a document that shares a word of two characters without knowing where its
/// words begin, and a single-character query still matches.
///
///     KeywordTerms.terms("東京タワー", segmentingUnspacedScripts: true)
///     // ["東", "東京", "京", "京タ", "タ", "タワ", "ワ", "ワー", "ー"]
///
/// With an `elision` (French, Italian, Catalan: ``NLUText/Elision``), a run that is an elided word and ends at an
/// apostrophe directly followed by a letter is no term: "l'alarme" gives "alarme" alone, as the elided word of the
/// one word "l'alarme" is removed for the intent featurizer. "l' alarme" keeps "l" (the apostrophe ends no
/// elision there), and so does every language without elided words.
///
///     KeywordTerms.terms("Qu’il sonne à l'heure", elision: Elision(language: .french))   // ["il", "sonne", "à", "heure"]
public enum KeywordTerms {
    /// The terms of `text`, in order.
    public static func terms(_ text: String, segmentingUnspacedScripts: Bool = false, elision: Elision? = nil) -> [String] {
        var result: [String] = []
        forEachTerm(in: text, segmentingUnspacedScripts: segmentingUnspacedScripts, elision: elision) { term, _ in
            result.append(term)
        }
        return result
    }

    /// Calls `body(term, scalarRange)` for every term of `text`, in order; the range counts
    /// Unicode scalars from the start of `text` (a character pair's range covers both characters).
    public static func forEachTerm(in text: String, segmentingUnspacedScripts: Bool = false, elision: Elision? = nil,
                                   _ body: (String, Range<Int>) -> Void) {
        var current = String.UnicodeScalarView()
        var hasUpper = false
        var start = 0, position = 0
        // An elided word read up to its apostrophe: no term if a letter follows, else a term after all.
        var elided: (term: String, range: Range<Int>)?
        // The run of unspaced-script characters being read: each one's text (its marks included) and start.
        var unspaced: [(text: String.UnicodeScalarView, start: Int)] = []
        func flushUnspaced() {
            guard !unspaced.isEmpty else { return }
            for (index, character) in unspaced.enumerated() {
                let end = index + 1 < unspaced.count ? unspaced[index + 1].start : position
                body(String(character.text), character.start..<end)
                if index + 1 < unspaced.count {
                    let next = unspaced[index + 1]
                    let pairEnd = index + 2 < unspaced.count ? unspaced[index + 2].start : position
                    body(String(character.text) + String(next.text), character.start..<pairEnd)
                }
            }
            unspaced.removeAll(keepingCapacity: true)
        }
        func flushRun() {
            guard !current.isEmpty else { return }
            let term = String(current)
            body(hasUpper ? term.lowercased() : term, start..<position)
            current = String.UnicodeScalarView()
            hasUpper = false
        }
        func flush() {
            flushUnspaced()
            flushRun()
        }
        for scalar in text.unicodeScalars {
            if let pending = elided {
                elided = nil
                if !Self.isLetter(scalar) { body(pending.term, pending.range) }
            }
            if let elision, !current.isEmpty, Elision.isApostrophe(scalar), elision.isElided(String(current)) {
                let term = String(current)
                elided = (hasUpper ? term.lowercased() : term, start..<position)
                current = String.UnicodeScalarView()
                hasUpper = false
                position += 1
                continue
            }
            if !scalar.isASCII, segmentingUnspacedScripts {
                if WordBoundaries.isUnspacedScriptLetter(scalar) {
                    // The run of letters and digits before ends here; the unspaced run goes on.
                    flushRun()
                    unspaced.append((String.UnicodeScalarView([scalar]), position))
                    position += 1
                    continue
                }
                if !unspaced.isEmpty, Self.isMark(scalar) {
                    unspaced[unspaced.count - 1].text.append(scalar)
                    position += 1
                    continue
                }
                flushUnspaced()
            } else if !unspaced.isEmpty {
                flushUnspaced()
            }
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
        if let pending = elided { body(pending.term, pending.range) }
        flush()
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? (scalar.value | 0x20) >= 0x61 && (scalar.value | 0x20) <= 0x7A : scalar.properties.isAlphabetic
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}

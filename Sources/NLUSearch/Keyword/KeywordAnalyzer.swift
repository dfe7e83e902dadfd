import Foundation
import NLUText

/// The one keyword analysis of a ``DocumentIndex`` and of the PostgreSQL backend: what both store for
/// a chunk and look up for a query, so that the two backends match the same terms and count the same
/// lengths. A term is a ``KeywordTerms`` term (lower-cased run of letters and digits, digits kept),
/// its Latin letters' diacritics removed as SQLite's `unicode61 remove_diacritics 2` removes them
/// ("Café" and "cafe" are one term; other scripts' letters, "й" or "ά", stay as they are), then stemmed by Snowball English (``EnglishStemmer``,
/// checked word for word against the `snowballstemmer` package: "connection", "connected" → "connect").
///
/// Terms longer than ``maximumTermBytes`` UTF-8 bytes (no word is; base64 runs and hashes are) are
/// left out, in documents and queries alike: PostgreSQL's GIN index refuses entries near 2.7 kB.
///
///     KeywordAnalyzer.terms("Cafés connected in 2024")   // ["cafe", "connect", "in", "2024"]
public enum KeywordAnalyzer {
    /// The longest term kept, in UTF-8 bytes.
    public static let maximumTermBytes = 240

    private static let stemmer = EnglishStemmer()

    /// The analysed terms of `text`, in order, repeats kept.
    public static func terms(_ text: String) -> [String] {
        terms(ofEach: [text])[0]
    }

    /// The analysed terms of each text, as ``terms(_:)`` gives them; each distinct word is folded and
    /// stemmed once for all the texts (a long document repeats its words: stemming is most of the cost).
    public static func terms(ofEach texts: [String]) -> [[String]] {
        var analysed: [String: String] = [:]
        return texts.map { text in
            var result: [String] = []
            KeywordTerms.forEachTerm(in: text) { term, _ in
                let stem: String
                if let known = analysed[term] {
                    stem = known
                } else {
                    stem = stemmer.stem(foldingDiacritics(term))
                    analysed[term] = stem
                }
                if !stem.isEmpty, stem.utf8.count <= maximumTermBytes { result.append(stem) }
            }
            return result
        }
    }

    /// The analysed terms of `text` separated by single spaces: what an index stores per chunk (SQLite's
    /// FTS5 `ascii` tokenizer and PostgreSQL's `string_to_array(_, ' ')` split it back into exactly these terms).
    public static func analysedText(_ text: String) -> String {
        terms(text).joined(separator: " ")
    }

    /// `term` with its Latin letters' diacritics removed, as FTS5's `remove_diacritics 2` removes them:
    /// a precomposed Latin letter (U+00C0-U+024F, U+1E00-U+1EFF) loses the combining marks of its
    /// canonical decomposition ("ệ" → "e"), and a combining diacritic written apart (U+0300-U+036F)
    /// is dropped. Letters without a decomposition ("ø", "ł", "ß") stay; "ς" becomes "σ" (case folding).
    static func foldingDiacritics(_ term: String) -> String {
        guard term.unicodeScalars.contains(where: { !$0.isASCII }) else { return term }
        var kept = String.UnicodeScalarView()
        for scalar in term.unicodeScalars {
            let value = scalar.value
            if (0x300...0x36F).contains(value) { continue }
            // Case folding, as FTS5's tokenizer folds: the final sigma is a sigma.
            if value == 0x3C2 { kept.append("\u{3C3}"); continue }
            if (0xC0...0x24F).contains(value) || (0x1E00...0x1EFF).contains(value) {
                for part in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                where !(0x300...0x36F).contains(part.value) { kept.append(part) }
            } else {
                kept.append(scalar)
            }
        }
        return String(kept)
    }
}

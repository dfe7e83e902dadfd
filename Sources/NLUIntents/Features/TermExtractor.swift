import Foundation
import NLUText

/// Turns an utterance into its terms (the strings the vocabulary indexes): normalized, lowercased,
/// tokenized with NLUText's ``WordTokenizer``, without the elided articles of French, Italian, Catalan and Irish
/// (``NLUText/Elision``, when ``FeatureOptions/stripsElisions``: "l'alarme" is "alarme"), stemmed with the ``Stemmer`` of the options' language
/// (English by default; none for a language Snowball has no stemmer for), then word n-grams
/// (`"turn"`, `"turn on"`) and character n-grams inside word boundaries (`"# tu"`, `"#urn "`).
///
/// Text in a script written without spaces (Chinese, Japanese, Thai) comes from the tokenizer one
/// character a word, so its word unigrams and bigrams are character unigrams and bigrams (as Lucene's CJK
/// analysis indexes them). Character n-grams stay inside each word: taken across a whole run of such
/// characters instead, they cost 1.7 points of intent accuracy in Chinese and 0.1 in Japanese on xSID
/// (`benchmarks/languages_intents.py`, docs/benchmarks.md). Runs of Thai, Lao, Khmer or Myanmar letters,
/// whose words are several letters, also get n-grams across the run (``LetterRunNGrams``, `"#~ปิด"`).
///
///     let extractor = TermExtractor(options: FeatureOptions())
///     extractor.terms(in: "Turn ON the lights")   // ["turn", "on", "the", "light", "turn on", ..., "# t", ...]
public struct TermExtractor: Sendable {
    /// The options this extractor follows.
    public let options: FeatureOptions
    private let tokenizer: WordTokenizer
    private let stemmer: Stemmer?
    private let elision: Elision?

    /// Creates an extractor.
    public init(options: FeatureOptions) {
        self.options = options
        self.tokenizer = WordTokenizer(includePunctuation: options.includePunctuation)
        self.stemmer = options.stemming ? options.stemmer : nil
        self.elision = options.stripsElisions == true
            ? (try? StemmerLanguage(code: options.language ?? "en")).flatMap { Elision(language: $0, revision: options.elisionRevision ?? 1) } : nil
    }

    /// The normalized text the tokens are taken from.
    public func normalize(_ text: String) -> String {
        var result = text
        // Compatibility normalization only matters outside ASCII; skip the Foundation call otherwise. By pieces,
        // stream-safe (``StreamSafeText/normalized(_:by:)``): Foundation's is quadratic on runs of marks, and
        // the terms are hashed, which Swift does in time quadratic in a run's length.
        if !text.utf8.allSatisfy({ $0 < 0x80 }) {
            result = options.unicodeNormalization
                ? StreamSafeText.normalized(result) { $0.precomposedStringWithCompatibilityMapping } : StreamSafeText.string(of: result)
        }
        return options.lowercase ? result.lowercased() : result
    }

    /// All terms of `text`, repeated as often as they occur.
    public func terms(in text: String) -> [String] {
        let normalized = normalize(text)
        let tokens = tokenizer.tokens(in: normalized)
        let words = tokens.map { String(elision?.remainder(of: $0.text) ?? $0.text) }
        var terms: [String] = []
        terms.reserveCapacity(words.count * 12)
        let units = stemmer.map { words.map($0.stem) } ?? words
        for length in options.wordNGrams where length >= 1 && length <= units.count {
            if length == 1 {
                terms += units
            } else {
                for start in 0...(units.count - length) {
                    terms.append(units[start..<(start + length)].joined(separator: " "))
                }
            }
        }
        if let range = options.characterNGrams {
            for word in words { appendCharacterNGrams(of: word, lengths: range, to: &terms) }
        }
        if let range = options.letterRunNGrams {
            LetterRunNGrams.append(from: tokens, of: normalized, lengths: range, to: &terms)
        }
        return terms
    }

    /// Character n-grams of ` word ` (space-padded, as scikit-learn's `char_wb`), each prefixed with
    /// `#` so they never collide with word terms (words never contain `#` or spaces).
    private func appendCharacterNGrams(of word: String, lengths: ClosedRange<Int>, to terms: inout [String]) {
        let characters = [" "] + Array(word) + [" "]
        for length in lengths where length >= 1 && length <= characters.count {
            for start in 0...(characters.count - length) {
                var gram = "#"
                gram.append(contentsOf: characters[start..<(start + length)])
                terms.append(gram)
            }
        }
    }
}

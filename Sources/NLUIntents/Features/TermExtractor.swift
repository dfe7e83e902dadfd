import Foundation
import NLUText

/// Turns an utterance into its terms (the strings the vocabulary indexes): normalized, lowercased,
/// tokenized with NLUText's ``WordTokenizer``, stemmed with the ``Stemmer`` of the options' language
/// (English by default; none for a language Snowball has no stemmer for), then word n-grams
/// (`"turn"`, `"turn on"`) and character n-grams inside word boundaries (`"# tu"`, `"#urn "`).
///
/// Text in a script written without spaces (Chinese, Japanese, Thai) comes from the tokenizer one
/// character a word, so its word unigrams and bigrams are character unigrams and bigrams (as Lucene's CJK
/// analysis indexes them); its character n-grams are taken across each unbroken run of such characters
/// ("東京タワー" gives "#東京タ", "#京タワ"...), as they are inside a word of a spaced script.
///
///     let extractor = TermExtractor(options: FeatureOptions())
///     extractor.terms(in: "Turn ON the lights")   // ["turn", "on", "the", "light", "turn on", ..., "# t", ...]
public struct TermExtractor: Sendable {
    /// The options this extractor follows.
    public let options: FeatureOptions
    private let tokenizer: WordTokenizer
    private let stemmer: Stemmer?

    /// Creates an extractor.
    public init(options: FeatureOptions) {
        self.options = options
        self.tokenizer = WordTokenizer(includePunctuation: options.includePunctuation)
        self.stemmer = options.stemming ? options.stemmer : nil
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
        let words = tokens.map { String($0.text) }
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
            for word in Self.characterNGramUnits(tokens) { appendCharacterNGrams(of: word, lengths: range, to: &terms) }
        }
        return terms
    }

    /// The strings character n-grams are taken from: each token's text, except that adjacent characters of
    /// a script written without spaces (nothing between them) are one run, the word boundaries such text lacks.
    static func characterNGramUnits(_ tokens: [WordTokenizer.Token]) -> [String] {
        var units: [String] = []
        var run = ""
        var runEnd: String.Index? = nil
        for token in tokens {
            if token.isUnspacedScriptCharacter {
                if let end = runEnd, end == token.range.lowerBound {
                    run += token.text
                } else {
                    if !run.isEmpty { units.append(run) }
                    run = String(token.text)
                }
                runEnd = token.range.upperBound
                continue
            }
            if !run.isEmpty { units.append(run) }
            run = ""
            runEnd = nil
            units.append(String(token.text))
        }
        if !run.isEmpty { units.append(run) }
        return units
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

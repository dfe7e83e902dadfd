import NLUCore
import NLUText
import NLUInputOutput

/// How utterances become feature vectors: normalization, tokens, n-grams, weighting and vocabulary
/// pruning. Stored in the model, so prediction featurizes exactly as training did.
///
///     var options = FeatureOptions()
///     options.characterNGrams = nil          // words only
///     options.weighting = .binary            // SwiftNLC's bag of words
public struct FeatureOptions: Codable, Sendable, Equatable {
    /// How a term's count in an utterance becomes its value.
    public enum Weighting: String, Codable, Sendable, CaseIterable {
        /// 1 when present (SwiftNLC's bag of words).
        case binary
        /// The raw count.
        case counts
        /// Term frequency × inverse document frequency, as scikit-learn's `TfidfVectorizer`
        /// (`smooth_idf`, optionally `sublinear_tf`).
        case tfidf
    }

    /// Apply Unicode compatibility normalization (NFKC: full-width letters, ligatures) first.
    public var unicodeNormalization: Bool = true
    /// Lowercase before anything else.
    public var lowercase: Bool = true
    /// Replace words by their Snowball stems (in ``language``).
    public var stemming: Bool = true
    /// The utterances' language (ISO 639-1 or culture code, `fr`, `pt-BR`), whose Snowball stemmer
    /// stems the words. `nil` while training takes the dataset's language; a model stores the language
    /// it was trained in, and `nil` in a model (one made before languages were recorded) is English.
    /// A language without a stemmer (Chinese, Japanese...) keeps its words as they are.
    public var language: String? = nil
    /// Remove the elided articles and pronouns of French, Italian and Catalan before the words are stemmed and cut
    /// into n-grams (``NLUText/Elision``: "l'alarme" and "l’alarme" are the word "alarme"); other languages have none.
    /// `nil`, as in a model saved before this option existed (its manifest lacks the field), keeps them: such a
    /// model featurizes as it always did.
    public var stripsElisions: Bool? = true
    /// Which lists of elided words ``stripsElisions`` removes (``NLUText/Elision/revision``: 1, French, Italian and
    /// Catalan; 2, also Irish). `nil`, as in a model saved before Irish was added (its manifest lacks the field), is
    /// 1: such a model featurizes Irish as it always did.
    public var elisionRevision: Int? = Elision.revision
    /// Keep punctuation and symbol tokens as words.
    public var includePunctuation: Bool = false
    /// Word n-gram lengths, e.g. `1...2` for words and word pairs.
    public var wordNGrams: ClosedRange<Int> = 1...2
    /// Character n-gram lengths inside word boundaries (robust to typos), `nil` for none.
    public var characterNGrams: ClosedRange<Int>? = 3...4
    /// Character n-gram lengths across each run of Thai, Lao, Khmer or Myanmar letters (scripts written
    /// without spaces whose words are several letters: ``LetterRunNGrams``), `nil` for none. 3–4, as
    /// ``characterNGrams``: Thai intent accuracy 95.96 → 96.39 % (scikit-learn's character 1–4-grams: 96.69 %;
    /// 1–4 and 2–4 here within noise of it with more terms, docs/benchmarks.md); text in other scripts gets
    /// none. A model saved before this option existed has none (its manifest lacks the field) and featurizes
    /// as it always did.
    public var letterRunNGrams: ClosedRange<Int>? = 3...4
    /// How counts become values.
    public var weighting: Weighting = .tfidf
    /// Use `1 + log(count)` instead of the count (with `.tfidf` and `.counts`).
    public var sublinearTF: Bool = true
    /// Scale each vector to unit Euclidean length.
    public var l2Normalize: Bool = true
    /// Drop terms seen in fewer training utterances than this; `nil` (the default) chooses it from the
    /// number of training utterances (``automaticMinimumDocumentFrequency(trainingUtterances:)``), a
    /// number forces it. A fitted ``TextFeaturizer`` records the value it used.
    public var minDocumentFrequency: Int? = nil
    /// Keep at most this many terms (the most frequent), `nil` for no limit. 0 keeps none: no bag of
    /// words, for a model whose only features are sentence embeddings (a model trained in one language
    /// and asked in others leans on the words of the first; the embedding alone carries across).
    public var maxFeatures: Int? = nil

    /// The stemmer ``language`` selects (English when it is `nil`), or `nil` when no Snowball stemmer
    /// stems that language. A code that is not a language code at all is refused by ``validate(file:prefix:)``
    /// before any training or loading, and a language without a stemmer is said once by training
    /// (``IntentLanguage/warning(stemming:builtins:)``): here both only mean "no stemmer".
    ///
    ///     var options = FeatureOptions()
    ///     options.language = "fr-FR"
    ///     options.stemmer?.language   // .french
    public var stemmer: Stemmer? {
        guard let stemmed = try? StemmerLanguage(code: language ?? "en") else { return nil }
        return try? Stemmer(stemmed)
    }

    /// The defaults, tuned on the Snips benchmark (benchmarks/intents.py): character 3–4-grams gave
    /// the best accuracy with a small vocabulary (fast loads); the vocabulary pruning adapts to the
    /// dataset's size (``automaticMinimumDocumentFrequency(trainingUtterances:)``).
    public init() {}

    /// The minimum document frequency for `count` training utterances: ``minDocumentFrequency`` when
    /// set (at least 1), else the automatic choice.
    ///
    ///     FeatureOptions().minimumDocumentFrequency(trainingUtterances: 120)   // 1
    public func minimumDocumentFrequency(trainingUtterances count: Int) -> Int {
        minDocumentFrequency.map { max(1, $0) } ?? Self.automaticMinimumDocumentFrequency(trainingUtterances: count)
    }

    /// The default minimum document frequency: 1 under 500 training utterances, 2 under 5,000, 3 from
    /// 5,000 on. A chat bot's few examples per intent need every word (a word in one example is often
    /// the one that names the intent); a large dataset loses nothing by pruning rare terms and gets a
    /// vocabulary a third the size (faster loads). Measured on Snips subsets (3 to 50 utterances per
    /// intent: up to 7 points better than pruning below 3) and the full set (same accuracy, 20,676
    /// instead of 71,119 terms).
    ///
    ///     FeatureOptions.automaticMinimumDocumentFrequency(trainingUtterances: 12_000)   // 3
    public static func automaticMinimumDocumentFrequency(trainingUtterances count: Int) -> Int {
        switch count {
        case ..<500: return 1
        case ..<5_000: return 2
        default: return 3
        }
    }

    /// The accepted n-gram lengths: longer word or character n-grams only add features that never recur.
    public static let wordNGramLengths = 1...10
    public static let characterNGramLengths = 1...20

    /// Checks every field's range (they come from options or from a model's manifest), and that ``language``
    /// is a language code.
    /// - Throws: ``NLUCore/OutOfRangeError`` naming the field (and `file`, for a manifest), or
    ///   ``IntentLanguageError`` for a language that is not a code.
    public func validate(file: String? = nil, prefix: String = "") throws {
        func check(_ range: ClosedRange<Int>, within limits: ClosedRange<Int>, _ name: String) throws {
            guard limits.contains(range.lowerBound), limits.contains(range.upperBound) else {
                throw OutOfRangeError(name: prefix + name, value: "[\(range.lowerBound), \(range.upperBound)]",
                                      expected: "lengths between \(limits.lowerBound) and \(limits.upperBound)", file: file)
            }
        }
        try check(wordNGrams, within: Self.wordNGramLengths, "wordNGrams")
        if let characterNGrams { try check(characterNGrams, within: Self.characterNGramLengths, "characterNGrams") }
        if let letterRunNGrams { try check(letterRunNGrams, within: Self.characterNGramLengths, "letterRunNGrams") }
        if let minDocumentFrequency { try InputLimits.check(minDocumentFrequency, in: 0...Int.max, name: prefix + "minDocumentFrequency", file: file) }
        if let maxFeatures { try InputLimits.check(maxFeatures, in: 0...Int.max, name: prefix + "maxFeatures", file: file) }
        if let elisionRevision { try InputLimits.check(elisionRevision, in: 1...Elision.revision, name: prefix + "elisionRevision", file: file) }
        _ = try IntentLanguage(code: language, place: (file.map { "\($0): field " } ?? "") + prefix + "language")
    }
}

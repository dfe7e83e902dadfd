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
    /// Replace words by their Snowball English stems.
    public var stemming: Bool = true
    /// Keep punctuation and symbol tokens as words.
    public var includePunctuation: Bool = false
    /// Word n-gram lengths, e.g. `1...2` for words and word pairs.
    public var wordNGrams: ClosedRange<Int> = 1...2
    /// Character n-gram lengths inside word boundaries (robust to typos), `nil` for none.
    public var characterNGrams: ClosedRange<Int>? = 3...4
    /// How counts become values.
    public var weighting: Weighting = .tfidf
    /// Use `1 + log(count)` instead of the count (with `.tfidf` and `.counts`).
    public var sublinearTF: Bool = true
    /// Scale each vector to unit Euclidean length.
    public var l2Normalize: Bool = true
    /// Drop terms seen in fewer training utterances than this.
    public var minDocumentFrequency: Int = 3
    /// Keep at most this many terms (the most frequent), `nil` for no limit.
    public var maxFeatures: Int? = nil

    /// The defaults, tuned on the Snips benchmark (benchmarks/intents.py): character 3–4-grams and
    /// pruning below 3 utterances gave the best accuracy with the smallest vocabulary (fast loads).
    public init() {}
}

import Foundation

/// Maps utterances to sparse feature vectors over a vocabulary learnt from training utterances:
/// bag of words (binary, as SwiftNLC), counts or TF-IDF, with word and character n-grams and
/// vocabulary pruning as ``FeatureOptions`` say.
///
///     let featurizer = TextFeaturizer.fit(["turn on the lights", "play some jazz"], options: FeatureOptions())
///     let x = featurizer.vector(for: "turn the lights on")
public struct TextFeaturizer: Sendable {
    /// The options used to build it.
    public let options: FeatureOptions
    /// The vocabulary: term strings, by feature index.
    public let terms: [String]
    /// Inverse document frequency per feature (all 1 unless ``FeatureOptions/weighting`` is `.tfidf`).
    public let inverseDocumentFrequency: [Float]
    private let index: [String: Int32]
    private let extractor: TermExtractor

    /// Rebuilds a featurizer from its stored parts (a loaded model).
    public init(options: FeatureOptions, terms: [String], inverseDocumentFrequency: [Float]) {
        self.options = options
        self.terms = terms
        self.inverseDocumentFrequency = inverseDocumentFrequency
        var index = [String: Int32](minimumCapacity: terms.count)
        for (position, term) in terms.enumerated() { index[term] = Int32(position) }
        self.index = index
        self.extractor = TermExtractor(options: options)
    }

    /// The number of features.
    public var dimension: Int { terms.count }

    /// Learns the vocabulary (and IDF) from `texts`: terms in at least
    /// ``FeatureOptions/minimumDocumentFrequency(trainingUtterances:)`` texts, the
    /// ``FeatureOptions/maxFeatures`` most frequent (ties broken alphabetically, so the result is
    /// deterministic), in alphabetical order. The featurizer's ``options`` record the minimum used.
    public static func fit(_ texts: [String], options: FeatureOptions) -> TextFeaturizer {
        var options = options
        let minimum = options.minimumDocumentFrequency(trainingUtterances: texts.count)
        options.minDocumentFrequency = minimum
        let extractor = TermExtractor(options: options)
        var documentFrequency: [String: Int] = [:]
        for text in texts {
            for term in Set(extractor.terms(in: text)) { documentFrequency[term, default: 0] += 1 }
        }
        var kept = documentFrequency.filter { $0.value >= minimum }.map { ($0.key, $0.value) }
        if let limit = options.maxFeatures, kept.count > limit {
            kept.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
            kept = Array(kept.prefix(limit))
        }
        kept.sort { $0.0 < $1.0 }
        let count = Float(texts.count)
        let idf = kept.map { options.weighting == .tfidf ? Float(log((1 + Double(count)) / (1 + Double($0.1))) + 1) : 1 }
        return TextFeaturizer(options: options, terms: kept.map(\.0), inverseDocumentFrequency: idf)
    }

    /// The feature vector of `text` (terms outside the vocabulary are ignored).
    public func vector(for text: String) -> SparseVector {
        var found: [Int32] = []
        for term in extractor.terms(in: text) {
            if let position = index[term] { found.append(position) }
        }
        found.sort()
        var vector = SparseVector()
        vector.indices.reserveCapacity(found.count)
        vector.values.reserveCapacity(found.count)
        var position = 0
        while position < found.count {
            let feature = found[position]
            var count = 0
            while position < found.count, found[position] == feature { count += 1; position += 1 }
            let tf: Float
            switch options.weighting {
            case .binary: tf = 1
            case .counts, .tfidf: tf = options.sublinearTF ? 1 + Float(log(Double(count))) : Float(count)
            }
            vector.indices.append(feature)
            vector.values.append(tf * inverseDocumentFrequency[Int(feature)])
        }
        if options.l2Normalize {
            let norm = vector.values.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 0 { for i in vector.values.indices { vector.values[i] /= norm } }
        }
        return vector
    }
}

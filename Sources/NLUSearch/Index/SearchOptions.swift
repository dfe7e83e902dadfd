/// How ``DocumentIndex/search(_:options:)`` ranks chunks.
public enum SearchMode: String, Sendable, CaseIterable, Codable {
    /// BM25 over the chunks' analysed terms (``KeywordAnalyzer``: folded, Snowball-stemmed), the same on both backends.
    case keyword
    /// Cosine similarity of the query's embedding with every chunk's, exact.
    case vector
    /// Both, fused by ``FusionOptions/function`` (``HybridFusion``).
    case hybrid
}

/// The parameters of a search: how many results, how they are ranked, which documents qualify.
///
///     var options = SearchOptions(k: 5, mode: .hybrid)
///     options.filter = ["lang": "en"]      // only documents whose metadata has "lang": "en"
///     options.fusion.keywordWeight = 1.5
public struct SearchOptions: Sendable, Equatable {
    /// Results to return (chunks), 1...``maximumK``.
    public var k: Int
    public var mode: SearchMode
    /// Metadata equality conditions, all required: the document's metadata value at each key,
    /// as text (numbers and booleans as JSON writes them: `3`, `true`), must equal the given text.
    public var filter: [String: String]
    public var fusion: FusionOptions

    /// The largest k accepted: a result list is meant to be read, not to dump the index.
    public static let maximumK = 10_000

    public init(k: Int = 10, mode: SearchMode = .hybrid, filter: [String: String] = [:], fusion: FusionOptions = .init()) {
        self.k = k
        self.mode = mode
        self.filter = filter
        self.fusion = fusion
    }

    /// - Throws: ``SearchError/invalidArgument(_:)`` naming the parameter out of range.
    public func validate() throws {
        guard (1...Self.maximumK).contains(k) else {
            throw SearchError.invalidArgument("k must be in 1...\(Self.maximumK), got \(k)")
        }
        try fusion.validate()
    }
}

/// The parameters of hybrid search's fusion of the keyword and vector rankings.
///
/// Parameters left out take the chosen function's defaults (``defaults(for:)``), which were
/// chosen on half of the known-item queries of benchmarks/search.py and measured on the other
/// half (docs/search.md, "Fusion").
public struct FusionOptions: Sendable, Equatable {
    public var function: FusionFunction
    /// RRF's rank constant: larger values flatten the difference between the first ranks (unused by convex).
    public var k: Double
    /// The rankings' weights: RRF's wᵢ in Σ wᵢ / (k + rankᵢ), convex's in Σ wᵢ · normᵢ(scoreᵢ).
    public var keywordWeight: Double
    public var vectorWeight: Double
    /// How many results of each mode enter the fusion (at least the search's k).
    public var candidateDepth: Int

    /// Each function's settings when none are given. RRF: the textbook k 60 with the keyword ranking
    /// weighted 3 and 20 candidates per mode. Equal weights at depth 50 land under keyword search on
    /// queries that reuse the documents' words (held-out recall@5 on lexical + paraphrase queries 0.911
    /// vs keyword 0.947), below the bar of 2 points; 3:1 at depth 20 holds it (0.933) and still
    /// lets a vector match of a question asked in other words reach the top (on the verses whose two
    /// wordings share the fewest words: 0.980 vs keyword 0.972, vector 0.940). docs/search.md, "Fusion".
    /// Convex: keyword 0.65, vector 0.35, depth 50.
    public static func defaults(for function: FusionFunction) -> (k: Double, keywordWeight: Double, vectorWeight: Double, candidateDepth: Int) {
        switch function {
        case .rrf: return (60, 3, 1, 20)
        case .convex: return (60, 0.65, 0.35, 50)
        }
    }

    public init(function: FusionFunction = .rrf, k: Double? = nil, keywordWeight: Double? = nil, vectorWeight: Double? = nil,
                candidateDepth: Int? = nil) {
        let defaults = Self.defaults(for: function)
        self.function = function
        self.k = k ?? defaults.k
        self.keywordWeight = keywordWeight ?? defaults.keywordWeight
        self.vectorWeight = vectorWeight ?? defaults.vectorWeight
        self.candidateDepth = candidateDepth ?? defaults.candidateDepth
    }

    /// - Throws: ``SearchError/invalidArgument(_:)`` naming the parameter out of range.
    public func validate() throws {
        guard k.isFinite, k >= 0 else { throw SearchError.invalidArgument("the fusion constant k must be a number ≥ 0, got \(k)") }
        for (name, weight) in [("keyword", keywordWeight), ("vector", vectorWeight)] {
            guard weight.isFinite, weight >= 0 else {
                throw SearchError.invalidArgument("the \(name) weight must be a number ≥ 0, got \(weight)")
            }
        }
        guard keywordWeight + vectorWeight > 0 else { throw SearchError.invalidArgument("the keyword and vector weights are both 0") }
        guard (1...SearchOptions.maximumK).contains(candidateDepth) else {
            throw SearchError.invalidArgument("the candidate depth must be in 1...\(SearchOptions.maximumK), got \(candidateDepth)")
        }
    }
}

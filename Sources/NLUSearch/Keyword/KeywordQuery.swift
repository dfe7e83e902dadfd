import Foundation

/// The keyword side of a search query: its distinct ``KeywordAnalyzer`` terms, in the order first
/// written, checked against the limits every query is held to (both backends).
///
/// A term the query repeats counts once. Written again, it would enter BM25 again: FTS5 scores every
/// OR-ed phrase, and for each matching row it merges the matches of every phrase with every other
/// phrase's, so a query's cost grew with the square of its length (4,000 words took 31 s, a 96 KB
/// query over a minute), and the PostgreSQL backend joined every match to every repeat. Distinct
/// terms make the cost linear in the query's length; the limits bound it.
///
///     let query = try KeywordQuery("Storms, storms and the harbour")
///     query.terms     // ["storm", "and", "the", "harbour"]
public struct KeywordQuery: Sendable, Equatable {
    /// The longest query, in UTF-8 bytes (any search mode): several paragraphs. An embedding model
    /// reads its first few hundred tokens (all-MiniLM-L6-v2: 256 word pieces, about 1 KB of English);
    /// anything longer is a document pasted as a query.
    public static let maximumBytes = 4_096
    /// The most distinct terms a keyword (or hybrid) query may have: BM25 adds one part per term, and
    /// a search engine's query of 256 words is long (Lucene refuses more than 1,024 clauses).
    public static let maximumTerms = 256

    /// The query as written.
    public let text: String
    /// The query's distinct analysed terms, in the order each is first written.
    public let terms: [String]

    /// Analyses `query` (``KeywordAnalyzer/terms(_:)``), keeping each term once.
    ///
    /// - Throws: ``SearchError/invalidArgument(_:)`` when the query is longer than ``maximumBytes``
    ///   or has more than ``maximumTerms`` distinct terms, naming the limit and the query's size.
    public init(_ query: String) throws {
        try self.init(query, analysis: KeywordAnalyzer.terms)
    }

    /// Analyses `query` as an index in `analyzer`'s language stores its chunks, keeping each term once.
    ///
    /// - Throws: ``SearchError/invalidArgument(_:)`` as ``init(_:)``.
    public init(_ query: String, analyzer: KeywordAnalyzer) throws {
        try self.init(query, analysis: analyzer.terms)
    }

    /// `query` split by `analysis` (a version 1 index file looks up the plain ``KeywordTerms``).
    init(_ query: String, analysis: (String) -> [String]) throws {
        // Before the analysis, so that an oversized query costs nothing.
        try Self.checkLength(query)
        text = query
        var seen = Set<String>()
        terms = analysis(query).filter { seen.insert($0).inserted }
        guard terms.count <= Self.maximumTerms else {
            throw SearchError.invalidArgument(
                "the query has \(terms.count) distinct terms; a keyword or hybrid search takes at most \(Self.maximumTerms)")
        }
    }

    /// Refuses a query longer than ``maximumBytes`` (every search mode checks this).
    ///
    /// - Throws: ``SearchError/invalidArgument(_:)`` naming the limit and the query's length.
    public static func checkLength(_ query: String) throws {
        let bytes = query.utf8.count
        guard bytes <= maximumBytes else {
            throw SearchError.invalidArgument("the query is \(bytes) bytes long (UTF-8); a query is at most \(maximumBytes) bytes")
        }
    }
}

import Foundation

/// BM25 over a handful of texts held in memory (the paragraphs of one document), for when building an
/// index is not worth it. It ranks exactly as a ``DocumentIndex`` ranks its chunks (SQLite FTS5's bm25(),
/// which the PostgreSQL backend computes the same way), so that one document's passages and a collection's
/// chunks are found by the same rule: ``KeywordAnalyzer`` terms (lower-cased, diacritics folded, stemmed),
/// k1 = 1.2, b = 0.75, idf = ln((N − n + 0.5) / (n + 0.5)), 1e-6 where that is not positive (a term in half
/// the texts or more), each distinct query term once, in the order first written (as ``KeywordQuery``
/// gives them; the index's limits on a query's length are not applied here).
///
///     let scores = BM25.scores(query: "capital of France", documents: paragraphs)
public enum BM25 {
    public static let k1 = 1.2
    public static let b = 0.75

    /// The BM25 score of each document for the query, in the documents' order (0 for a document
    /// holding none of the query's terms).
    public static func scores(query: String, documents: [String]) -> [Double] {
        let documentTerms = KeywordAnalyzer.terms(ofEach: documents)
        let count = Double(documents.count)
        let averageLength = Double(documentTerms.map(\.count).reduce(0, +)) / count
        var documentFrequency: [String: Int] = [:]
        for termsOfDocument in documentTerms {
            for term in Set(termsOfDocument) { documentFrequency[term, default: 0] += 1 }
        }
        var seen = Set<String>()
        let queryTerms = KeywordAnalyzer.terms(query).filter { seen.insert($0).inserted }
        let inverseFrequencies = queryTerms.map { term in
            let n = Double(documentFrequency[term] ?? 0)
            let idf = Foundation.log((count - n + 0.5) / (n + 0.5))
            return idf > 0 ? idf : 1e-6
        }
        let wanted = Set(queryTerms)
        return documentTerms.map { termsOfDocument in
            var frequencies: [String: Int] = [:]
            for term in termsOfDocument where wanted.contains(term) { frequencies[term, default: 0] += 1 }
            let length = Double(termsOfDocument.count)
            var score = 0.0
            // FTS5's operations in FTS5's order (the query's), so that the doubles come out the same.
            for (term, idf) in zip(queryTerms, inverseFrequencies) {
                guard let frequency = frequencies[term] else { continue }
                let tf = Double(frequency)
                score += idf * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + b * length / averageLength)))
            }
            return score
        }
    }

    /// The indices of the `limit` best-scoring documents, best first; ties go to the earlier one.
    public static func top(_ limit: Int, query: String, documents: [String]) -> [Int] {
        let scores = scores(query: query, documents: documents)
        return scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
            .prefix(max(limit, 0)).map { $0 }
    }
}

import Foundation

/// Okapi BM25 over a handful of texts held in memory (the paragraphs of one document), for when
/// building an index is not worth it. k1 = 1.5, b = 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5));
/// terms from ``KeywordTerms``. A ``DocumentIndex`` ranks with SQLite FTS5's BM25 instead.
///
///     let scores = BM25.scores(query: "capital of France", documents: paragraphs)
public enum BM25 {
    public static let k1 = 1.5
    public static let b = 0.75

    /// The BM25 score of each document for the query, in the documents' order.
    public static func scores(query: String, documents: [String]) -> [Double] {
        let documentTerms = documents.map(KeywordTerms.terms)
        let averageLength = Double(documentTerms.map(\.count).reduce(0, +)) / Double(max(documents.count, 1))
        var documentFrequency: [String: Int] = [:]
        for termsOfDocument in documentTerms {
            for term in Set(termsOfDocument) { documentFrequency[term, default: 0] += 1 }
        }
        let queryTerms = Set(KeywordTerms.terms(query))
        let count = Double(documents.count)
        return documentTerms.map { termsOfDocument in
            var frequencies: [String: Int] = [:]
            for term in termsOfDocument where queryTerms.contains(term) { frequencies[term, default: 0] += 1 }
            let length = Double(termsOfDocument.count)
            return frequencies.reduce(0.0) { total, entry in
                let n = Double(documentFrequency[entry.key] ?? 0)
                let idf = Foundation.log(1 + (count - n + 0.5) / (n + 0.5))
                let tf = Double(entry.value)
                return total + idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / max(averageLength, 1)))
            }
        }
    }

    /// The indices of the `limit` best-scoring documents, best first; ties go to the earlier one.
    public static func top(_ limit: Int, query: String, documents: [String]) -> [Int] {
        let scores = scores(query: query, documents: documents)
        return scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
            .prefix(max(limit, 0)).map { $0 }
    }
}

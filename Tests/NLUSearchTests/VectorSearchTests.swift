import Foundation
import NLUCore
import NLUSearch
import Testing

/// Exact vector search: the top k must be what scoring every row in double precision and sorting
/// (score descending, then row) gives.
@Suite struct VectorSearchTests {
    /// Deterministic vectors in [-1, 1); every 7th row repeats an earlier one, so exact ties occur.
    static func vectors(rows: Int, dimension: Int, seed: UInt64) -> [[Float]] {
        var random = SplitMix64(seed: seed)
        var vectors: [[Float]] = []
        for row in 0..<rows {
            if row % 7 == 6 { vectors.append(vectors[row / 2]); continue }
            vectors.append((0..<dimension).map { _ in Float.random(in: -1..<1, using: &random) })
        }
        return vectors
    }

    static func bruteForce(_ vectors: [[Float]], query: [Float], k: Int) -> [Int] {
        func cosine(_ a: [Float], _ b: [Float]) -> Double {
            var dot = 0.0, na = 0.0, nb = 0.0
            for (x, y) in zip(a, b) { dot += Double(x) * Double(y); na += Double(x) * Double(x); nb += Double(y) * Double(y) }
            return dot / (na.squareRoot() * nb.squareRoot())
        }
        let scores = vectors.map { cosine($0, query) }
        return Array(scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }.prefix(k))
    }

    @Test func topKEqualsBruteForceWithTiesByRow() {
        let vectors = Self.vectors(rows: 1200, dimension: 48, seed: 11)
        var matrix = VectorMatrix(dimension: 48)
        for vector in vectors { matrix.append(vector) }
        var random = SplitMix64(seed: 99)
        for trial in 0..<8 {
            // Half the queries are stored vectors, whose duplicates then tie at the top.
            let query = trial.isMultiple(of: 2) ? vectors[13 * trial + 6]
                : (0..<48).map { _ in Float.random(in: -1..<1, using: &random) }
            for k in [1, 5, 50] {
                let expected = Self.bruteForce(vectors, query: query, k: k)
                let found = matrix.top(k, for: query).map(\.row)
                #expect(found == expected, "trial \(trial) k \(k)")
            }
        }
        // A stored vector's duplicate (rows 6 and 3 are equal) ties with it: the lower row comes first.
        #expect(matrix.top(2, for: vectors[3]).map(\.row) == [3, 6])
    }

    @Test func topKRespectsTheAllowedRows() {
        let vectors = Self.vectors(rows: 200, dimension: 8, seed: 3)
        var matrix = VectorMatrix(dimension: 8)
        for vector in vectors { matrix.append(vector) }
        let even = vectors.indices.filter { $0.isMultiple(of: 2) }
        let expected = Self.bruteForce(even.map { vectors[$0] }, query: vectors[5], k: 10).map { even[$0] }
        #expect(matrix.top(10, for: vectors[5]) { $0.isMultiple(of: 2) }.map(\.row) == expected)
    }

    @Test func cosineScoresMatchDoublePrecision() {
        let vectors = Self.vectors(rows: 500, dimension: 384, seed: 5)
        var matrix = VectorMatrix(dimension: 384)
        for vector in vectors { matrix.append(vector) }
        let query = vectors[42].map { $0 * 3 }
        let scores = matrix.scores(for: query)
        for row in [0, 42, 499] {
            var dot = 0.0, na = 0.0, nb = 0.0
            for (x, y) in zip(vectors[row], query) { dot += Double(x) * Double(y); na += Double(x * x); nb += Double(y * y) }
            #expect(abs(Double(scores[row]) - dot / (na * nb).squareRoot()) < 1e-5)
        }
        #expect(abs(scores[42] - 1) < 1e-5)
    }
}

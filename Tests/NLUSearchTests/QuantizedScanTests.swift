import Foundation
import NLUCore
@testable import NLUSearch
import Testing

/// The INT8 scan with exact re-ranking: whatever the quantization does to near-ties, the top k
/// must be the double-precision brute force's (score descending, then row).
@Suite struct QuantizedScanTests {
    /// Clusters of near-duplicates: each cluster is a base vector plus copies moved by 2e-4...2e-3
    /// along random directions (far below INT8's resolution of max|w| / 127, so the quantized
    /// scores of a cluster are equal or in the wrong order), plus exact duplicates (true ties),
    /// among random rows.
    static func nearTies(dimension: Int, seed: UInt64) -> (vectors: [[Float]], bases: [[Float]]) {
        var random = SplitMix64(seed: seed)
        func randomVector() -> [Float] { (0..<dimension).map { _ in Float.random(in: -1..<1, using: &random) } }
        var vectors: [[Float]] = []
        var bases: [[Float]] = []
        for cluster in 0..<6 {
            let base = randomVector()
            bases.append(base)
            for copy in 0..<40 {
                let size = Float.random(in: 2e-4..<2e-3, using: &random)
                vectors.append(copy % 10 == 9 ? vectors[vectors.count - 1] : zip(base, randomVector()).map { $0 + size * $1 })
            }
            for _ in 0..<(300 + 50 * cluster) { vectors.append(randomVector()) }
        }
        return (vectors, bases)
    }

    @Test func int8ScanReturnsTheBruteForceTopKOnNearTies() {
        let dimension = 64
        let (vectors, bases) = Self.nearTies(dimension: dimension, seed: 21)
        var matrix = VectorMatrix(dimension: dimension)
        for vector in vectors { matrix.append(vector) }
        matrix.quantize()
        #expect(matrix.isQuantized)
        var random = SplitMix64(seed: 5)
        for (number, base) in bases.enumerated() {
            // Queries off the base, so that the copies' scores differ at first order (1e-5...1e-4: far
            // above F32 rounding, far below INT8's error) while the cluster still ranks first.
            let queries = [Float(0.3), 1].map { spread in base.map { $0 + spread * Float.random(in: -1..<1, using: &random) } }
            for query in queries {
                let ranking = VectorSearchTests.bruteForce(vectors, query: query, k: 39)
                for k in [1, 5, 12, 39] {
                    let expected = Array(ranking.prefix(k))
                    let int8 = matrix.top(k, for: query, scan: .int8)
                    #expect(int8.map(\.row) == expected, "cluster \(number) k \(k)")
                    #expect(int8 == matrix.top(k, for: query, scan: .f32), "cluster \(number) k \(k): the scans differ")
                }
            }
        }
        // The INT8 scores alone do get the order of a cluster wrong (else this test would prove nothing).
        let quantized = matrix.makeQuantizedCopy()
        let query = bases[0].map { $0 + 0.3 * Float.random(in: -1..<1, using: &random) }
        let approximate = quantized.scores(for: VectorMatrix.normalized(query)).scores
        let byInt8 = approximate.indices.sorted { approximate[$0] != approximate[$1] ? approximate[$0] > approximate[$1] : $0 < $1 }
        #expect(Array(byInt8.prefix(12)) != VectorSearchTests.bruteForce(vectors, query: query, k: 12))
    }

    @Test func int8ScoresStayWithinTheirBounds() {
        let dimension = 384
        let vectors = VectorSearchTests.vectors(rows: 700, dimension: dimension, seed: 8)
        var matrix = VectorMatrix(dimension: dimension)
        for vector in vectors { matrix.append(vector) }
        let quantized = matrix.makeQuantizedCopy()
        var random = SplitMix64(seed: 17)
        for trial in 0..<5 {
            let query = VectorMatrix.normalized(trial == 0 ? vectors[3] : (0..<dimension).map { _ in Float.random(in: -1..<1, using: &random) })
            let (scores, bounds) = quantized.scores(for: query)
            for row in 0..<matrix.rowCount {
                let stored = VectorMatrix.normalized(vectors[row])
                var exact = 0.0
                for index in 0..<dimension { exact += Double(query[index]) * Double(stored[index]) }
                #expect(abs(Double(scores[row]) - exact) <= Double(bounds[row]), "trial \(trial) row \(row)")
                // Useful bounds: a few hundredths at most for unit vectors of 384 numbers.
                #expect(bounds[row] < 0.05)
            }
        }
    }

    @Test func filteredInt8SearchEqualsBruteForceOverTheAllowedRows() {
        let (vectors, bases) = Self.nearTies(dimension: 32, seed: 4)
        var matrix = VectorMatrix(dimension: 32)
        for vector in vectors { matrix.append(vector) }
        matrix.quantize()
        let odd = vectors.indices.filter { !$0.isMultiple(of: 2) }
        var random = SplitMix64(seed: 9)
        let query = bases[2].map { $0 + 0.5 * Float.random(in: -1..<1, using: &random) }
        let expected = VectorSearchTests.bruteForce(odd.map { vectors[$0] }, query: query, k: 15).map { odd[$0] }
        #expect(matrix.top(15, for: query, scan: .int8) { !$0.isMultiple(of: 2) }.map(\.row) == expected)
        // Fewer allowed rows than k: all of them, in order.
        let few = [3, 500, 1001]
        #expect(Set(matrix.top(10, for: bases[0], scan: .int8) { few.contains($0) }.map(\.row)) == Set(few))
    }
}

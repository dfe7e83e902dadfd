import Testing
import NLUCore
@testable import NLUIntents

/// k-means as the encoder tagger uses it: the assignment is the nearest centroid by a brute force in
/// double precision (whatever the block size or thread count of the GEMM behind it), and fitting
/// finds clusters that are there.
@Suite struct KMeansTests {
    static func uniform(_ count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in Float(Double(generator.next() >> 11) / Double(1 << 53)) * 2 - 1 }
    }

    @Test(arguments: [(rows: 1, k: 3), (rows: 7, k: 64), (rows: 300, k: 257), (rows: 5000, k: 33)])
    func assignmentIsTheNearestCentroidByBruteForce(rows: Int, k: Int) {
        let dimension = 48
        let x = Self.uniform(rows * dimension, seed: 11), centroids = Self.uniform(k * dimension, seed: 12)
        let nearest = KMeans.assign(rows: x, count: rows, centroids: centroids, dimension: dimension)
        let packed = KMeans.Centroids(centroids, dimension: dimension)
        #expect(KMeans.assign(rows: x, count: rows, centroids: centroids, dimension: dimension, packed: packed) == nearest)
        for r in 0..<rows {
            let distances = (0..<k).map { c in
                (0..<dimension).reduce(0.0) { sum, d in
                    let difference = Double(x[r * dimension + d]) - Double(centroids[c * dimension + d])
                    return sum + difference * difference
                }
            }
            let best = distances.min() ?? 0
            // Float rounding can only swap centroids within 1e-4 of each other in squared distance.
            #expect(distances[nearest[r]] <= best + 1e-4, "row \(r): centroid \(nearest[r]) at \(distances[nearest[r]]), best \(best)")
        }
    }

    @Test func fitFindsThreeSeparatedClusters() {
        let dimension = 4, perCluster = 50
        let centres: [[Float]] = [[10, 0, 0, 0], [0, 10, 0, 0], [0, 0, 10, 0]]
        let noise = Self.uniform(3 * perCluster * dimension, seed: 5)
        var rows = [Float]()
        for (c, centre) in centres.enumerated() {
            for i in 0..<perCluster {
                for d in 0..<dimension { rows.append(centre[d] + noise[((c * perCluster + i) * dimension) + d]) }
            }
        }
        let fitted = KMeans.fit(rows: rows, count: 3 * perCluster, dimension: dimension, k: 3, seed: 7)
        let labels = KMeans.assign(rows: rows, count: 3 * perCluster, centroids: fitted, dimension: dimension)
        // Every true cluster maps to one fitted cluster, and the three to three different ones.
        let mapped = (0..<3).map { c in Set(labels[(c * perCluster)..<((c + 1) * perCluster)]) }
        #expect(mapped.allSatisfy { $0.count == 1 })
        #expect(Set(mapped.compactMap(\.first)).count == 3)
    }
}

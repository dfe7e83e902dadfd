import NLUCore

/// Lloyd's k-means on F32 vectors (squared Euclidean distance), seeded: centroids start at distinct
/// rows drawn with a ``SplitMix64``, each iteration assigns every row to its nearest centroid (one
/// SGEMM for the dot products) and moves each centroid to the mean of its rows; a centroid left
/// without rows keeps its place. The slot tagger's word clusters (``WordVectorClusters``).
///
///     let centroids = KMeans.fit(rows: vectors, count: 1000, dimension: 384, k: 64, seed: 7)
///     let nearest = KMeans.assign(rows: vectors, count: 1000, centroids: centroids, dimension: 384)
enum KMeans {
    /// `k` centroids (`k × dimension`, row-major) of the `count` rows (`count × dimension`). `k` must be
    /// between 1 and `count`.
    static func fit(rows: [Float], count: Int, dimension: Int, k: Int, iterations: Int = 15, seed: UInt64) -> [Float] {
        precondition(k >= 1 && k <= count && rows.count == count * dimension, "k-means needs 1 ≤ k ≤ rows")
        var generator = SplitMix64(seed: seed)
        var chosen = Array(0..<count)
        for i in 0..<k { chosen.swapAt(i, i + Int(generator.next() % UInt64(count - i))) }
        var centroids = [Float](repeating: 0, count: k * dimension)
        for (c, row) in chosen.prefix(k).enumerated() {
            for d in 0..<dimension { centroids[c * dimension + d] = rows[row * dimension + d] }
        }
        for _ in 0..<iterations {
            let nearest = assign(rows: rows, count: count, centroids: centroids, dimension: dimension)
            var sums = [Float](repeating: 0, count: k * dimension)
            var members = [Int](repeating: 0, count: k)
            for (row, c) in nearest.enumerated() {
                members[c] += 1
                for d in 0..<dimension { sums[c * dimension + d] += rows[row * dimension + d] }
            }
            var moved = false
            for c in 0..<k where members[c] > 0 {
                let scale = 1 / Float(members[c])
                for d in 0..<dimension {
                    let value = sums[c * dimension + d] * scale
                    if value != centroids[c * dimension + d] { moved = true }
                    centroids[c * dimension + d] = value
                }
            }
            if !moved { break }
        }
        return centroids
    }

    /// The index of the nearest centroid of each row: argmin ‖x‖² − 2x·c + ‖c‖² = argmin ‖c‖² − 2x·c,
    /// in blocks of rows so that the distance matrix stays small.
    /// `norms`: the centroids' ``squaredNorms(_:dimension:)`` when the caller keeps them (tagging assigns a
    /// few rows at a time to fixed centroids: recomputing k × dimension products per utterance cost more
    /// than the assignment itself).
    static func assign(rows: [Float], count: Int, centroids: [Float], dimension: Int, norms known: [Float]? = nil) -> [Int] {
        let k = centroids.count / dimension
        guard count > 0, k > 0 else { return [Int](repeating: 0, count: count) }
        let norms = known ?? squaredNorms(centroids, dimension: dimension)
        var nearest = [Int](repeating: 0, count: count)
        let block = 4096
        var dots = [Float](repeating: 0, count: min(block, count) * k)
        rows.withUnsafeBufferPointer { x in
            centroids.withUnsafeBufferPointer { centers in
                dots.withUnsafeMutableBufferPointer { dots in
                    guard let x = x.baseAddress, let centers = centers.baseAddress, let out = dots.baseAddress else { return }
                    for start in stride(from: 0, to: count, by: block) {
                        let m = min(block, count - start)
                        BLAS.sgemm(.none, .transpose, m: m, n: k, k: dimension, a: x + start * dimension, lda: dimension,
                                   b: centers, ldb: dimension, c: out, ldc: k)
                        for r in 0..<m {
                            var best = 0, bestDistance = Float.infinity
                            for c in 0..<k {
                                let distance = norms[c] - 2 * out[r * k + c]
                                if distance < bestDistance { bestDistance = distance; best = c }
                            }
                            nearest[start + r] = best
                        }
                    }
                }
            }
        }
        return nearest
    }

    /// ‖c‖² of each centroid (`k × dimension`, row-major).
    static func squaredNorms(_ centroids: [Float], dimension: Int) -> [Float] {
        let k = centroids.count / dimension
        var norms = [Float](repeating: 0, count: k)
        for c in 0..<k { for d in 0..<dimension { norms[c] += centroids[c * dimension + d] * centroids[c * dimension + d] } }
        return norms
    }
}

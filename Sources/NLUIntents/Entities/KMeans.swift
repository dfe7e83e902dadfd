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
    /// `packed`: the centroids' ``Centroids`` when the caller keeps them (tagging assigns a few rows
    /// at a time to fixed centroids: recomputing their norms and packing per utterance cost more than
    /// the assignment itself).
    static func assign(rows: [Float], count: Int, centroids: [Float], dimension: Int, packed known: Centroids? = nil) -> [Int] {
        let k = centroids.count / dimension
        guard count > 0, k > 0 else { return [Int](repeating: 0, count: count) }
        let packed = known ?? Centroids(centroids, dimension: dimension)
        var nearest = [Int](repeating: 0, count: count)
        let block = 4096
        var dots = [Float](repeating: 0, count: min(block, count) * k)
        rows.withUnsafeBufferPointer { x in
            dots.withUnsafeMutableBufferPointer { dots in
                guard let x = x.baseAddress, let out = dots.baseAddress else { return }
                for start in stride(from: 0, to: count, by: block) {
                    let m = min(block, count - start)
                    // Our packed GEMM, not OpenBLAS's SGEMM: at tagging m is one utterance's words, and
                    // OpenBLAS split those few rows over both cores at a cost above the product's
                    // (0.43 ms on one thread, 2.3 ms on two, measured under load); the packed GEMM
                    // keeps small products on the calling thread, large ones (training) on all.
                    packed.matrix.multiply(x + start * dimension, rows: m, into: out)
                    for r in 0..<m {
                        var best = 0, bestDistance = Float.infinity
                        for c in 0..<k {
                            let distance = packed.norms[c] - 2 * out[r * k + c]
                            if distance < bestDistance { bestDistance = distance; best = c }
                        }
                        nearest[start + r] = best
                    }
                }
            }
        }
        return nearest
    }

    /// A set of centroids ready for ``assign(rows:count:centroids:dimension:packed:)``: their
    /// squared norms and their transpose packed for the GEMM.
    struct Centroids: Sendable {
        let norms: [Float]
        let matrix: PackedMatrix

        init(_ centroids: [Float], dimension: Int) {
            norms = KMeans.squaredNorms(centroids, dimension: dimension)
            // B = centroidsᵀ (dimension × k): x · B gives every row's dot product with every centroid.
            // (An empty set packs a 0-wide matrix; the one-float array only gives the pointer a target.)
            let count = centroids.count / max(dimension, 1)
            let source = centroids.isEmpty ? [0] : centroids
            matrix = source.withUnsafeBufferPointer { values in
                guard let base = values.baseAddress else { preconditionFailure("a non-empty array has storage") }
                return PackedMatrix(weight: base, rows: count, columns: dimension, transposed: true)
            }
        }
    }

    /// ‖c‖² of each centroid (`k × dimension`, row-major).
    static func squaredNorms(_ centroids: [Float], dimension: Int) -> [Float] {
        let k = centroids.count / dimension
        var norms = [Float](repeating: 0, count: k)
        for c in 0..<k { for d in 0..<dimension { norms[c] += centroids[c * dimension + d] * centroids[c * dimension + d] } }
        return norms
    }
}

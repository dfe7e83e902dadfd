import NLUCore

/// The stored vectors of an index as one contiguous row-major F32 matrix, each row scaled to unit
/// length once at load, so that a query's cosine similarity with every row is a single
/// matrix-vector product. The scan streams the whole matrix once per query, so it is bound by
/// memory bandwidth: 150 MB for 100,000 × 384 in F32, a quarter of that with the INT8 copy
/// (``quantize()``), scanned on all threads.
///
/// The search is exact whichever scan runs: each scan's scores come with a proven bound on their
/// error, the rows that could still be in the top k are scored again exactly (in double
/// precision, from the F32 rows), and the top k of those are returned (``BoundedRerank``), ties
/// going to the lower row. Both scans therefore return the same rows, in the same order, with the
/// same scores.
///
///     var matrix = VectorMatrix(dimension: 3)
///     matrix.append([1, 0, 0]); matrix.append([0, 1, 0])
///     matrix.top(1, for: [0.9, 0.1, 0])   // [row 0]
public struct VectorMatrix: Sendable {
    /// How the rows are scanned before the exact re-ranking.
    public enum Scan: String, Sendable, CaseIterable {
        /// BLAS SGEMV over the F32 rows.
        case f32
        /// NLUCore's INT8 kernels over the quantized copy (``VectorMatrix/quantize()``), on all threads.
        case int8
    }

    public let dimension: Int
    public private(set) var rowCount = 0
    // rowCount × dimension, row-major, each row of unit length (or zero).
    private var values: [Float] = []
    // The INT8 copy, when made; dropped by any append.
    private var quantized: QuantizedVectors?

    /// The row count from which ``DocumentIndex`` makes the INT8 copy: below it one F32 scan takes
    /// well under a millisecond and the copy would only cost memory.
    public static let quantizationThreshold = 4096

    public init(dimension: Int) {
        self.dimension = dimension
    }

    /// Appends `vector` (of `dimension` numbers), scaled to unit length; a zero vector stays zero
    /// and scores 0 against everything.
    public mutating func append(_ vector: [Float]) {
        precondition(vector.count == dimension, "VectorMatrix.append: checked by the index")
        values.append(contentsOf: Self.normalized(vector))
        rowCount += 1
        quantized = nil
    }

    /// Reserves room for `rows` rows (one allocation when the count is known).
    public mutating func reserve(rows: Int) {
        values.reserveCapacity(rows * dimension)
    }

    /// Appends `vector` read from raw little-endian F32 bytes (the index's BLOB), scaled to unit length.
    mutating func append(bytes: UnsafeRawBufferPointer) {
        var vector = [Float](repeating: 0, count: dimension)
        vector.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(dimension * 4))) }
        append(vector)
    }

    /// Whether every component of `vector` is 0. Such a query vector (no term the model knows: `!!!`
    /// for the hashing embedder) has no direction: its cosine with every row is 0, so a ranking by it
    /// would be arbitrary, and both backends give it no vector results (hybrid search then ranks by
    /// keyword alone). Tools check a query's vector with it to tell the user so.
    public static func isZero(_ vector: [Float]) -> Bool {
        !vector.contains { $0 != 0 }
    }

    /// `vector` scaled to unit length (unchanged when it is zero).
    public static func normalized(_ vector: [Float]) -> [Float] {
        var sum: Double = 0
        for value in vector { sum += Double(value) * Double(value) }
        guard sum > 0 else { return vector }
        let scale = Float(1 / sum.squareRoot())
        return vector.map { $0 * scale }
    }

    /// Makes the INT8 copy the ``Scan/int8`` scan reads (about a quarter of the F32 matrix's memory, in
    /// addition to it: the exact re-ranking reads the F32 rows).
    public mutating func quantize() {
        guard quantized == nil else { return }
        quantized = makeQuantizedCopy()
    }

    /// A fresh INT8 copy of the rows (for tests of its bounds).
    func makeQuantizedCopy() -> QuantizedVectors {
        values.withUnsafeBufferPointer { QuantizedVectors(values: $0, rows: rowCount, dimension: dimension) }
    }

    /// Whether ``quantize()`` has made the INT8 copy (and no row was appended since).
    public var isQuantized: Bool { quantized != nil }

    /// The cosine similarity of `query` with every row, as SGEMV computes it in F32.
    public func scores(for query: [Float]) -> [Float] {
        precondition(query.count == dimension, "VectorMatrix.scores: checked by the index")
        return f32Scores(unitQuery: Self.normalized(query))
    }

    private func f32Scores(unitQuery: [Float]) -> [Float] {
        var scores = [Float](repeating: 0, count: rowCount)
        guard rowCount > 0 else { return scores }
        values.withUnsafeBufferPointer { matrix in
            unitQuery.withUnsafeBufferPointer { query in
                scores.withUnsafeMutableBufferPointer { scores in
                    guard let a = matrix.baseAddress, let x = query.baseAddress, let y = scores.baseAddress else { return }
                    BLAS.sgemv(.none, rows: rowCount, columns: dimension, a: a, lda: dimension, x: x, y: y)
                }
            }
        }
        return scores
    }

    /// The `k` rows most similar to `query` (cosine, computed exactly in double precision from the
    /// F32 rows), best first, ties to the lower row; only rows where `isAllowed` is true when it is
    /// given. `scan` picks how rows are pre-scored (default: INT8 when ``quantize()`` was called);
    /// the result does not depend on it.
    public func top(_ k: Int, for query: [Float], scan: Scan? = nil, where isAllowed: ((Int) -> Bool)? = nil) -> [TopK.Entry] {
        precondition(query.count == dimension, "VectorMatrix.top: checked by the index")
        let unitQuery = Self.normalized(query)
        let approximate: (scores: [Float], bounds: [Float])
        if let quantized, scan != .f32 {
            approximate = quantized.scores(for: unitQuery)
        } else {
            // SGEMV's rounding, for any order of summation: |error| ≤ γ_d Σ|xᵢwᵢ| ≤ γ_d ‖x‖‖w‖,
            // γ_d = d·u / (1 − d·u), u = 2⁻²⁴, with both vectors of unit length (1.01 covers their rounding).
            let u = 1.0 / Double(1 << 24), d = Double(dimension + 1)
            let bound = Float(d * u / (1 - d * u) * 1.01 + 1e-12).nextUp
            approximate = (f32Scores(unitQuery: unitQuery), [Float](repeating: bound, count: rowCount))
        }
        return values.withUnsafeBufferPointer { matrix in
            unitQuery.withUnsafeBufferPointer { x in
                BoundedRerank.top(k, scores: approximate.scores, bounds: approximate.bounds, where: isAllowed) { row in
                    let w = matrix.baseAddress! + row * dimension
                    var dot = 0.0
                    for index in 0..<dimension { dot += Double(x[index]) * Double(w[index]) }
                    return dot
                }
            }
        }
    }
}

import NLUCore

/// An INT8 copy of a ``VectorMatrix``'s unit rows (one scale per row, NLUCore's `QuantizedMatrix`
/// and its VNNI / AVX2 kernels on all threads) that scores a query with a quarter of the F32
/// bytes, and says, per row, how far each approximate score can be from the exact one.
///
/// The bound, for a unit query x and a stored unit row w (both F32): the kernel computes
/// x̂·ŵ exactly in integers, where ŵ = q_w · s_w and x̂ = q_x · s_x are the quantized vectors. With
/// δw = w − ŵ and δx = x − x̂,
///
///     |x·w − x̂·ŵ| = |x·δw + δx·ŵ| ≤ ‖x‖·‖δw‖ + ‖δx‖·‖ŵ‖        (Cauchy–Schwarz)
///
/// ‖δw‖ and ‖ŵ‖ are measured per row here, once, from the very bytes the kernel reads; ‖δx‖ is
/// bounded per query by √d · s_x / 2 (round to nearest). Small slack terms cover the float
/// arithmetic around the exact integer sums. ``BoundedRerank`` turns these bounds into the exact
/// top k.
final class QuantizedVectors: @unchecked Sendable {
    let dimension: Int
    let rowCount: Int
    private let matrix: QuantizedMatrix
    /// ‖w − ŵ‖ per row, rounded up.
    private let rowErrors: [Float]
    /// ‖ŵ‖ per row, rounded up.
    private let rowNorms: [Float]

    /// Quantizes `rows` unit rows of `dimension` numbers at `values` (row-major).
    init(values: UnsafeBufferPointer<Float>, rows: Int, dimension: Int) {
        precondition(values.count >= rows * dimension, "QuantizedVectors: \(values.count) values for \(rows) × \(dimension)")
        self.dimension = dimension
        self.rowCount = rows
        let base = values.baseAddress ?? UnsafePointer(bitPattern: 64)!
        // 8-bit rows on every CPU: one query row is bound by memory, not by the AVX2 block's sign
        // step, and the finer grid keeps the bounds (and so the exact rerank) tight.
        matrix = QuantizedMatrix(linearWeight: base, outputs: rows, inputs: dimension, weightLimit: 127)
        var errors = [Float](repeating: 0, count: rows)
        var norms = [Float](repeating: 0, count: rows)
        for row in 0..<rows {
            let (q, scale) = matrix.quantizedWeight(channel: row)
            let stored = values.baseAddress! + row * dimension
            var error = 0.0, norm = 0.0
            for index in 0..<dimension {
                let approximate = Double(q[index]) * Double(scale)
                let difference = Double(stored[index]) - approximate
                error += difference * difference
                norm += approximate * approximate
            }
            errors[row] = Float(error.squareRoot() * (1 + 1e-6)).nextUp
            norms[row] = Float(norm.squareRoot() * (1 + 1e-6)).nextUp
        }
        rowErrors = errors
        rowNorms = norms
    }

    /// The approximate score of every row for the unit `query`, and the most each can be off.
    func scores(for query: [Float]) -> (scores: [Float], bounds: [Float]) {
        precondition(query.count == dimension, "QuantizedVectors.scores: checked by the index")
        var scores = [Float](repeating: 0, count: rowCount)
        guard rowCount > 0 else { return (scores, []) }
        query.withUnsafeBufferPointer { x in
            scores.withUnsafeMutableBufferPointer { y in
                matrix.multiply(x.baseAddress!, rows: 1, into: y.baseAddress!)
            }
        }
        var queryNorm = 0.0, largest: Float = 0
        for value in query {
            queryNorm += Double(value) * Double(value)
            largest = max(largest, abs(value))
        }
        // ‖δx‖ ≤ √d · s_x / 2, s_x = max|x| / 127; 1e-4 covers the float rounding of x · 127 / max|x|.
        let queryError = Double(dimension).squareRoot() * Double(largest) / 127 / 2 * (1 + 1e-4)
        let norm = queryNorm.squareRoot() * (1 + 1e-6)
        let bounds = (0..<rowCount).map { row in
            // 1e-6: the float products of the int32 sum with the two scales (relative 3·2⁻²⁴ of |score| ≤ ~1).
            Float(norm * Double(rowErrors[row]) + queryError * Double(rowNorms[row]) + 1e-6).nextUp
        }
        return (scores, bounds)
    }
}

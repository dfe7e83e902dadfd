import NLUCore

/// The stored vectors of an index as one contiguous row-major F32 matrix, each row scaled to unit
/// length once at load, so that a query's cosine similarity with every row is a single
/// matrix-vector product (BLAS SGEMV, which streams the matrix once: the search is bound by
/// memory bandwidth, 150 MB for 100,000 × 384).
///
/// The search is exact: every row is scored, and the top k are picked by a partial sort
/// (``TopK``), ties going to the lower row.
///
///     var matrix = VectorMatrix(dimension: 3)
///     matrix.append([1, 0, 0]); matrix.append([0, 1, 0])
///     matrix.top(1, for: [0.9, 0.1, 0])   // [row 0]
public struct VectorMatrix: Sendable {
    public let dimension: Int
    public private(set) var rowCount = 0
    // rowCount × dimension, row-major, each row of unit length (or zero).
    private var values: [Float] = []

    public init(dimension: Int) {
        self.dimension = dimension
    }

    /// Appends `vector` (of `dimension` numbers), scaled to unit length; a zero vector stays zero
    /// and scores 0 against everything.
    public mutating func append(_ vector: [Float]) {
        precondition(vector.count == dimension, "VectorMatrix.append: checked by the index")
        values.append(contentsOf: Self.normalized(vector))
        rowCount += 1
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

    /// `vector` scaled to unit length (unchanged when it is zero).
    public static func normalized(_ vector: [Float]) -> [Float] {
        var sum: Double = 0
        for value in vector { sum += Double(value) * Double(value) }
        guard sum > 0 else { return vector }
        let scale = Float(1 / sum.squareRoot())
        return vector.map { $0 * scale }
    }

    /// The cosine similarity of `query` with every row.
    public func scores(for query: [Float]) -> [Float] {
        precondition(query.count == dimension, "VectorMatrix.scores: checked by the index")
        var scores = [Float](repeating: 0, count: rowCount)
        guard rowCount > 0 else { return scores }
        let unitQuery = Self.normalized(query)
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

    /// The `k` rows most similar to `query` (cosine), best first, ties to the lower row; only rows
    /// where `isAllowed` is true when it is given.
    public func top(_ k: Int, for query: [Float], where isAllowed: ((Int) -> Bool)? = nil) -> [TopK.Entry] {
        let scores = scores(for: query)
        return scores.withUnsafeBufferPointer { TopK.select(k, from: $0, where: isAllowed) }
    }
}

/// A feature vector stored as its non-zero entries, indices ascending: how utterances enter the
/// classifier's first layer, which only touches the rows of the features present.
///
///     let x = SparseVector(indices: [3, 17], values: [0.6, 0.8])
public struct SparseVector: Sendable, Equatable {
    /// Feature indices, ascending, unique.
    public var indices: [Int32]
    /// The value of each feature in ``indices``.
    public var values: [Float]

    /// Creates a vector from parallel arrays (indices ascending and unique).
    public init(indices: [Int32] = [], values: [Float] = []) {
        self.indices = indices
        self.values = values
    }

    /// The non-zero entries of `dense`.
    public init(dense: [Float]) {
        self.init()
        for (index, value) in dense.enumerated() where value != 0 {
            indices.append(Int32(index))
            values.append(value)
        }
    }

    /// The number of non-zero entries.
    public var count: Int { indices.count }

    /// The dense form, of length `dimension`.
    public func dense(dimension: Int) -> [Float] {
        var result = [Float](repeating: 0, count: dimension)
        for (index, value) in zip(indices, values) where index >= 0 && Int(index) < dimension { result[Int(index)] = value }
        return result
    }
}

/// The rows of a matrix parameter whose gradient may be nonzero in a step; every other row of its
/// gradient is exactly zero. An embedding table's gradient has rows only for the batch's tokens (a
/// few hundred of MiniLM's 30,522), so clipping reads, the optimizer updates and zeroing clears
/// those rows instead of the whole table (``GradientClipping``, ``AdamOptimizer``): the same
/// results, with a fraction of the memory traffic.
///
///     let rows = SparseGradientRows(width: 384, rows: [101, 2054, 102])
///     optimizer.step(&parameters, gradients: gradients, sparseRows: [0: rows])
public struct SparseGradientRows: Sendable, Equatable {
    /// Elements per row: the parameter is `[count / width, width]`, row-major.
    public let width: Int
    /// The rows that may be nonzero, ascending, each once.
    public let rows: [Int]

    /// Rows `rows` (any order, repeats allowed) of a parameter whose rows have `width` elements.
    public init(width: Int, rows: [Int]) {
        precondition(width > 0, "SparseGradientRows of width \(width)")
        self.width = width
        self.rows = Array(Set(rows)).sorted()
    }

    /// Checks the rows against a parameter of `count` elements (a programming error otherwise).
    func validate(count: Int, parameter index: Int) {
        precondition(count % width == 0 && (rows.last ?? -1) < count / width && (rows.first ?? 0) >= 0,
                     "parameter \(index): sparse rows \(rows.first ?? 0)...\(rows.last ?? 0) of width \(width) for \(count) elements")
    }
}

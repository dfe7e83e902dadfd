import NLUCore

/// The trainable tensors of a BERT-family encoder: each an F32 tensor under its Hugging Face name
/// (as the bare model's `named_parameters()` spells it: `embeddings.word_embeddings.weight`,
/// `encoder.layer.0.attention.self.query.weight`, ...), with its gradient of the same shape beside it.
///
/// A final class: the encoder's forward and backward passes read and write these tensors in place,
/// and an optimizer updates ``values`` from ``gradients`` between steps.
///
///     let encoder = try TrainableEncoder(checkpoint: url)
///     let gradient = encoder.parameters.gradient("embeddings.LayerNorm.weight")
///     optimizer.step(&encoder.parameters.values, gradients: encoder.parameters.gradients)
public final class EncoderParameters {
    /// The parameters' names, in the order of ``values`` and ``gradients``.
    public let names: [String]
    /// The shapes the configuration gives, in the same order.
    public let shapes: [[Int]]
    /// The parameters themselves. Replacing one with a tensor of another shape makes the next
    /// forward pass throw. Reading or writing them first takes the word-embedding rows' steps an
    /// optimizer put off (``deferringOptimizer``), so they always read as after eager steps.
    public var values: [Tensor<Float>] {
        get {
            catchUpDeferredRows()
            return storedValues
        }
        set {
            catchUpDeferredRows()
            storedValues = newValue
        }
    }
    /// The parameters as stored: the row table's rows may be behind ``deferringOptimizer``'s steps.
    private var storedValues: [Tensor<Float>]
    /// The optimizer whose last steps put off the row table's idle rows
    /// (``AdamOptimizer/step(_:gradients:sparseRows:deferringIdleRows:)``): the rows a forward pass
    /// reads are brought up to date first (``catchUpRows(_:)``), and all of them before ``values``
    /// is read from outside. Set by ``TrainableEncoder/optimizerStep(_:learningRate:maxGradientNorm:head:headGradients:)``.
    var deferringOptimizer: AdamOptimizer? {
        willSet {
            // Another optimizer (or none) from now on: this one's put-off steps are taken first.
            if newValue !== deferringOptimizer { catchUpDeferredRows() }
        }
    }
    /// d(loss)/d(parameter), accumulated by every backward pass until ``zeroGradients()``.
    /// Changing a gradient from outside makes the next clipping, optimizer step and zeroing treat
    /// the row table's gradient as dense again, until ``zeroGradients()``.
    public var gradients: [Tensor<Float>] {
        didSet { if !movingTensors { rowsWithGradient = nil } }
    }
    private let indexByName: [String: Int]
    /// The parameter whose gradient has rows for the batch's tokens only (the word-embedding table),
    /// and its row width.
    private let rowTable: (index: Int, width: Int)?
    /// Which of the row table's rows may have a nonzero gradient since ``zeroGradients()``, as marked
    /// by the backward passes; nil when unknown (a gradient changed from outside).
    private var rowsWithGradient: [Bool]?
    private var markedRows: [Int] = []
    /// True while the passes or the optimizer step hold the tensors (``withTensorsMovedOut(_:)``).
    private var movingTensors = false

    /// Parameters with the given names and values, gradients zero; `rowTable` names the parameter
    /// (a `[rows, width]` matrix) whose gradient the backward passes fill row by row
    /// (``markGradientRow(_:)``).
    init(names: [String], values: [Tensor<Float>], rowTable: Int? = nil) {
        self.names = names
        shapes = values.map(\.shape)
        storedValues = values
        gradients = values.map { Tensor(shape: $0.shape) }
        indexByName = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        self.rowTable = rowTable.map { (index: $0, width: values[$0].shape.last ?? 1) }
        rowsWithGradient = rowTable.map { [Bool](repeating: false, count: values[$0].shape.first ?? 0) }
    }

    /// Takes the steps ``deferringOptimizer`` put off for the row table's rows `rows` (token ids; ids
    /// outside the table are left to the forward pass to refuse): before a pass reads them.
    func catchUpRows(_ rows: [Int32]) {
        guard let optimizer = deferringOptimizer, let rowTable else { return }
        storedValues[rowTable.index].withUnsafeMutableBufferPointer { table in
            guard let base = table.baseAddress else { return }
            optimizer.catchUpDeferredRows(rows.lazy.map { Int($0) }, ofParameter: rowTable.index, in: base)
        }
    }

    /// Takes every step ``deferringOptimizer`` put off for the row table.
    private func catchUpDeferredRows() {
        guard let optimizer = deferringOptimizer, let rowTable, optimizer.hasDeferredRows else { return }
        storedValues[rowTable.index].withUnsafeMutableBufferPointer { table in
            guard let base = table.baseAddress else { return }
            optimizer.catchUpAllDeferredRows(ofParameter: rowTable.index, in: base)
        }
    }

    /// Records that the row table's `row` gets a gradient in this step.
    func markGradientRow(_ row: Int) {
        guard rowsWithGradient?[row] == false else { return }
        rowsWithGradient?[row] = true
        markedRows.append(row)
    }

    /// The row table's rows that may have a nonzero gradient, by parameter index, for
    /// ``GradientClipping`` and ``AdamOptimizer``; empty when unknown (then every row counts).
    public var sparseGradientRows: [Int: SparseGradientRows] {
        guard let rowTable, rowsWithGradient != nil else { return [:] }
        return [rowTable.index: SparseGradientRows(width: rowTable.width, rows: markedRows)]
    }

    /// Runs `body` on ``values`` and ``gradients`` moved out of the store, so that each tensor's
    /// storage stays uniquely referenced and is updated in place, then puts them back, keeping
    /// what the backward passes marked.
    func withTensorsMovedOut<Result>(_ body: (inout [Tensor<Float>], inout [Tensor<Float>]) throws -> Result) rethrows -> Result {
        movingTensors = true
        defer { movingTensors = false }
        var movedValues = storedValues, movedGradients = gradients
        storedValues = []
        gradients = []
        defer {
            storedValues = movedValues
            gradients = movedGradients
        }
        return try body(&movedValues, &movedGradients)
    }

    /// The position of `name` in ``names``, or nil.
    public func index(of name: String) -> Int? { indexByName[name] }

    /// The parameter `name`, or nil when the encoder has none of that name.
    public func value(_ name: String) -> Tensor<Float>? { indexByName[name].map { values[$0] } }

    /// The gradient of parameter `name`, or nil when the encoder has none of that name.
    public func gradient(_ name: String) -> Tensor<Float>? { indexByName[name].map { gradients[$0] } }

    /// How many scalars the parameters hold together.
    public var scalarCount: Int { storedValues.reduce(0) { $0 + $1.count } }

    /// Sets every gradient to zero (before a step's first backward pass).
    public func zeroGradients() {
        movingTensors = true
        defer { movingTensors = false }
        // Each gradient's own storage first (a copy a caller took keeps its values), then the zeroing
        // over the pool's threads, a tensor a task: tens of megabytes a step for a small encoder.
        for index in gradients.indices { gradients[index].withUnsafeMutableBufferPointer { _ in } }
        let counts = gradients.map(\.count), sparseTable = rowsWithGradient != nil ? rowTable : nil
        Kernels.parallelFor(gradients.count) { index in
            let values = gradient(at: index)
            // The row table: only the rows the passes marked (all when unknown).
            if let sparseTable, index == sparseTable.index {
                for row in markedRows { (values + row * sparseTable.width).update(repeating: 0, count: sparseTable.width) }
            } else {
                values.update(repeating: 0, count: counts[index])
            }
        }
        if let rowTable {
            // Unmark what was marked (a step's few hundred rows) rather than rebuilding the table's flags.
            if rowsWithGradient == nil {
                rowsWithGradient = [Bool](repeating: false, count: shapes[rowTable.index].first ?? 0)
            } else {
                for row in markedRows { rowsWithGradient?[row] = false }
            }
            markedRows.removeAll(keepingCapacity: true)
        }
    }

    /// Checks every value and gradient against its shape and makes each contiguous, and each
    /// gradient's storage this store's own, so the passes may read and write them through raw
    /// pointers (a gradient a caller copied out keeps its own values).
    func prepareStorage() throws {
        movingTensors = true
        defer { movingTensors = false }
        for index in storedValues.indices {
            guard storedValues[index].shape == shapes[index], gradients[index].shape == shapes[index] else {
                throw ModelError.invalidFeatureValue(
                    names[index], reason: "parameter has shape \(storedValues[index].shape) and gradient \(gradients[index].shape), expected \(shapes[index])")
            }
            if !storedValues[index].isContiguous { storedValues[index] = storedValues[index].contiguous() }
            gradients[index].withUnsafeMutableBufferPointer { _ in }
        }
    }

    /// Parameter `index`'s first element (valid until ``values`` changes; after ``prepareStorage()``).
    func value(at index: Int) -> UnsafePointer<Float> {
        UnsafePointer(storedValues[index].storage.baseAddress + storedValues[index].offset)
    }

    /// Parameter `index`'s gradient's first element (after ``prepareStorage()``).
    func gradient(at index: Int) -> UnsafeMutablePointer<Float> {
        gradients[index].storage.baseAddress + gradients[index].offset
    }
}

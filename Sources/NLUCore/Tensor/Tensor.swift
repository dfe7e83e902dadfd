/// A multi-dimensional array with row-major strides: the `MLMultiArray` of NLUKit.
///
/// `Tensor<Float>` holds values and `Tensor<Int32>` token ids. Reshapes and slices along the
/// first axis are views that share memory; writing copies shared storage first, so a tensor
/// behaves as a value.
///
///     var logits = Tensor<Float>(shape: [2, 3], scalars: [1, 2, 3, 4, 5, 6])
///     logits[1, 2] = 0
///     let row = logits[1]                 // shape [3], a view
///     print(logits.reshaped([3, 2]).shape) // [3, 2]
public struct Tensor<Scalar: TensorScalar>: Sendable {
    public private(set) var storage: TensorStorage<Scalar>
    /// The index into `storage` of element `[0, 0, ...]`.
    public private(set) var offset: Int
    public private(set) var shape: [Int]
    /// Element strides per axis; row-major (`[shape[1] * shape[2], shape[2], 1]`) unless transposed.
    public private(set) var strides: [Int]

    /// A tensor of `shape` with every element `value`.
    public init(shape: [Int], repeating value: Scalar = .zero) {
        precondition(shape.allSatisfy { $0 >= 0 }, "Tensor shape must not be negative: \(shape)")
        let count = shape.reduce(1, *)
        self.storage = TensorStorage(count: count, repeating: value)
        self.offset = 0
        self.shape = shape
        self.strides = Tensor.rowMajorStrides(for: shape)
    }

    /// A tensor whose elements are not set, for buffers a kernel overwrites entirely before anyone
    /// reads them (a training step's gate buffers: zero-filling them cost 1 % of the step).
    init(uninitializedShape shape: [Int]) {
        self.init(storage: TensorStorage(uninitializedCount: shape.reduce(1, *)), shape: shape)
    }

    /// A tensor of `shape` holding `scalars` in row-major order.
    /// - Precondition: `scalars.count` equals the product of `shape`.
    public init(shape: [Int], scalars: [Scalar]) {
        precondition(shape.reduce(1, *) == scalars.count,
                     "Tensor of shape \(shape) needs \(shape.reduce(1, *)) scalars, got \(scalars.count)")
        self.storage = TensorStorage(copying: scalars)
        self.offset = 0
        self.shape = shape
        self.strides = Tensor.rowMajorStrides(for: shape)
    }

    /// A one-dimensional tensor of `scalars`.
    public init(_ scalars: [Scalar]) {
        self.init(shape: [scalars.count], scalars: scalars)
    }

    /// A tensor over existing storage (for views and memory-mapped weights).
    public init(storage: TensorStorage<Scalar>, offset: Int = 0, shape: [Int], strides: [Int]? = nil) {
        let strides = strides ?? Tensor.rowMajorStrides(for: shape)
        // An empty view may start at the storage's end (the slice of no steps after the last one).
        let fits = shape.contains(0) ? offset <= storage.count
                                     : Tensor.lastIndex(offset: offset, shape: shape, strides: strides) < max(storage.count, 1)
        precondition(offset >= 0 && fits,
                     "Tensor view of shape \(shape) at offset \(offset) exceeds its storage of \(storage.count) elements")
        self.storage = storage
        self.offset = offset
        self.shape = shape
        self.strides = strides
    }

    /// The number of axes.
    public var rank: Int { shape.count }
    /// The number of elements.
    public var count: Int { shape.reduce(1, *) }
    /// Whether the elements are laid out row-major without gaps, so kernels can read them as one buffer.
    public var isContiguous: Bool { strides == Tensor.rowMajorStrides(for: shape) }

    /// The elements in row-major order.
    public var scalars: [Scalar] {
        if isContiguous {
            return Array(UnsafeBufferPointer(start: storage.baseAddress + offset, count: count))
        }
        var result: [Scalar] = []
        result.reserveCapacity(count)
        forEachIndex { result.append(storage.baseAddress[$0]) }
        return result
    }

    /// The element at `indices` (one per axis).
    public subscript(indices: Int...) -> Scalar {
        get { storage.baseAddress[storageIndex(indices)] }
        set {
            makeUniqueAndWritable()  // may copy into a fresh row-major buffer, so index after it
            storage.baseAddress[storageIndex(indices)] = newValue
        }
    }

    /// The sub-tensor at `index` along the first axis, as a view (rank decreases by one).
    public subscript(index: Int) -> Tensor {
        precondition(rank >= 1 && index >= 0 && index < shape[0],
                     "Index \(index) out of range for axis 0 of shape \(shape)")
        return Tensor(storage: storage, offset: offset + index * strides[0],
                      shape: Array(shape.dropFirst()), strides: Array(strides.dropFirst()))
    }

    /// Rows `range` of the first axis, as a view (rank unchanged).
    public func slice(_ range: Range<Int>) -> Tensor {
        precondition(rank >= 1 && range.lowerBound >= 0 && range.upperBound <= shape[0],
                     "Slice \(range) out of range for axis 0 of shape \(shape)")
        var newShape = shape
        newShape[0] = range.count
        return Tensor(storage: storage, offset: offset + range.lowerBound * strides[0],
                      shape: newShape, strides: strides)
    }

    /// The same elements with a new shape; a view when the tensor is contiguous, a copy otherwise.
    /// One dimension may be -1 and is then inferred.
    public func reshaped(_ newShape: [Int]) -> Tensor {
        var resolved = newShape
        if let inferred = newShape.firstIndex(of: -1) {
            let known = newShape.enumerated().filter { $0.offset != inferred }.map(\.element).reduce(1, *)
            precondition(known > 0 && count % known == 0, "Cannot reshape \(shape) to \(newShape)")
            resolved[inferred] = count / known
        }
        precondition(resolved.reduce(1, *) == count, "Cannot reshape \(shape) (\(count) elements) to \(newShape)")
        let source = isContiguous ? self : contiguous()
        return Tensor(storage: source.storage, offset: source.offset, shape: resolved)
    }

    /// The tensor with axes `first` and `second` swapped, as a view (not contiguous).
    public func transposed(_ first: Int = 0, _ second: Int = 1) -> Tensor {
        var newShape = shape, newStrides = strides
        newShape.swapAt(first, second)
        newStrides.swapAt(first, second)
        return Tensor(storage: storage, offset: offset, shape: newShape, strides: newStrides)
    }

    /// The tensor with its axes reordered, as a view (not contiguous): axis `i` of the result is axis
    /// `axes[i]` of this one, as NumPy's `transpose(axes)` and PyTorch's `permute` order them.
    ///
    ///     let x = Tensor<Float>(shape: [2, 3, 4], repeating: 1)
    ///     print(x.permuted([2, 0, 1]).shape)   // [4, 2, 3]
    /// - Precondition: `axes` holds each axis of the tensor once.
    public func permuted(_ axes: [Int]) -> Tensor {
        precondition(axes.count == rank && Set(axes) == Set(0..<rank), "permuted(\(axes)) does not reorder the axes of \(shape)")
        return Tensor(storage: storage, offset: offset, shape: axes.map { shape[$0] }, strides: axes.map { strides[$0] })
    }

    /// A row-major copy, or `self` when already contiguous.
    public func contiguous() -> Tensor {
        if isContiguous { return self }
        return copied()
    }

    /// A row-major copy in fresh, writable storage (one memory copy when contiguous).
    private func copied() -> Tensor {
        if isContiguous {
            return Tensor(storage: TensorStorage(copying: storage.baseAddress + offset, count: count), shape: shape)
        }
        // Gathered straight into fresh storage: one copy of each element.
        let fresh = TensorStorage<Scalar>(uninitializedCount: count)
        var target = fresh.baseAddress
        forEachIndex { target.initialize(to: storage.baseAddress[$0]); target += 1 }
        return Tensor(storage: fresh, shape: shape)
    }

    /// Calls `body` with the elements as one contiguous read-only buffer (copying first if needed).
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Scalar>) throws -> R) rethrows -> R {
        let source = contiguous()
        return try body(UnsafeBufferPointer(start: source.storage.baseAddress + source.offset, count: source.count))
    }

    /// Calls `body` with the elements as one contiguous writable buffer, making the storage
    /// contiguous, unique and writable first.
    public mutating func withUnsafeMutableBufferPointer<R>(
        _ body: (UnsafeMutableBufferPointer<Scalar>) throws -> R
    ) rethrows -> R {
        if !isContiguous { self = copied() }
        makeUniqueAndWritable()
        return try body(UnsafeMutableBufferPointer(start: storage.baseAddress + offset, count: count))
    }

    /// Replaces every element, reading the current ones from `source` and writing the new ones
    /// to `destination`: one buffer in place when the storage is contiguous, unique and writable;
    /// otherwise the current elements and a fresh buffer that becomes this tensor's storage (one
    /// pass instead of the copy-then-write of ``withUnsafeMutableBufferPointer(_:)``). `body` must
    /// write every element of `destination`.
    ///
    ///     var y = x   // shares x's storage
    ///     y.replaceElements { source, destination in
    ///         for i in source.indices { destination[i] = max(source[i], 0) }
    ///     }
    public mutating func replaceElements(
        _ body: (_ source: UnsafeBufferPointer<Scalar>, _ destination: UnsafeMutableBufferPointer<Scalar>) throws -> Void
    ) rethrows {
        if isContiguous && isKnownUniquelyReferenced(&storage) && storage.isWritable {
            let buffer = UnsafeMutableBufferPointer(start: storage.baseAddress + offset, count: count)
            try body(UnsafeBufferPointer(buffer), buffer)
            return
        }
        let fresh = TensorStorage<Scalar>(uninitializedCount: count)
        let destination = UnsafeMutableBufferPointer(start: fresh.baseAddress, count: count)
        try withUnsafeBufferPointer { try body($0, destination) }
        self = Tensor(storage: fresh, shape: shape)
    }

    // Copy-on-write: a shared or memory-mapped storage is copied before the first write.
    private mutating func makeUniqueAndWritable() {
        if isKnownUniquelyReferenced(&storage) && storage.isWritable { return }
        self = copied()
    }

    private func storageIndex(_ indices: [Int]) -> Int {
        precondition(indices.count == rank, "Expected \(rank) indices for shape \(shape), got \(indices.count)")
        var index = offset
        for axis in 0..<rank {
            precondition(indices[axis] >= 0 && indices[axis] < shape[axis],
                         "Index \(indices) out of range for shape \(shape)")
            index += indices[axis] * strides[axis]
        }
        return index
    }

    private func forEachIndex(_ body: (Int) -> Void) {
        guard count > 0 else { return }
        var position = [Int](repeating: 0, count: rank)
        var index = offset
        while true {
            body(index)
            var axis = rank - 1
            while axis >= 0 {
                position[axis] += 1
                index += strides[axis]
                if position[axis] < shape[axis] { break }
                index -= strides[axis] * shape[axis]
                position[axis] = 0
                axis -= 1
            }
            if axis < 0 { return }
        }
    }

    /// Row-major strides for `shape`.
    public static func rowMajorStrides(for shape: [Int]) -> [Int] {
        var strides = [Int](repeating: 1, count: shape.count)
        var step = 1
        for axis in (0..<shape.count).reversed() {
            strides[axis] = step
            step *= shape[axis]
        }
        return strides
    }

    /// The storage index of a non-empty view's last element.
    private static func lastIndex(offset: Int, shape: [Int], strides: [Int]) -> Int {
        offset + zip(shape, strides).map { ($0 - 1) * $1 }.reduce(0, +)
    }
}

extension Tensor: Equatable where Scalar: Equatable {
    /// Tensors are equal when their shapes and elements are equal (layout does not matter).
    public static func == (lhs: Tensor, rhs: Tensor) -> Bool {
        lhs.shape == rhs.shape && lhs.scalars == rhs.scalars
    }
}

extension Tensor: CustomStringConvertible {
    public var description: String {
        let preview = scalars.prefix(8).map { "\($0)" }.joined(separator: ", ")
        return "Tensor<\(Scalar.self)>(shape: \(shape), [\(preview)\(count > 8 ? ", ..." : "")])"
    }
}

import NLUCore

/// One intermediate value of a neural network: NLUCore's `Tensor<Float>` under the name Core ML gives it.
///
/// NeuralNetwork.proto names every layer input and output a blob, and so do this module's errors and its
/// ``BlobBudget``; the alias keeps that vocabulary without a second array type. In the old rank-5 layout every blob
/// is `[Seq, Batch, C, H, W]`; with `EXACT_ARRAY_MAPPING` (ND layers) a blob has the rank its producer gives it.
typealias Blob = Tensor<Float>

extension Tensor where Scalar == Float {
    /// A blob of `shape` holding `values` in row-major order.
    init(shape: [Int], values: [Float]) { self.init(shape: shape, scalars: values) }

    /// The elements in row-major order (a copy: layers read and write through buffers instead).
    var values: [Float] { scalars }

    /// `transform` of every element, written in one pass into fresh storage (this blob is shared with the ones a
    /// prediction keeps).
    func mapped(_ transform: (Float) -> Float) -> Blob {
        var result = self
        result.replaceElements { source, destination in
            for index in source.indices { destination[index] = transform(source[index]) }
        }
        return result
    }

    /// One of NLUCore's pointer kernels applied to a copy of every element (``replaceElements`` copies only
    /// when the storage is shared, as an input blob always is).
    func applying(_ kernel: (UnsafeMutablePointer<Float>, Int) -> Void) -> Blob {
        var result = self
        result.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { kernel(base, buffer.count) }
        }
        return result
    }
}

/// Shape arithmetic shared by the layers.
enum Shapes {
    /// `axis` (negative counts from the end) as an index into a shape of `rank`, or `nil` when out of range.
    static func normalize(axis: Int, rank: Int) -> Int? {
        let resolved = axis < 0 ? axis + rank : axis
        return (0..<rank).contains(resolved) ? resolved : nil
    }

    /// NumPy broadcasting of two shapes, or `nil` when they do not broadcast.
    static func broadcast(_ a: [Int], _ b: [Int]) -> [Int]? {
        let rank = max(a.count, b.count)
        let paddedA = [Int](repeating: 1, count: rank - a.count) + a
        let paddedB = [Int](repeating: 1, count: rank - b.count) + b
        var result = [Int]()
        for (x, y) in zip(paddedA, paddedB) {
            if x == y || y == 1 { result.append(x) } else if x == 1 { result.append(y) } else { return nil }
        }
        return result
    }

    /// For each element of a blob of `outputShape`, the index of the element of `inputShape` it reads under
    /// broadcasting (input shape padded with leading 1s).
    static func broadcastIndices(from inputShape: [Int], to outputShape: [Int]) -> [Int] {
        let padded = [Int](repeating: 1, count: outputShape.count - inputShape.count) + inputShape
        let inputStrides = Blob.rowMajorStrides(for: padded).enumerated().map { padded[$0.offset] == 1 ? 0 : $0.element }
        let count = outputShape.reduce(1, *)
        var positions = [Int](repeating: 0, count: count)
        var counter = [Int](repeating: 0, count: outputShape.count)
        var position = 0
        for element in 0..<count {
            positions[element] = position
            // Advance the multi-index like an odometer, keeping the source position in step.
            var axis = outputShape.count - 1
            while axis >= 0 {
                counter[axis] += 1
                position += inputStrides[axis]
                if counter[axis] < outputShape[axis] { break }
                position -= inputStrides[axis] * counter[axis]
                counter[axis] = 0
                axis -= 1
            }
        }
        return positions
    }

    /// The most values one blob may hold (256 MiB of floats), 16 times any converted encoder's largest activation
    /// (BERT-large's attention scores over 512 tokens hold 2^22): a file whose layers multiply sizes (a blob
    /// concatenated with itself layer after layer, batch axes that broadcast against each other, a chain of widening
    /// products) fails naming the layer instead of allocating without bound. The budget of ``BlobBudget``.
    static let maximumCount = 1 << 26

    /// The element count of `shape` read from a file, or `nil` when a dimension is negative or the count exceeds
    /// `limit` (checked step by step, so hostile sizes cannot overflow).
    static func checkedCount(_ shape: [Int], limit: Int = maximumCount) -> Int? {
        var count = 1
        for dimension in shape {
            guard dimension >= 0 else { return nil }
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= limit else { return nil }
            count = product
        }
        return count
    }

    /// The element count of the blob of `shape` a layer is about to make, checked before anything is allocated.
    /// - Throws: `fail`'s error when it would hold more than ``maximumCount`` values.
    @discardableResult
    static func checkOutput(_ shape: [Int], fail: (String) -> CoreMLError) throws -> Int {
        guard let count = checkedCount(shape) else {
            let count = checkedCount(shape, limit: .max).map(String.init) ?? "more than \(Int.max)"
            throw fail("its output of shape \(shape) would hold \(count) values, \(BlobBudget.perLayerLimit)")
        }
        return count
    }

    /// Splits `shape` around `axis`: (product of dims before, dim, product of dims after).
    static func around(axis: Int, of shape: [Int]) -> (outer: Int, length: Int, inner: Int) {
        (shape[..<axis].reduce(1, *), shape[axis], shape[(axis + 1)...].reduce(1, *))
    }
}

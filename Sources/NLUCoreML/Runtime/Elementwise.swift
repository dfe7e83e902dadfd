import Foundation
import NLUCore

/// Element-wise math shared by several layer kinds.
enum Elementwise {
    /// `operation(a, b)` with NumPy broadcasting, or `nil` when the shapes do not broadcast (or would make a blob
    /// of more than 2^28 values).
    static func binary(_ a: Blob, _ b: Blob, _ operation: (Float, Float) -> Float) -> Blob? {
        if a.shape == b.shape {
            return Blob(shape: a.shape, values: zip(a.values, b.values).map(operation))
        }
        guard let shape = Shapes.broadcast(a.shape, b.shape), Shapes.checkedCount(shape) != nil else { return nil }
        if b.count == 1 { let scalar = b.values[0]; return Blob(shape: shape, values: a.values.map { operation($0, scalar) }) }
        if a.count == 1 { let scalar = a.values[0]; return Blob(shape: shape, values: b.values.map { operation(scalar, $0) }) }
        let left = a.shape == shape ? nil : Shapes.broadcastIndices(from: a.shape, to: shape)
        let right = b.shape == shape ? nil : Shapes.broadcastIndices(from: b.shape, to: shape)
        let count = shape.reduce(1, *)
        var values = [Float](repeating: 0, count: count)
        for index in 0..<count {
            values[index] = operation(a.values[left?[index] ?? index], b.values[right?[index] ?? index])
        }
        return Blob(shape: shape, values: values)
    }

    /// Folds several inputs with `operation` (Core ML's add/multiply take one or more), broadcasting.
    static func fold(_ inputs: [Blob], _ operation: (Float, Float) -> Float, fail: (String) -> CoreMLError) throws -> Blob {
        guard var result = inputs.first else { throw fail("no inputs") }
        for next in inputs.dropFirst() {
            guard let combined = binary(result, next, operation) else {
                if let shape = Shapes.broadcast(result.shape, next.shape) { try Shapes.checkOutput(shape, fail: fail) }
                throw fail("shapes \(result.shape) and \(next.shape) do not broadcast")
            }
            result = combined
        }
        return result
    }

    /// Softmax along `axis` of `blob`.
    static func softmax(_ blob: Blob, axis: Int) -> Blob {
        let (outer, length, inner) = Shapes.around(axis: axis, of: blob.shape)
        var values = blob.values
        if inner == 1 {
            // The common case (last axis): rows are contiguous, so NLUCore's vectorized kernel applies.
            values.withUnsafeMutableBufferPointer { Kernels.softmax($0.baseAddress!, rowCount: outer, rowLength: length) }
            return Blob(shape: blob.shape, values: values)
        }
        for o in 0..<outer {
            for i in 0..<inner {
                let base = o * length * inner + i
                var maximum = -Float.infinity
                for k in 0..<length { maximum = max(maximum, values[base + k * inner]) }
                var sum: Float = 0
                for k in 0..<length {
                    let e = Foundation.exp(values[base + k * inner] - maximum)
                    values[base + k * inner] = e
                    sum += e
                }
                for k in 0..<length { values[base + k * inner] /= sum }
            }
        }
        return Blob(shape: blob.shape, values: values)
    }

    /// Concatenation along `axis`; every other dimension must agree.
    static func concatenate(_ inputs: [Blob], axis: Int, fail: (String) -> CoreMLError) throws -> Blob {
        guard let first = inputs.first else { throw fail("no inputs") }
        var shape = first.shape
        for input in inputs.dropFirst() {
            guard input.rank == first.rank,
                  zip(input.shape, first.shape).enumerated().allSatisfy({ $0.offset == axis || $0.element.0 == $0.element.1 }) else {
                throw fail("cannot concatenate shapes \(inputs.map(\.shape)) along axis \(axis)")
            }
        }
        shape[axis] = inputs.reduce(0) { $0 + $1.shape[axis] }
        let count = try Shapes.checkOutput(shape, fail: fail)
        let outer = shape[..<axis].reduce(1, *)
        var values = [Float]()
        values.reserveCapacity(count)
        for o in 0..<outer {
            for input in inputs {
                let chunk = input.shape[axis...].reduce(1, *)
                values.append(contentsOf: input.values[(o * chunk)..<((o + 1) * chunk)])
            }
        }
        return Blob(shape: shape, values: values)
    }

    /// `blob` with its axes reordered: output axis i is input axis `permutation[i]`.
    static func transpose(_ blob: Blob, _ permutation: [Int]) -> Blob {
        let shape = permutation.map { blob.shape[$0] }
        let inputStrides = Blob.strides(of: blob.shape)
        let values = Shapes.positions(shape: shape, strides: permutation.map { inputStrides[$0] }).map { blob.values[$0] }
        return Blob(shape: shape, values: values)
    }
}

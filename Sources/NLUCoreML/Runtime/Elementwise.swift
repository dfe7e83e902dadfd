import NLUCore

/// Element-wise math shared by several layer kinds: NumPy broadcasting, softmax along any axis, concatenation.
enum Elementwise {
    /// `operation(a, b)` with NumPy broadcasting, or `nil` when the shapes do not broadcast (or would make a blob
    /// of more than 2^26 values).
    static func binary(_ a: Blob, _ b: Blob, _ operation: (Float, Float) -> Float) -> Blob? {
        if a.shape == b.shape {
            var result = a
            b.withUnsafeBufferPointer { right in
                result.replaceElements { left, destination in
                    for index in left.indices { destination[index] = operation(left[index], right[index]) }
                }
            }
            return result
        }
        let aShape = a.shape, bShape = b.shape
        guard let shape = Shapes.broadcast(aShape, bShape), let count = Shapes.checkedCount(shape) else { return nil }
        var result = Blob(shape: shape)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                result.withUnsafeMutableBufferPointer { output in
                    // A single value on one side broadcasts without index tables (the other side then holds every position).
                    if b.count == 1 {
                        let scalar = b[0]
                        for index in 0..<count { output[index] = operation(a[index], scalar) }
                    } else if a.count == 1 {
                        let scalar = a[0]
                        for index in 0..<count { output[index] = operation(scalar, b[index]) }
                    } else {
                        let left = a.count == count ? nil : Shapes.broadcastIndices(from: aShape, to: shape)
                        let right = b.count == count ? nil : Shapes.broadcastIndices(from: bShape, to: shape)
                        for index in 0..<count { output[index] = operation(a[left?[index] ?? index], b[right?[index] ?? index]) }
                    }
                }
            }
        }
        return result
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

    /// Softmax along `axis` of `blob`, by NLUCore's kernel (which normalizes the last axis).
    static func softmax(_ blob: Blob, axis: Int) -> Blob {
        let (outer, length, inner) = Shapes.around(axis: axis, of: blob.shape)
        if inner == 1 {
            // The axis is the last one that is not 1 (the common case): the rows are contiguous as they are.
            var rows = blob.reshaped([outer, length])
            Kernels.softmax(&rows)
            return rows.reshaped(blob.shape)
        }
        // Another axis: moved last, normalized there, and moved back.
        var order = Array(0..<blob.rank)
        order.remove(at: axis)
        order.append(axis)
        var moved = blob.permuted(order).contiguous()
        Kernels.softmax(&moved)
        var back = [Int](repeating: 0, count: order.count)
        for (position, source) in order.enumerated() { back[source] = position }
        return moved.permuted(back).contiguous()
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
        try Shapes.checkOutput(shape, fail: fail)
        let outer = shape[..<axis].reduce(1, *)
        let sources = inputs.map { $0.contiguous() }
        var result = Blob(shape: shape)
        result.withUnsafeMutableBufferPointer { output in
            var target = output.baseAddress!
            for o in 0..<outer {
                for input in sources {
                    let chunk = input.shape[axis...].reduce(1, *)
                    input.withUnsafeBufferPointer { source in
                        target.update(from: source.baseAddress! + o * chunk, count: chunk)
                    }
                    target += chunk
                }
            }
        }
        return result
    }
}

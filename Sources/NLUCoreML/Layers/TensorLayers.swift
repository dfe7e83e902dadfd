import Foundation
import NLUCore

/// The ND layers (`EXACT_ARRAY_MAPPING` models) that the PyTorch → neural-network converter emits for a BERT
/// encoder: batchedMatMul, layerNormalization, gelu, softmaxND, transpose, reshapeStatic/Dynamic, splitND,
/// sliceStatic, gather, add/subtract/multiply/divide with broadcasting, loadConstantND, squeeze, expandDims,
/// concatND, flattenTo2D, reduceMean, erf.
enum TensorLayers {
    static func batchedMatMul(_ p: CoreML_Specification_BatchedMatMulLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        if p.int8DynamicQuantize { throw context.unsupported("int8 dynamic quantization") }
        if context.inputs.count == 1 {
            try context.expect(inputs: 1...1, outputs: 1...1)
            if p.transposeA { throw context.unsupported("transposeA with a weight matrix") }
            let inner = try context.checkedSize(p.weightMatrixFirstDimension, "weightMatrixFirstDimension")
            // Stored [second, first] = [C_out, C_in] (coremltools writes Wᵀ), as innerProduct stores its weights.
            let dense = try context.linear(p.weights, bias: p.hasBias_p ? p.bias : nil, inputs: inner,
                                           outputs: try context.checkedSize(p.weightMatrixSecondDimension, "weightMatrixSecondDimension"))
            let width = dense.outputSize
            return context.unary { x, fail in
                guard x.shape.last == inner else { throw fail("input has shape \(x.shape), expected last dimension \(inner)") }
                let shape = Array(x.shape.dropLast()) + [width]
                try Shapes.checkOutput(shape, fail: fail)
                return dense.apply(to: x, shape: shape)
            }
        }
        try context.expect(inputs: 2...2, outputs: 1...1)
        let transposeA = p.transposeA, transposeB = p.transposeB
        return context.layer { inputs, fail in [try multiply(inputs[0], inputs[1], transposeA: transposeA, transposeB: transposeB, fail: fail)] }
    }

    /// `A·B` over the last two axes, with the leading (batch) axes broadcast.
    static func multiply(_ a: Blob, _ b: Blob, transposeA: Bool, transposeB: Bool, fail: (String) -> CoreMLError) throws -> Blob {
        guard a.rank >= 2, b.rank >= 2 else { throw fail("inputs of shapes \(a.shape) and \(b.shape), expected rank 2 or more") }
        let m = transposeA ? a.shape[a.rank - 1] : a.shape[a.rank - 2], k = transposeA ? a.shape[a.rank - 2] : a.shape[a.rank - 1]
        let kb = transposeB ? b.shape[b.rank - 1] : b.shape[b.rank - 2], n = transposeB ? b.shape[b.rank - 2] : b.shape[b.rank - 1]
        guard k == kb, let batchShape = Shapes.broadcast(Array(a.shape.dropLast(2)), Array(b.shape.dropLast(2))) else {
            throw fail("cannot multiply shapes \(a.shape) and \(b.shape)")
        }
        // Broadcast batch axes multiply: [N, 1, ...] by [1, N, ...] makes N² products.
        let shape = batchShape + [m, n]
        try Shapes.checkOutput(shape, fail: fail)
        let batches = batchShape.reduce(1, *)
        let aBatches = a.shape.dropLast(2).reduce(1, *), bBatches = b.shape.dropLast(2).reduce(1, *)
        let aMatrices = a.reshaped([aBatches] + a.shape.suffix(2)), bMatrices = b.reshaped([bBatches] + b.shape.suffix(2))
        // Batch axes that match (attention's [batch, heads] on both sides), or one right-hand matrix for every batch:
        // one call of NLUCore's batched product.
        if aBatches == batches && (bBatches == batches || bBatches == 1) {
            let right = bBatches == batches ? bMatrices : bMatrices[0]
            return Kernels.matmul(aMatrices, right, transposeA: transposeA, transposeB: transposeB).reshaped(shape)
        }
        // Batch axes that broadcast against each other: one product per pair of matrices.
        let aIndex = Shapes.broadcastIndices(from: Array(a.shape.dropLast(2)), to: batchShape)
        let bIndex = Shapes.broadcastIndices(from: Array(b.shape.dropLast(2)), to: batchShape)
        var result = Blob(shape: shape)
        result.withUnsafeMutableBufferPointer { output in
            for batch in 0..<batches {
                let product = Kernels.matmul(aMatrices[aIndex[batch]], bMatrices[bIndex[batch]], transposeA: transposeA,
                                             transposeB: transposeB)
                product.withUnsafeBufferPointer { (output.baseAddress! + batch * m * n).update(from: $0.baseAddress!, count: m * n) }
            }
        }
        return result
    }

    static func layerNormalization(_ p: CoreML_Specification_LayerNormalizationLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        guard !p.normalizedShape.isEmpty, p.normalizedShape.allSatisfy({ $0 > 0 && $0 <= 1 << 28 }) else {
            throw context.invalid("normalizedShape \(p.normalizedShape), expected positive sizes")
        }
        let normalized = p.normalizedShape.map(Int.init)
        guard let length = Shapes.checkedCount(normalized) else { throw context.invalid("normalizedShape \(normalized) is too large") }
        let gamma = try context.weights.floats(p.gamma, field: "gamma", count: length)
        let beta = try context.weights.floats(p.beta, field: "beta", count: length)
        let epsilon = p.eps
        return context.unary { x, fail in
            guard x.rank >= normalized.count, Array(x.shape.suffix(normalized.count)) == normalized else {
                throw fail("input has shape \(x.shape), expected it to end in \(normalized)")
            }
            return x.applying { rows, count in
                gamma.withUnsafeBufferPointer { g in
                    beta.withUnsafeBufferPointer { b in
                        Kernels.layerNorm(rows, rowCount: count / length, rowLength: length, weight: g.baseAddress!,
                                          bias: b.baseAddress!, epsilon: epsilon)
                    }
                }
            }
        }
    }

    static func gelu(_ p: CoreML_Specification_GeluLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let mode = p.mode
        if case .UNRECOGNIZED(let value) = mode { throw context.unsupported("GELU mode \(value)") }
        return context.unary { x, _ in
            switch mode {
            case .exact: return x.applying { Kernels.gelu($0, count: $1) }
            case .tanhApproximation: return x.applying { Kernels.geluTanh($0, count: $1) }
            default: return x.mapped { $0 / (1 + Foundation.exp(-1.702 * $0)) }
            }
        }
    }

    static func erf(_ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        return context.unary { x, _ in x.applying { Kernels.erf($0, count: $1) } }
    }

    static func softmaxND(_ p: CoreML_Specification_SoftmaxNDLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let axis = Int(clamping: p.axis)
        return context.unary { x, fail in
            guard let resolved = Shapes.normalize(axis: axis, rank: x.rank) else { throw fail("axis \(axis) is out of range for shape \(x.shape)") }
            return Elementwise.softmax(x, axis: resolved)
        }
    }

    static func transpose(_ p: CoreML_Specification_TransposeLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let axes = p.axes.map { Int(clamping: $0) }
        guard Set(axes) == Set(0..<axes.count) else { throw context.invalid("axes \(axes) are not a permutation") }
        return context.unary { x, fail in
            guard x.rank == axes.count else { throw fail("input has rank \(x.rank), axes \(axes) need rank \(axes.count)") }
            return x.permuted(axes).contiguous()
        }
    }

    /// A target shape with at most one -1 (inferred) and 0 meaning "copy the input's dimension".
    static func resolve(target: [Int], for x: Blob, fail: (String) -> CoreMLError) throws -> [Int] {
        var shape = target.enumerated().map { $0.element == 0 && $0.offset < x.rank ? x.shape[$0.offset] : $0.element }
        let inferred = shape.indices.filter { shape[$0] == -1 }
        guard inferred.count <= 1, shape.allSatisfy({ $0 == -1 || $0 > 0 }) else {
            throw fail("target shape \(target) is not valid")
        }
        guard let known = Shapes.checkedCount(shape.filter { $0 != -1 }, limit: Int.max) else {
            throw fail("cannot reshape \(x.shape) to \(target)")
        }
        if let index = inferred.first {
            guard known > 0, x.count % known == 0 else { throw fail("cannot reshape \(x.shape) to \(target)") }
            shape[index] = x.count / known
        }
        guard Shapes.checkedCount(shape, limit: Int.max) == x.count else { throw fail("cannot reshape \(x.shape) (\(x.count) values) to \(target)") }
        return shape
    }

    static func reshapeStatic(_ p: CoreML_Specification_ReshapeStaticLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        guard !p.targetShape.isEmpty, p.targetShape.allSatisfy({ $0 >= -1 && $0 <= 1 << 28 }) else {
            throw context.invalid("targetShape \(p.targetShape), expected one or more sizes (-1 inferred, 0 copied, else 1 to \(1 << 28))")
        }
        let target = p.targetShape.map { Int($0) }
        return context.unary { x, fail in x.reshaped(try resolve(target: target, for: x, fail: fail)) }
    }

    static func reshapeDynamic(_ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 2...2, outputs: 1...1)
        return context.layer { inputs, fail in
            let x = inputs[0]
            let sizes = inputs[1].scalars
            guard sizes.allSatisfy({ $0 >= -1 && $0 <= Float(1 << 28) && $0.rounded() == $0 }) else {
                throw fail("shape input \(sizes) is not a list of sizes")
            }
            return [x.reshaped(try resolve(target: sizes.map { Int($0) }, for: x, fail: fail))]
        }
    }

    static func splitND(_ p: CoreML_Specification_SplitNDLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...Int.max)
        let axis = Int(clamping: p.axis)
        // Checked here: the sizes are summed against the split dimension, and two of 2^64 - 1 (clamped to Int.max) overflowed that sum.
        let sizes = try p.splitSizes.enumerated().map { try context.checkedSize($0.element, "splitSizes[\($0.offset)]") }
        let parts = context.outputs.count
        if !sizes.isEmpty, sizes.count != parts { throw context.invalid("\(sizes.count) split sizes for \(parts) outputs") }
        return context.layer { inputs, fail in
            let x = inputs[0]
            guard let resolved = Shapes.normalize(axis: axis, rank: x.rank) else { throw fail("axis \(axis) is out of range for shape \(x.shape)") }
            let (outer, length, inner) = Shapes.around(axis: resolved, of: x.shape)
            let lengths = sizes.isEmpty ? [Int](repeating: length / parts, count: parts) : sizes
            guard lengths.reduce(0, +) == length, lengths.allSatisfy({ $0 > 0 }) else {
                throw fail("cannot split dimension \(length) of \(x.shape) into \(sizes.isEmpty ? "\(parts) equal parts" : "\(sizes)")")
            }
            var start = 0
            return x.withUnsafeBufferPointer { source in
                lengths.map { part in
                    var shape = x.shape
                    shape[resolved] = part
                    var piece = Blob(shape: shape)
                    piece.withUnsafeMutableBufferPointer { target in
                        for o in 0..<outer {
                            (target.baseAddress! + o * part * inner).update(from: source.baseAddress! + (o * length + start) * inner,
                                                                            count: part * inner)
                        }
                    }
                    start += part
                    return piece
                }
            }
        }
    }

    static func sliceStatic(_ p: CoreML_Specification_SliceStaticLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let rank = p.beginIds.count
        guard p.endIds.count == rank, p.strides.count == rank, p.beginMasks.count == rank, p.endMasks.count == rank,
              p.squeezeMasks.isEmpty || p.squeezeMasks.count == rank else {
            throw context.invalid("beginIds, endIds, strides and masks have different lengths")
        }
        guard p.strides.allSatisfy({ $0 != 0 }) else { throw context.invalid("a stride is 0") }
        if p.strides.contains(where: { $0 < 0 }) { throw context.unsupported("negative strides") }
        let begins = p.beginIds.map { Int(clamping: $0) }, ends = p.endIds.map { Int(clamping: $0) }
        let strides = p.strides.map { Int(clamping: $0) }, beginMasks = p.beginMasks, endMasks = p.endMasks
        let squeeze = p.squeezeMasks
        return context.unary { x, fail in
            guard x.rank == rank else { throw fail("input has rank \(x.rank), the slice is for rank \(rank)") }
            var ranges = [[Int]]()
            for axis in 0..<rank {
                let size = x.shape[axis]
                func clamp(_ value: Int) -> Int { Swift.min(Swift.max(value < 0 ? value + size : value, 0), size) }
                let begin = beginMasks[axis] ? 0 : clamp(begins[axis])
                let end = endMasks[axis] ? size : clamp(ends[axis])
                ranges.append(Array(stride(from: begin, to: end, by: strides[axis])))
            }
            return gatherProduct(x, ranges, squeeze: squeeze)
        }
    }

    /// The elements at every combination of per-axis indices (a strided slice or a gather), read straight into the
    /// output: a table of their offsets in between took twice the output's bytes again.
    static func gatherProduct(_ x: Blob, _ ranges: [[Int]], squeeze: [Bool] = []) -> Blob {
        let strides = Blob.rowMajorStrides(for: x.shape)
        let counts = ranges.map(\.count)
        let total = counts.reduce(1, *)
        var values = [Float]()
        values.reserveCapacity(total)
        var counter = [Int](repeating: 0, count: ranges.count)
        x.withUnsafeBufferPointer { source in
            for _ in 0..<total {
                var offset = 0
                for axis in ranges.indices { offset += ranges[axis][counter[axis]] * strides[axis] }
                values.append(source[offset])
                // Advance the multi-index like an odometer.
                var axis = ranges.count - 1
                while axis >= 0 {
                    counter[axis] += 1
                    if counter[axis] < counts[axis] { break }
                    counter[axis] = 0
                    axis -= 1
                }
            }
        }
        var shape = counts
        if !squeeze.isEmpty {
            shape = shape.enumerated().filter { !(squeeze[$0.offset] && $0.element == 1) }.map(\.element)
        }
        return Blob(shape: shape, scalars: values)
    }

    static func gather(_ p: CoreML_Specification_GatherLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 2...2, outputs: 1...1)
        let axis = Int(clamping: p.axis)
        return context.layer { inputs, fail in
            let (x, indices) = (inputs[0], inputs[1])
            guard let resolved = Shapes.normalize(axis: axis, rank: x.rank) else { throw fail("axis \(axis) is out of range for shape \(x.shape)") }
            // The indices' own shape replaces the gathered axis. Checked before the indices are read: 2^30 of them
            // took 8 GiB as positions before the output's size was looked at.
            let shape = Array(x.shape[..<resolved]) + indices.shape + Array(x.shape[(resolved + 1)...])
            try Shapes.checkOutput(shape) { fail("gathering \(indices.count) indices (shape \(indices.shape)) along axis \(resolved) of \(x.shape): \($0)") }
            let size = x.shape[resolved]
            let picked = try indices.scalars.map { value -> Int in
                let index = Int(exactly: value.rounded()) ?? Int.max
                guard index >= -size, index < size else { throw fail("index \(value) is out of range for dimension \(size)") }
                return index < 0 ? index + size : index
            }
            var ranges = x.shape.map { Array(0..<$0) }
            ranges[resolved] = picked
            return [gatherProduct(x, ranges).reshaped(shape)]
        }
    }

    static func broadcastable(_ context: LayerContext, _ operation: @escaping @Sendable (Float, Float) -> Float) throws -> CompiledLayer {
        try context.expect(inputs: 1...Int.max, outputs: 1...1)
        return context.layer { inputs, fail in [try Elementwise.fold(inputs, operation, fail: fail)] }
    }

    static func loadConstantND(_ p: CoreML_Specification_LoadConstantNDLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 0...0, outputs: 1...1)
        guard !p.shape.isEmpty, p.shape.allSatisfy({ $0 > 0 && $0 <= 1 << 28 }) else {
            throw context.invalid("shape \(p.shape), expected positive sizes")
        }
        let shape = p.shape.map(Int.init)
        guard let count = Shapes.checkedCount(shape) else { throw context.invalid("shape \(shape) is too large") }
        let blob = Blob(shape: shape, scalars: try context.weights.floats(p.data, field: "data", count: count, channels: shape[0]))
        return context.layer { _, _ in [blob] }
    }

    static func squeeze(_ p: CoreML_Specification_SqueezeLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let axes = p.axes.map { Int(clamping: $0) }, all = p.squeezeAll || p.axes.isEmpty
        return context.unary { x, fail in
            if all { let shape = x.shape.filter { $0 != 1 }; return x.reshaped(shape.isEmpty ? [1] : shape) }
            let resolved = try axes.map { axis -> Int in
                guard let r = Shapes.normalize(axis: axis, rank: x.rank), x.shape[r] == 1 else {
                    throw fail("cannot squeeze axis \(axis) of shape \(x.shape)")
                }
                return r
            }
            let shape = x.shape.enumerated().filter { !resolved.contains($0.offset) }.map(\.element)
            return x.reshaped(shape.isEmpty ? [1] : shape)
        }
    }

    static func expandDims(_ p: CoreML_Specification_ExpandDimsLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let axes = p.axes.map { Int(clamping: $0) }
        return context.unary { x, fail in
            let rank = x.rank + axes.count
            let resolved = try Set(axes.map { axis -> Int in
                guard let r = Shapes.normalize(axis: axis, rank: rank) else { throw fail("axis \(axis) is out of range for rank \(rank)") }
                return r
            })
            guard resolved.count == axes.count else { throw fail("axes \(axes) repeat") }
            var remaining = x.shape.makeIterator()
            let shape = (0..<rank).map { resolved.contains($0) ? 1 : remaining.next() ?? 1 }
            return x.reshaped(shape)
        }
    }

    static func concatND(_ p: CoreML_Specification_ConcatNDLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...Int.max, outputs: 1...1)
        if p.interleave { throw context.unsupported("interleaved concatenation") }
        let axis = Int(clamping: p.axis)
        return context.layer { inputs, fail in
            guard let resolved = Shapes.normalize(axis: axis, rank: inputs[0].rank) else { throw fail("axis \(axis) is out of range for shape \(inputs[0].shape)") }
            return [try Elementwise.concatenate(inputs, axis: resolved, fail: fail)]
        }
    }

    static func flattenTo2D(_ p: CoreML_Specification_FlattenTo2DLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let axis = Int(clamping: p.axis)
        return context.unary { x, fail in
            let resolved = axis < 0 ? axis + x.rank : axis
            guard (0...x.rank).contains(resolved) else { throw fail("axis \(axis) is out of range for shape \(x.shape)") }
            return x.reshaped([x.shape[..<resolved].reduce(1, *), x.shape[resolved...].reduce(1, *)])
        }
    }

    static func reduceMean(_ p: CoreML_Specification_ReduceMeanLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let axes = p.axes.map { Int(clamping: $0) }, all = p.reduceAll, keep = p.keepDims
        return context.unary { x, fail in
            let resolved = all ? Set(0..<x.rank) : Set(try axes.map { axis -> Int in
                guard let r = Shapes.normalize(axis: axis, rank: x.rank) else { throw fail("axis \(axis) is out of range for shape \(x.shape)") }
                return r
            })
            let kept = x.shape.enumerated().map { resolved.contains($0.offset) ? 1 : $0.element }
            var sums = [Float](repeating: 0, count: kept.reduce(1, *))
            let index = Shapes.broadcastIndices(from: kept, to: x.shape)
            x.withUnsafeBufferPointer { values in
                for (position, value) in values.enumerated() { sums[index[position]] += value }
            }
            let divisor = Float(x.count / Swift.max(1, sums.count))
            let shape = keep ? kept : x.shape.enumerated().filter { !resolved.contains($0.offset) }.map(\.element)
            return Blob(shape: shape.isEmpty ? [1] : shape, scalars: sums.map { $0 / divisor })
        }
    }
}

import CKernels

extension Kernels {
    /// Softmax over the last axis, in place, numerically stable (the row maximum is subtracted
    /// before `exp`). `additiveMask` is added to the scores first; its shape is a suffix of `x`'s
    /// (e.g. `[keys]` for a padding mask or `[queries, keys]` for a causal one), broadcast over
    /// the leading axes. Use a large negative value (e.g. -10000 or `-Float.greatestFiniteMagnitude`)
    /// to mask; a row masked entirely with `-inf` becomes all zeros rather than NaN.
    ///
    ///     var scores = Tensor<Float>(shape: [1, 3], scalars: [1, 2, 3])
    ///     Kernels.softmax(&scores, additiveMask: Tensor([0, 0, -10_000]))   // [0.269, 0.731, 0]
    public static func softmax(_ x: inout Tensor<Float>, additiveMask: Tensor<Float>? = nil) {
        let rowLength = x.shape.last ?? 1
        let rowCount = rowLength == 0 ? 0 : x.count / rowLength
        guard let mask = additiveMask else {
            x.replaceElements { softmaxRows($0.baseAddress!, $1.baseAddress!, rowCount: rowCount, rowLength: rowLength) }
            return
        }
        let maskShape = Array(mask.shape.drop { $0 == 1 })
        precondition(mask.count > 0 && mask.count % max(rowLength, 1) == 0
                     && (maskShape.isEmpty || x.shape.reversed().starts(with: maskShape.reversed())),
                     "softmax mask of shape \(mask.shape) does not broadcast over scores of shape \(x.shape)")
        mask.withUnsafeBufferPointer { maskBuffer in
            x.replaceElements {
                softmaxRows($0.baseAddress!, $1.baseAddress!, rowCount: rowCount, rowLength: rowLength,
                            additiveMask: maskBuffer.baseAddress, maskRowCount: max(1, mask.count / max(rowLength, 1)))
            }
        }
    }

    /// Softmax over `rowCount` rows of `rowLength` floats at `rows`, in place. Row `r` adds mask
    /// row `r % maskRowCount` of `additiveMask` (`maskRowCount × rowLength` floats) first.
    public static func softmax(_ rows: UnsafeMutablePointer<Float>, rowCount: Int, rowLength: Int,
                               additiveMask: UnsafePointer<Float>? = nil, maskRowCount: Int = 1) {
        softmaxRows(rows, rows, rowCount: rowCount, rowLength: rowLength, additiveMask: additiveMask, maskRowCount: maskRowCount)
    }

    static func softmaxRows(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>,
                            rowCount: Int, rowLength: Int, additiveMask: UnsafePointer<Float>? = nil, maskRowCount: Int = 1) {
        guard rowLength > 0 else { return }
        let maskRows = max(maskRowCount, 1)
        forEachRowChunk(rowCount: rowCount, rowLength: rowLength) { range in
            let start = range.lowerBound * rowLength
            nlukit_softmax_rows(source + start, destination + start, range.count, rowLength,
                                additiveMask, maskRows, range.lowerBound % maskRows)
        }
    }

    /// Log-softmax over the last axis, in place: `x - max - log(Σ exp(x - max))`.
    ///
    ///     var logits = Tensor<Float>([1, 2, 3]); Kernels.logSoftmax(&logits)   // [-2.408, -1.408, -0.408]
    public static func logSoftmax(_ x: inout Tensor<Float>) {
        let rowLength = x.shape.last ?? 1
        let rowCount = rowLength == 0 ? 0 : x.count / rowLength
        x.replaceElements { logSoftmaxRows($0.baseAddress!, $1.baseAddress!, rowCount: rowCount, rowLength: rowLength) }
    }

    /// Log-softmax over `rowCount` rows of `rowLength` floats at `rows`, in place.
    public static func logSoftmax(_ rows: UnsafeMutablePointer<Float>, rowCount: Int, rowLength: Int) {
        logSoftmaxRows(rows, rows, rowCount: rowCount, rowLength: rowLength)
    }

    static func logSoftmaxRows(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>,
                               rowCount: Int, rowLength: Int) {
        guard rowLength > 0 else { return }
        forEachRowChunk(rowCount: rowCount, rowLength: rowLength) { range in
            let start = range.lowerBound * rowLength
            nlukit_log_softmax_rows(source + start, destination + start, range.count, rowLength)
        }
    }
}

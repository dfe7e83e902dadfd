import CKernels

/// Gradient clipping as PyTorch's `torch.nn.utils.clip_grad_norm_`.
///
///     let norm = GradientClipping.clipByGlobalNorm(&gradients, maxNorm: 5)
public enum GradientClipping {
    /// Scales all `gradients` together by `maxNorm / (norm + 1e-6)` when their global L2 norm
    /// exceeds `maxNorm`; returns the norm before clipping. A gradient listed in `sparseRows` (by
    /// index) is read and scaled on those rows only: the others are zero.
    @discardableResult
    public static func clipByGlobalNorm(_ gradients: inout [Tensor<Float>], maxNorm: Float,
                                        sparseRows: [Int: SparseGradientRows] = [:]) -> Float {
        var sumOfSquares = 0.0  // Double: millions of squares summed (blocks of 4,096 in float)
        for (index, gradient) in gradients.enumerated() {
            gradient.withUnsafeBufferPointer { values in
                guard let base = values.baseAddress else { return }
                if let sparse = sparseRows[index] {
                    sparse.validate(count: values.count, parameter: index)
                    for row in sparse.rows { sumOfSquares += nlukit_sum_of_squares(base + row * sparse.width, sparse.width) }
                } else {
                    sumOfSquares += nlukit_sum_of_squares(base, values.count)
                }
            }
        }
        let norm = Float(sumOfSquares.squareRoot())
        let coefficient = maxNorm / (norm + 1e-6)
        guard coefficient < 1 else { return norm }
        for index in gradients.indices {
            gradients[index].withUnsafeMutableBufferPointer { values in
                if let sparse = sparseRows[index] {
                    for row in sparse.rows {
                        for i in (row * sparse.width)..<((row + 1) * sparse.width) { values[i] *= coefficient }
                    }
                    return
                }
                Kernels.forEachChunk(count: values.count) { range in
                    for i in range { values[i] *= coefficient }
                }
            }
        }
        return norm
    }
}

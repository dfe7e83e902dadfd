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
        // Each gradient's squares (per marked row for a sparse one) on the pool's threads, then added
        // in the order of the list: the same sum, to the bit, as one thread adding them one by one.
        for index in gradients.indices where !gradients[index].isContiguous { gradients[index] = gradients[index].contiguous() }
        var sums = [[Double]](repeating: [], count: gradients.count)
        sums.withUnsafeMutableBufferPointer { sums in
            let sums = sums   // the buffer itself, not an inout capture: each task writes its own slot
            // Contiguous now, so each pointer is into the gradient's own storage, which nothing changes below.
            let bases = gradients.map { $0.withUnsafeBufferPointer { $0.baseAddress } }
            let counts = gradients.map(\.count)
            for (index, sparse) in sparseRows { sparse.validate(count: counts[index], parameter: index) }
            Kernels.parallelFor(gradients.count) { index in
                guard let base = bases[index] else { return }
                if let sparse = sparseRows[index] {
                    sums[index] = sparse.rows.map { nlukit_sum_of_squares(base + $0 * sparse.width, sparse.width) }
                } else {
                    sums[index] = [nlukit_sum_of_squares(base, counts[index])]
                }
            }
        }
        var sumOfSquares = 0.0  // Double: millions of squares summed (blocks of 4,096 in float)
        for parameter in sums { for sum in parameter { sumOfSquares += sum } }
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

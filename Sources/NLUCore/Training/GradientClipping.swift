import CKernels

/// Gradient clipping as PyTorch's `torch.nn.utils.clip_grad_norm_`.
///
///     let norm = GradientClipping.clipByGlobalNorm(&gradients, maxNorm: 5)
public enum GradientClipping {
    /// Scales all `gradients` together by `maxNorm / (norm + 1e-6)` when their global L2 norm
    /// exceeds `maxNorm`; returns the norm before clipping.
    @discardableResult
    public static func clipByGlobalNorm(_ gradients: inout [Tensor<Float>], maxNorm: Float) -> Float {
        var sumOfSquares = 0.0  // Double: millions of squares summed (blocks of 4,096 in float)
        for gradient in gradients {
            gradient.withUnsafeBufferPointer { values in
                if let base = values.baseAddress { sumOfSquares += nlukit_sum_of_squares(base, values.count) }
            }
        }
        let norm = Float(sumOfSquares.squareRoot())
        let coefficient = maxNorm / (norm + 1e-6)
        guard coefficient < 1 else { return norm }
        for index in gradients.indices {
            gradients[index].withUnsafeMutableBufferPointer { values in
                Kernels.forEachChunk(count: values.count) { range in
                    for i in range { values[i] *= coefficient }
                }
            }
        }
        return norm
    }
}

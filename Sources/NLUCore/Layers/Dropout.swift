import CKernels

/// Inverted dropout for training: zeroes each element with probability `probability` and scales the
/// others by 1 / (1 - probability), so inference needs no rescaling (PyTorch's `nn.Dropout`).
///
///     var generator = SplitMix64(seed: 1)
///     let (dropped, mask) = Dropout.apply(activations, probability: 0.2, generator: &generator)
///     // backward: gradient ∘ mask
public enum Dropout {
    /// The dropped copy of `input` and the mask (0 or the scale) to multiply gradients with.
    public static func apply(_ input: Tensor<Float>, probability: Float, generator: inout SplitMix64)
        -> (output: Tensor<Float>, mask: Tensor<Float>) {
        let mask = self.mask(shape: input.shape, probability: probability, generator: &generator)
        let output = Tensor<Float>(shape: input.shape)
        let source = input.contiguous()
        let maskPointer = mask.kernelPointer, outputPointer = output.kernelPointer, sourcePointer = source.kernelPointer
        for index in 0..<input.count { outputPointer[index] = sourcePointer[index] * maskPointer[index] }
        withExtendedLifetime(source) {}
        return (output, mask)
    }

    /// The mask ``apply(_:probability:generator:)`` draws for an input of `shape`, with the same
    /// draws: for a caller that applies it itself (step by step).
    public static func mask(shape: [Int], probability: Float, generator: inout SplitMix64) -> Tensor<Float> {
        let mask = Tensor<Float>(shape: shape)
        fillMask(UnsafeMutableBufferPointer(start: mask.kernelPointer, count: mask.count), probability: probability,
                 generator: &generator)
        return mask
    }

    /// Writes the draws of ``mask(shape:probability:generator:)`` into a caller's buffer (0 or the
    /// scale per element), for training loops that keep their masks in buffers reused every step.
    ///
    ///     Dropout.fillMask(maskBuffer, probability: 0.1, generator: &generator)
    public static func fillMask(_ mask: UnsafeMutableBufferPointer<Float>, probability: Float, generator: inout SplitMix64) {
        let scale = probability < 1 ? 1 / (1 - probability) : 0
        guard let base = mask.baseAddress, !mask.isEmpty else { return }
        // Element i keeps its value when draw i + 1, as 24 random bits → uniform in [0, 1), is ≥
        // probability; a C kernel draws the pieces of a long mask in parallel (see SplitMix64.increment).
        let state = generator.state
        Kernels.forEachChunk(count: mask.count) { range in
            nlukit_dropout_mask(base + range.lowerBound, range.count,
                                state &+ UInt64(range.lowerBound) &* SplitMix64.increment, probability, scale)
        }
        generator.skip(mask.count)
    }

    /// Multiplies `gradient` by `mask` element-wise in place (the backward pass of ``apply(_:probability:generator:)``).
    public static func backward(_ gradient: inout Tensor<Float>, mask: Tensor<Float>) {
        precondition(gradient.shape == mask.shape, "dropout mask \(mask.shape) does not match gradient \(gradient.shape)")
        mask.withUnsafeBufferPointer { scale in
            gradient.withUnsafeMutableBufferPointer { values in
                for index in values.indices { values[index] *= scale[index] }
            }
        }
    }
}

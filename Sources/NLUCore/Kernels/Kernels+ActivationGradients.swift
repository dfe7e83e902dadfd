import CKernels

extension Kernels {
    /// The feed-forward activations of a training pass and their derivatives, at the CPU's level and
    /// split over the thread pool for large counts; every level gives the same values, so a run does
    /// not depend on the CPU or the thread count. The exact-erf GELU gives the bits of PyTorch's CPU
    /// `F.gelu` and `gelu_backward` (oneDNN's Abramowitz-Stegun erf and exp, see the C header
    /// gelu_pytorch.h): a training run is compared with PyTorch's step by step. The inference
    /// ``gelu(_:count:)`` keeps its own erf (4.2e-7 absolute, fewer operations).
    ///
    ///     Kernels.trainingActivation(.gelu, preActivation, into: activation, count: n)
    ///     Kernels.trainingActivationBackward(.gelu, preActivation, gradient: dActivation, count: n)   // now d(preActivation)
    public enum TrainingActivation: Sendable {
        /// `0.5·x·(1 + erf(x/√2))` (`"gelu"`), PyTorch's values bit for bit.
        case gelu
        /// `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))` (`"gelu_new"`, `"gelu_pytorch_tanh"`).
        case geluTanh
        /// `max(x, 0)`.
        case relu
    }

    /// `output[i] = activation(input[i])`; `output` must not overlap `input`.
    public static func trainingActivation(_ activation: TrainingActivation, _ input: UnsafePointer<Float>,
                                          into output: UnsafeMutablePointer<Float>, count: Int) {
        switch activation {
        case .gelu: map(input, output, count: count) { nlukit_gelu_erf_forward($0, $1, $2) }
        case .geluTanh: map(input, output, count: count) { nlukit_gelu_tanh_forward($0, $1, $2) }
        case .relu: map(input, output, count: count) { nlukit_relu($0, $1, $2) }
        }
    }

    /// `gradient[i] *= activation′(input[i])`: d(output) becomes d(input) in place; `gradient` must
    /// not overlap `input`. ReLU's derivative at 0 is 0, as PyTorch's.
    public static func trainingActivationBackward(_ activation: TrainingActivation, _ input: UnsafePointer<Float>,
                                                  gradient: UnsafeMutablePointer<Float>, count: Int) {
        switch activation {
        case .gelu: map(input, gradient, count: count) { nlukit_gelu_erf_backward($0, $1, $2) }
        case .geluTanh: map(input, gradient, count: count) { nlukit_gelu_tanh_backward($0, $1, $2) }
        case .relu: map(input, gradient, count: count) { nlukit_relu_backward($0, $1, $2) }
        }
    }
}

import CKernels

extension Kernels {
    /// The feed-forward activations of a training pass and their derivatives, at the CPU's level and
    /// split over the thread pool for large counts. They follow `transformers`' formulas in PyTorch's
    /// order of operations with an erf within 1 ulp (the inference ``gelu(_:count:)`` uses a
    /// cheaper erf, 4.2e-7 absolute): a training run is compared with PyTorch's step by step.
    ///
    ///     Kernels.trainingActivation(.gelu, preActivation, into: activation, count: n)
    ///     Kernels.trainingActivationBackward(.gelu, preActivation, gradient: dActivation, count: n)   // now d(preActivation)
    public enum TrainingActivation: Sendable {
        /// `0.5·x·(1 + erf(x/√2))` (`"gelu"`).
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

    /// The training activations' erf on `count` floats at `pointer`, in place: within 1 ulp of the
    /// exact value (0.62 ulp measured over every float in [-4, 4]).
    ///
    ///     var x: [Float] = [0.5]
    ///     x.withUnsafeMutableBufferPointer { Kernels.accurateErf($0.baseAddress!, count: 1) }   // [0.5204999]
    public static func accurateErf(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        map(pointer, pointer, count: count) { nlukit_erf_accurate($0, $1, $2) }
    }
}

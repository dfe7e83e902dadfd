import NLUCore

/// The feed-forward activation of a training pass and its derivative, element by element, on the C
/// kernels of ``Kernels/trainingActivation(_:_:into:count:)`` (vectorized at the CPU's level, split over
/// the thread pool; the values depend on neither). The exact-erf GELU (`gelu`) gives PyTorch's CPU
/// bits, forward and backward, so a training run follows PyTorch's step by step; the tanh form
/// (`gelu_new`) and ReLU are transformers' formulas.
///
///     ActivationGradient.forward(.gelu, preActivation, into: activation, count: n)
///     ActivationGradient.backward(.gelu, preActivation, gradient: dActivation, count: n)   // now d(preActivation)
enum ActivationGradient {
    static func kernel(_ activation: BertConfiguration.Activation) -> Kernels.TrainingActivation {
        switch activation {
        case .gelu: .gelu
        case .geluTanh: .geluTanh
        case .relu: .relu
        }
    }

    /// `output[i] = activation(input[i])`; `output` must not overlap `input`.
    static func forward(_ activation: BertConfiguration.Activation, _ input: UnsafePointer<Float>,
                        into output: UnsafeMutablePointer<Float>, count: Int) {
        Kernels.trainingActivation(kernel(activation), input, into: output, count: count)
    }

    /// `gradient[i] *= activation′(input[i])`: d(output) becomes d(input) in place.
    static func backward(_ activation: BertConfiguration.Activation, _ input: UnsafePointer<Float>,
                         gradient: UnsafeMutablePointer<Float>, count: Int) {
        Kernels.trainingActivationBackward(kernel(activation), input, gradient: gradient, count: count)
    }
}

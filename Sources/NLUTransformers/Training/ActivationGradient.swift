import Foundation

/// The feed-forward activation of a training pass and its derivative, element by element:
/// exact-erf GELU (`gelu`), the tanh approximation (`gelu_new`), or ReLU, as `transformers`
/// computes them.
///
///     ActivationGradient.forward(.gelu, preActivation, into: activation, count: n)
///     ActivationGradient.backward(.gelu, preActivation, gradient: dActivation, count: n)   // now d(preActivation)
enum ActivationGradient {
    /// √(2/π), the tanh approximation's scale.
    static let tanhScale: Float = 0.7978845608028654
    /// 1/√(2π), the normal density's constant.
    static let densityScale: Float = 0.3989422804014327

    /// `output[i] = activation(input[i])`.
    static func forward(_ activation: BertConfiguration.Activation, _ input: UnsafePointer<Float>,
                        into output: UnsafeMutablePointer<Float>, count: Int) {
        switch activation {
        case .gelu:
            for index in 0..<count {
                let x = input[index]
                output[index] = 0.5 * x * (1 + erf(x * Float(0.5).squareRoot()))
            }
        case .geluTanh:
            for index in 0..<count {
                let x = input[index]
                output[index] = 0.5 * x * (1 + tanh(tanhScale * (x + 0.044715 * x * x * x)))
            }
        case .relu:
            for index in 0..<count { output[index] = max(input[index], 0) }
        }
    }

    /// `gradient[i] *= activation′(input[i])`: d(output) becomes d(input) in place.
    static func backward(_ activation: BertConfiguration.Activation, _ input: UnsafePointer<Float>,
                         gradient: UnsafeMutablePointer<Float>, count: Int) {
        switch activation {
        case .gelu:
            // d/dx x·Φ(x) = Φ(x) + x·φ(x).
            for index in 0..<count {
                let x = input[index]
                let cdf = 0.5 * (1 + erf(x * Float(0.5).squareRoot()))
                gradient[index] *= cdf + x * densityScale * exp(-0.5 * x * x)
            }
        case .geluTanh:
            for index in 0..<count {
                let x = input[index]
                let t = tanh(tanhScale * (x + 0.044715 * x * x * x))
                let inner = tanhScale * (1 + 3 * 0.044715 * x * x)
                gradient[index] *= 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * inner
            }
        case .relu:
            for index in 0..<count where input[index] <= 0 { gradient[index] = 0 }
        }
    }
}

/// Layer normalization over the last axis, as PyTorch's `nn.LayerNorm` (biased variance;
/// `epsilon` from the model's configuration, e.g. BERT's `layer_norm_eps` = 1e-12).
///
///     let norm = try LayerNorm(weight: gamma, bias: beta, epsilon: 1e-12)
///     let normalized = norm(hidden)
public struct LayerNorm: Sendable {
    /// The scale (`gamma`), `[size]`.
    public private(set) var weight: Tensor<Float>
    /// The shift (`beta`), `[size]`.
    public private(set) var bias: Tensor<Float>
    public var epsilon: Float

    /// A layer over existing weights.
    /// - Throws: ``LayerWeightsError`` when `weight` is not rank 1 or `bias` has another shape.
    public init(weight: Tensor<Float>, bias: Tensor<Float>, epsilon: Float) throws {
        guard weight.rank == 1 else {
            throw LayerWeightsError.wrongShape("LayerNorm weight", expected: "[size]", actual: weight.shape)
        }
        guard bias.shape == weight.shape else {
            throw LayerWeightsError.wrongShape("LayerNorm bias", expected: "\(weight.shape) (the weight's shape)", actual: bias.shape)
        }
        self.weight = weight
        self.bias = bias
        self.epsilon = epsilon
    }

    /// A fresh layer: weight ones, bias zeros.
    public init(size: Int, epsilon: Float = 1e-5) {
        weight = Tensor(shape: [size], repeating: 1)
        bias = Tensor(shape: [size])
        self.epsilon = epsilon
    }

    /// `x` normalized over its last axis (which must have the layer's size).
    public func callAsFunction(_ x: Tensor<Float>) -> Tensor<Float> {
        var result = x
        Kernels.layerNorm(&result, weight: weight, bias: bias, epsilon: epsilon)
        return result
    }
}

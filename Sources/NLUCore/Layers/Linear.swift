/// A fully connected layer `y = x·weightᵀ + bias`, with PyTorch's `nn.Linear` layout
/// (`weight` `[out, in]`, `bias` `[out]`), so checkpoint tensors load as they are.
///
///     let classifier = try Linear(weight: try weights.floatTensor("classifier.weight"),
///                                 bias: try weights.floatTensor("classifier.bias"))
///     let logits = classifier(pooled)   // [batch, in] -> [batch, out]
public struct Linear: Sendable {
    /// `[outputSize, inputSize]`.
    public private(set) var weight: Tensor<Float>
    /// `[outputSize]`, or nil for a layer without bias.
    public private(set) var bias: Tensor<Float>?

    /// The length of each input row.
    public var inputSize: Int { weight.shape[1] }
    /// The length of each output row.
    public var outputSize: Int { weight.shape[0] }

    /// A layer over existing weights.
    /// - Throws: ``LayerWeightsError`` when `weight` is not rank 2 or `bias` is not `[out]`.
    public init(weight: Tensor<Float>, bias: Tensor<Float>?) throws {
        guard weight.rank == 2 else {
            throw LayerWeightsError.wrongShape("Linear weight", expected: "[out, in]", actual: weight.shape)
        }
        if let bias, bias.shape != [weight.shape[0]] {
            throw LayerWeightsError.wrongShape("Linear bias", expected: "[\(weight.shape[0])] (the weight's output size)", actual: bias.shape)
        }
        self.weight = weight
        self.bias = bias
    }

    /// A freshly initialized layer, as PyTorch initializes `nn.Linear`: weight and bias uniform in
    /// `±1/√inputSize`.
    public init(inputSize: Int, outputSize: Int, hasBias: Bool = true, using generator: inout SplitMix64) {
        let bound = 1 / Float(max(inputSize, 1)).squareRoot()
        weight = Tensor(shape: [outputSize, inputSize],
                        scalars: (0..<(outputSize * inputSize)).map { _ in Float.random(in: -bound...bound, using: &generator) })
        bias = hasBias ? Tensor((0..<outputSize).map { _ in Float.random(in: -bound...bound, using: &generator) }) : nil
    }

    /// `x·weightᵀ + bias` for `x` of shape `[..., inputSize]`; returns `[..., outputSize]`.
    public func callAsFunction(_ x: Tensor<Float>) -> Tensor<Float> {
        Kernels.linear(x, weight: weight, bias: bias)
    }
}

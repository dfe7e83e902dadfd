/// A classification head over pooled sentence vectors, trained with its encoder: one ``Linear`` layer to
/// class logits, softmax cross-entropy as the loss (PyTorch's `nn.Linear` then `F.cross_entropy`, as
/// transformers' sequence-classification heads and the intent head use them). The gradients reach the
/// layer's weight and bias and the pooled vectors, which the pooler's backward then hands to the encoder.
///
///     var generator = SplitMix64(seed: 1)
///     let head = SoftmaxClassifierHead(linear: Linear(inputSize: 384, outputSize: intents.count, using: &generator))
///     let (loss, gradients) = head.lossAndGradients(pooled: sentences, targets: labels)
///     // gradients.weight, gradients.bias: for the optimizer; gradients.input: d(loss)/d(sentences)
public struct SoftmaxClassifierHead: Sendable {
    /// The layer from pooled vector to class logits (`[classes, hidden]` weight).
    public var linear: Linear

    /// A head over an existing layer.
    public init(linear: Linear) {
        self.linear = linear
    }

    /// The class logits `[batch, classes]` of pooled vectors `[batch, hidden]`.
    public func logits(_ pooled: Tensor<Float>) -> Tensor<Float> {
        linear(pooled)
    }

    /// The mean cross-entropy of `pooled`'s logits against `targets` (one class index per row, optionally
    /// with `classWeights` as `CrossEntropyLoss(weight:)` and `labelSmoothing` as its `label_smoothing`),
    /// and the gradients of the layer and of `pooled`.
    public func lossAndGradients(pooled: Tensor<Float>, targets: [Int32], classWeights: [Float]? = nil, labelSmoothing: Float = 0)
        -> (loss: Float, gradients: Linear.Gradients) {
        let (loss, dLogits) = SoftmaxCrossEntropy.lossAndGradient(logits: logits(pooled), targets: targets, classWeights: classWeights,
                                                                  labelSmoothing: labelSmoothing)
        return (loss, linear.backward(input: pooled, outputGradient: dLogits))
    }
}

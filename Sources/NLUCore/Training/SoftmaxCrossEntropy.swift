/// Softmax followed by cross-entropy, as PyTorch's `F.cross_entropy` with mean reduction, fused
/// with its gradient.
///
///     let (loss, dLogits) = SoftmaxCrossEntropy.lossAndGradient(logits: logits, targets: [2, 0])
public enum SoftmaxCrossEntropy {
    /// The mean loss over rows of `logits` (`[..., classes]`, one row per target) and
    /// d(loss)/d(logits). With `classWeights` (one per class) each row counts with the weight of
    /// its target and the mean divides by the sum of those weights, as `CrossEntropyLoss(weight:)`.
    public static func lossAndGradient(logits: Tensor<Float>, targets: [Int32],
                                       classWeights: [Float]? = nil) -> (loss: Float, gradient: Tensor<Float>) {
        let classes = logits.shape.last ?? 1
        let rows = classes == 0 ? 0 : logits.count / classes
        precondition(targets.count == rows, "cross-entropy: \(rows) rows of logits but \(targets.count) targets")
        precondition(classWeights.map { $0.count == classes } ?? true, "cross-entropy: \(classes) classes but \(classWeights?.count ?? 0) weights")
        precondition(targets.allSatisfy { $0 >= 0 && Int($0) < classes }, "cross-entropy: a target is outside 0..<\(classes)")
        guard rows > 0 else { return (0, Tensor(shape: logits.shape)) }

        // Log-probabilities give an exact loss even where a probability underflows.
        var gradient = logits.contiguous().reshaped(logits.shape)
        Kernels.logSoftmax(&gradient)
        let rowWeights = targets.map { classWeights?[Int($0)] ?? 1 }
        let totalWeight = rowWeights.reduce(0.0) { $0 + Double($1) }
        var loss = 0.0
        gradient.withUnsafeMutableBufferPointer { values in
            for row in 0..<rows {
                loss -= Double(rowWeights[row]) * Double(values[row * classes + Int(targets[row])])
            }
            Kernels.exp(values.baseAddress!, count: values.count)
            for row in 0..<rows {
                let scale = Float(Double(rowWeights[row]) / totalWeight)
                let line = values.baseAddress! + row * classes
                for column in 0..<classes { line[column] *= scale }
                line[Int(targets[row])] -= scale
            }
        }
        return (Float(loss / totalWeight), gradient)
    }
}

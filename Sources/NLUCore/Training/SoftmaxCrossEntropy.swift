/// Softmax followed by cross-entropy, as PyTorch's `F.cross_entropy` with mean reduction, fused
/// with its gradient.
///
///     let (loss, dLogits) = SoftmaxCrossEntropy.lossAndGradient(logits: logits, targets: [2, 0])
public enum SoftmaxCrossEntropy {
    /// The mean loss over rows of `logits` (`[..., classes]`, one row per target) and
    /// d(loss)/d(logits). With `classWeights` (one per class) each row counts with the weight of
    /// its target and the mean divides by the sum of those weights, as `CrossEntropyLoss(weight:)`.
    /// With `labelSmoothing` ε (0 ..< 1) the target is `(1 − ε)` on the row's class plus `ε / classes`
    /// on every class, as `CrossEntropyLoss(label_smoothing:)` (and Trainer's `label_smoothing_factor`):
    /// a row adds `(1 − ε)·w[target]·(−log p[target]) + ε/classes · Σ w[c]·(−log p[c])`, over the same sum
    /// of the targets' weights.
    public static func lossAndGradient(logits: Tensor<Float>, targets: [Int32], classWeights: [Float]? = nil,
                                       labelSmoothing: Float = 0) -> (loss: Float, gradient: Tensor<Float>) {
        let classes = logits.shape.last ?? 1
        let rows = classes == 0 ? 0 : logits.count / classes
        precondition(targets.count == rows, "cross-entropy: \(rows) rows of logits but \(targets.count) targets")
        precondition(classWeights.map { $0.count == classes } ?? true, "cross-entropy: \(classes) classes but \(classWeights?.count ?? 0) weights")
        precondition(targets.allSatisfy { $0 >= 0 && Int($0) < classes }, "cross-entropy: a target is outside 0..<\(classes)")
        precondition(labelSmoothing >= 0 && labelSmoothing < 1, "cross-entropy: label smoothing \(labelSmoothing) outside 0 ..< 1")
        guard rows > 0 else { return (0, Tensor(shape: logits.shape)) }

        // Log-probabilities give an exact loss even where a probability underflows.
        var gradient = logits.contiguous().reshaped(logits.shape)
        Kernels.logSoftmax(&gradient)
        let rowWeights = targets.map { classWeights?[Int($0)] ?? 1 }
        let totalWeight = rowWeights.reduce(0.0) { $0 + Double($1) }
        // The smoothed share: ε/classes of every class's weighted log-probability, the rest on the target.
        let spread = Double(labelSmoothing) / Double(classes), kept = 1 - Double(labelSmoothing)
        let sumOfWeights = classWeights.map { $0.reduce(0.0) { $0 + Double($1) } } ?? Double(classes)
        var loss = 0.0
        gradient.withUnsafeMutableBufferPointer { values in
            for row in 0..<rows {
                let line = values.baseAddress! + row * classes
                loss -= kept * Double(rowWeights[row]) * Double(line[Int(targets[row])])
                guard spread > 0 else { continue }
                var smoothed = 0.0
                for column in 0..<classes { smoothed += Double(classWeights?[column] ?? 1) * Double(line[column]) }
                loss -= spread * smoothed
            }
            Kernels.exp(values.baseAddress!, count: values.count)
            // d/dz[j] of a row: (1 − ε)·w[t]·(p[j] − [j = t]) + ε/classes·(p[j]·Σw − w[j]).
            for row in 0..<rows {
                let line = values.baseAddress! + row * classes
                let scale = Float((kept * Double(rowWeights[row]) + spread * sumOfWeights) / totalWeight)
                for column in 0..<classes { line[column] *= scale }
                line[Int(targets[row])] -= Float(kept * Double(rowWeights[row]) / totalWeight)
                guard spread > 0 else { continue }
                for column in 0..<classes { line[column] -= Float(spread * Double(classWeights?[column] ?? 1) / totalWeight) }
            }
        }
        return (Float(loss / totalWeight), gradient)
    }
}

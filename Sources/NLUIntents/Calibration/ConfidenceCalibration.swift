import Foundation

/// The arithmetic of calibrating an intent model's confidences on held-out utterances (Guo et al., 2017,
/// "On Calibration of Modern Neural Networks"): a **temperature** T that divides the logits before the
/// softmax, fitted by minimising the held-out negative log-likelihood, so that a confidence of 0.8 is
/// right about 80 % of the time; then a **threshold** on the calibrated confidence, chosen on the same
/// utterances, under which the model answers "no intent".
///
///     let t = ConfidenceCalibration.temperature(logits: [[2, 0.5], [3, -1]], labels: [0, 1])
public enum ConfidenceCalibration {
    /// The temperatures a fit may return: beyond them the held-out set is degenerate (every answer
    /// right with a margin drives T to 0, every answer wrong drives it up without bound).
    public static let temperatureRange: ClosedRange<Float> = 0.01...100

    /// The temperature minimising the mean cross-entropy of `softmax(logits[i] / T)` against
    /// `labels[i]`, within ``temperatureRange``; 1 for no logits.
    ///
    /// The loss is convex in β = 1/T (its second derivative is the mean variance of the logits under
    /// the softmax), so Newton's method on β, kept inside a bracket that shrinks by bisection, finds
    /// the unique minimum PyTorch's LBFGS finds on T (`scripts/fixtures/intent_calibration.py`).
    /// - Precondition: every row holds every class's logit and each label indexes its row.
    public static func temperature(logits: [[Float]], labels: [Int]) -> Float {
        precondition(logits.count == labels.count, "one label per row of logits")
        guard !logits.isEmpty else { return 1 }
        let rows = zip(logits, labels).map { row, label -> ([Double], Double) in
            precondition(row.indices.contains(label), "label \(label) outside \(row.count) classes")
            return (row.map(Double.init), Double(row[label]))
        }
        /// d(loss)/dβ and d²(loss)/dβ²: the mean of E[z] − z_label and of Var[z] under softmax(βz).
        func derivatives(_ beta: Double) -> (first: Double, second: Double) {
            var first = 0.0, second = 0.0
            for (z, target) in rows {
                let largest = z.max() ?? 0
                var sum = 0.0, mean = 0.0, square = 0.0
                for value in z {
                    let weight = exp(beta * (value - largest))
                    sum += weight
                    mean += weight * value
                    square += weight * value * value
                }
                mean /= sum
                first += mean - target
                second += max(0, square / sum - mean * mean)
            }
            return (first / Double(rows.count), second / Double(rows.count))
        }
        var low = 1 / Double(temperatureRange.upperBound), high = 1 / Double(temperatureRange.lowerBound)
        if derivatives(low).first >= 0 { return temperatureRange.upperBound }
        if derivatives(high).first <= 0 { return temperatureRange.lowerBound }
        var beta = 1.0
        for _ in 0..<200 {
            let (first, second) = derivatives(beta)
            if abs(first) < 1e-13 { break }
            if first > 0 { high = beta } else { low = beta }
            let newton = second > 0 ? beta - first / second : .nan
            // A Newton step that leaves the bracket (or a flat curvature) falls back to its midpoint.
            beta = newton.isFinite && newton > low && newton < high ? newton : (low + high) / 2
            if high - low < 1e-15 * beta { break }
        }
        return min(max(Float(1 / beta), temperatureRange.lowerBound), temperatureRange.upperBound)
    }

    /// One held-out utterance as the model answered it: its expected class (nil: out of scope), the
    /// best intent and whether the "none" class beat it (then the answer is no intent at any threshold),
    /// and the best intent's calibrated confidence.
    public struct Answer: Sendable, Equatable {
        public var expected: String?
        public var bestIntent: String
        public var noneWins: Bool
        public var confidence: Float

        public init(expected: String?, bestIntent: String, noneWins: Bool, confidence: Float) {
            self.expected = expected
            self.bestIntent = bestIntent
            self.noneWins = noneWins
            self.confidence = confidence
        }
    }

    /// The confidence threshold (0 ... 1) that answers the most held-out utterances right: an
    /// in-scope one right when its best intent is expected, clears the threshold and the "none" class
    /// does not win; an out-of-scope one right when it gets no intent. Ties go to the lowest threshold,
    /// so a held-out set without out-of-scope utterances gives 0 (a threshold only ever turns answers
    /// into "no intent").
    public static func threshold(_ answers: [Answer]) -> Float {
        // Thresholds worth trying: 0, and each confidence (an answer at exactly the threshold is kept).
        let candidates = Set(answers.map(\.confidence) + [0]).sorted()
        var best: (threshold: Float, right: Int) = (0, -1)
        for candidate in candidates where candidate <= 1 {
            var right = 0
            for answer in answers {
                let predicted = answer.noneWins || answer.confidence < candidate ? nil : answer.bestIntent
                if predicted == answer.expected { right += 1 }
            }
            if right > best.right { best = (candidate, right) }
        }
        return best.threshold
    }
}

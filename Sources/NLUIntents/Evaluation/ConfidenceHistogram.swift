/// How many right and how many wrong predictions fall into each confidence range: equal-width bins
/// over 0...1, the last one closed (a confidence of exactly 1 counts in it). A good classifier has its
/// wrong answers at low confidence and its right ones near 1; wrong answers at high confidence are
/// the ones a threshold cannot catch.
///
///     let histogram = ConfidenceHistogram(evaluation.utterances, bins: 10)
///     histogram.wrong[9]   // wrong predictions with confidence 0.9 or more
public struct ConfidenceHistogram: Sendable, Equatable {
    /// Right predictions per bin, lowest confidence first.
    public var correct: [Int]
    /// Wrong predictions per bin, lowest confidence first.
    public var wrong: [Int]

    /// The number of bins.
    public var binCount: Int { correct.count }

    /// The confidence range of bin `index`, `lower..<upper` (the last bin includes 1).
    public func bounds(of index: Int) -> (lower: Double, upper: Double) {
        (Double(index) / Double(binCount), Double(index + 1) / Double(binCount))
    }

    /// Counts `utterances` into `bins` bins (at least 1). A confidence outside 0...1 counts in the
    /// nearest end bin; a NaN one in the first.
    public init(_ utterances: [EvaluatedUtterance], bins: Int = 10) {
        let count = max(1, bins)
        var correct = [Int](repeating: 0, count: count), wrong = [Int](repeating: 0, count: count)
        for utterance in utterances {
            let scaled = Double(utterance.confidence) * Double(count)
            // Clamped before the conversion: Int(NaN) and Int(±infinity) trap.
            let index = scaled.isNaN ? 0 : Int(min(max(scaled, 0), Double(count - 1)))
            if utterance.isCorrect { correct[index] += 1 } else { wrong[index] += 1 }
        }
        self.correct = correct
        self.wrong = wrong
    }
}

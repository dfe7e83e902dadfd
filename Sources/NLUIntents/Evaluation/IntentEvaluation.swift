import Foundation

/// How well predicted intents match expected ones: accuracy, macro-F1, per-intent precision /
/// recall / F1 / support, the confusion matrix, the most confused pairs, and, when some expected
/// answers are "no intent" (`nil`, out of scope), out-of-scope recall and in-scope accuracy.
///
///     let report = IntentEvaluation(expected: ["a", "b", nil], predicted: ["a", "a", nil])
///     report.accuracy     // 2/3
///     print(report.table())
public struct IntentEvaluation: Sendable, Encodable {
    /// Precision, recall, F1 and support of one intent.
    public struct Scores: Sendable, Equatable, Encodable {
        /// Correct predictions of the intent / all predictions of it (0 when never predicted).
        public var precision: Double
        /// Correct predictions of the intent / its expected occurrences (0 when it never occurs).
        public var recall: Double
        /// Harmonic mean of precision and recall (0 when both are 0).
        public var f1: Double
        /// How often the intent was expected.
        public var support: Int
    }

    /// An (expected, predicted) pair of different labels and how often it happened.
    public typealias ConfusedPair = ConfusionMatrix.Pair

    /// The label standing for "no intent" in the confusion matrix and the pairs.
    public static let noIntentLabel = "(none)"

    /// Number of utterances evaluated.
    public var count: Int
    /// Fraction of utterances whose prediction equals the expected answer ("no intent" included).
    public var accuracy: Double
    /// Mean F1 over the intents expected or predicted (as scikit-learn's `f1_score(average="macro")`).
    public var macroF1: Double
    /// Scores per intent.
    public var perIntent: [String: Scores]
    /// Labels of the confusion matrix, intents sorted, then ``noIntentLabel`` when it occurs.
    public var labels: [String]
    /// `confusion[expected][predicted]` = count.
    public var confusion: [String: [String: Int]]
    /// The most frequent confusions, most frequent first (at most 10).
    public var mostConfused: [ConfusedPair]
    /// Fraction of out-of-scope utterances answered with no intent (when the test set has some).
    public var outOfScopeRecall: Double?
    /// Accuracy on the in-scope utterances only (when the test set has out-of-scope ones).
    public var inScopeAccuracy: Double?
    /// How well the confidence tells out-of-scope utterances from in-scope ones, whatever the
    /// threshold: the area under the ROC curve of 1 − confidence for "out of scope" (``ROCArea``; 0.5
    /// is chance, 1 a threshold that separates them all). Set when the test set has both kinds and
    /// the report was made from the utterances with their confidences.
    public var outOfScopeAUROC: Double?
    /// The confidence threshold the predictions were made with, when known.
    public var threshold: Float?
    /// Entity scores, when the model extracts entities.
    public var entities: EntityEvaluation?
    /// Fraction of utterances with the right intent and exactly the annotated entities (when the model
    /// extracts entities).
    public var sentenceAccuracy: Double?
    /// Every utterance with its expected and predicted intent and the confidence, in evaluation order
    /// (empty when the report was made from labels alone). Not part of the JSON form: it holds the
    /// whole test set; the report page shows its worst errors and a confidence histogram.
    public var utterances: [EvaluatedUtterance] = []

    // Every stored property but `utterances`.
    private enum CodingKeys: String, CodingKey {
        case count, accuracy, macroF1, perIntent, labels, confusion, mostConfused, outOfScopeRecall, inScopeAccuracy, outOfScopeAUROC
        case threshold, entities, sentenceAccuracy
    }

    /// Scores `utterances` (their expected and predicted intents) and keeps them for
    /// ``worstErrors(limit:)`` and ``ConfidenceHistogram``.
    public init(utterances: [EvaluatedUtterance], threshold: Float? = nil) {
        self.init(expected: utterances.map(\.expected), predicted: utterances.map(\.predicted), threshold: threshold)
        self.utterances = utterances
        outOfScopeAUROC = ROCArea.value(labels: utterances.map { $0.expected == nil }, scores: utterances.map { 1 - Double($0.confidence) })
    }

    /// Compares `predicted` with `expected` pairwise (`nil` = no intent); answers beyond the shorter
    /// list are ignored.
    public init(expected allExpected: [String?], predicted allPredicted: [String?], threshold: Float? = nil) {
        let count = min(allExpected.count, allPredicted.count)
        let expected = Array(allExpected.prefix(count)), predicted = Array(allPredicted.prefix(count))
        self.count = count
        self.threshold = threshold
        let correct = zip(expected, predicted).filter { $0 == $1 }.count
        accuracy = count == 0 ? 0 : Double(correct) / Double(count)

        let intents = Set(expected.compactMap { $0 } + predicted.compactMap { $0 }).sorted()
        var scores: [String: Scores] = [:]
        for intent in intents {
            let truePositives = zip(expected, predicted).filter { $0 == intent && $1 == intent }.count
            let predictedCount = predicted.filter { $0 == intent }.count
            let support = expected.filter { $0 == intent }.count
            let precision = predictedCount == 0 ? 0 : Double(truePositives) / Double(predictedCount)
            let recall = support == 0 ? 0 : Double(truePositives) / Double(support)
            let f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
            scores[intent] = Scores(precision: precision, recall: recall, f1: f1, support: support)
        }
        perIntent = scores
        macroF1 = intents.isEmpty ? 0 : intents.reduce(0) { $0 + (scores[$1]?.f1 ?? 0) } / Double(intents.count)

        let noIntent = Self.noIntentLabel
        let hasNoIntent = expected.contains { $0 == nil } || predicted.contains { $0 == nil }
        let matrix = ConfusionMatrix(expected: expected.map { $0 ?? noIntent }, predicted: predicted.map { $0 ?? noIntent },
                                     labels: intents + (hasNoIntent ? [noIntent] : []))
        labels = matrix.labels
        confusion = matrix.counts
        mostConfused = Array(matrix.confusedPairs.prefix(10))

        let outOfScope = zip(expected, predicted).filter { $0.0 == nil }
        if !outOfScope.isEmpty {
            outOfScopeRecall = Double(outOfScope.filter { $0.1 == nil }.count) / Double(outOfScope.count)
            let inScope = zip(expected, predicted).filter { $0.0 != nil }
            inScopeAccuracy = inScope.isEmpty ? nil : Double(inScope.filter { $0.0 == $0.1 }.count) / Double(inScope.count)
        }
    }

    /// The wrong predictions, most confident first (ties in evaluation order), at most `limit`: the
    /// errors a confidence threshold cannot catch come first.
    public func worstErrors(limit: Int) -> [EvaluatedUtterance] {
        let wrong = utterances.enumerated().filter { !$0.element.isCorrect }
        let sorted = wrong.sorted { left, right in
            let a = left.element.confidence.isNaN ? -1 : left.element.confidence
            let b = right.element.confidence.isNaN ? -1 : right.element.confidence
            return a != b ? a > b : left.offset < right.offset
        }
        return sorted.prefix(max(0, limit)).map(\.element)
    }

    /// The intents' confusion matrix, for ``ConfusionMatrix/labelsByConfusion`` and the report page.
    public var confusionMatrix: ConfusionMatrix {
        var matrix = ConfusionMatrix(expected: [], predicted: [], labels: labels)
        matrix.counts = confusion
        return matrix
    }

    /// The labels in the order of the largest confusions (``ConfusionMatrix/labelsByConfusion``).
    public var labelsByConfusion: [String] { confusionMatrix.labelsByConfusion }

    /// A readable report: summary, per-intent scores, confusion matrix, most confused pairs.
    public func table() -> String {
        func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
        var lines: [String] = []
        lines.append("utterances: \(count)   accuracy: \(percent(accuracy))   macro-F1: \(String(format: "%.4f", macroF1))")
        if let outOfScopeRecall {
            lines.append("out-of-scope recall: \(percent(outOfScopeRecall))   in-scope accuracy: \(inScopeAccuracy.map(percent) ?? "-")"
                         + (outOfScopeAUROC.map { String(format: "   AUROC: %.4f", $0) } ?? "")
                         + (threshold.map { String(format: "   (threshold %.2f)", $0) } ?? ""))
        }
        lines.append("")
        let nameWidth = max(6, perIntent.keys.map(\.count).max() ?? 0)
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + padding : padding + text
        }
        lines.append(pad("intent", nameWidth, left: true) + "  precision  recall      f1  support")
        for intent in perIntent.keys.sorted() {
            guard let s = perIntent[intent] else { continue }
            lines.append(pad(intent, nameWidth, left: true) + "  " + pad(String(format: "%.3f", s.precision), 9)
                         + "  " + pad(String(format: "%.3f", s.recall), 6) + "  " + pad(String(format: "%.3f", s.f1), 6)
                         + "  " + pad("\(s.support)", 7))
        }
        lines.append("")
        lines.append("confusion matrix (rows: expected, columns: predicted)")
        let columnWidth = max(4, (confusion.values.flatMap(\.values).max() ?? 0).description.count + 1)
        let keys = labels.enumerated().map { "\($0.offset + 1)" }
        lines.append(pad("", nameWidth + 5) + keys.map { pad($0, columnWidth) }.joined())
        for (index, row) in labels.enumerated() {
            let counts = labels.map { pad("\(confusion[row]?[$0] ?? 0)", columnWidth) }.joined()
            lines.append(pad("\(index + 1)", 3) + "  " + pad(row, nameWidth, left: true) + counts)
        }
        if !mostConfused.isEmpty {
            lines.append("")
            lines.append("most confused (expected → predicted)")
            for pair in mostConfused.prefix(5) { lines.append("  \(pair.count) × \(pair.expected) → \(pair.predicted)") }
        }
        if let entities {
            lines.append("")
            lines.append(entities.table())
            if let sentenceAccuracy { lines.append("sentence accuracy (intent and all entities right): \(percent(sentenceAccuracy))") }
        }
        return lines.joined(separator: "\n")
    }
}

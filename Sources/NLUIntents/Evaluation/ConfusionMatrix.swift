/// How often each expected label was answered with each predicted label: the counts behind the intent
/// evaluation's confusion matrix and the per-word entity confusion of the report page.
///
///     let matrix = ConfusionMatrix(expected: ["a", "b", "b"], predicted: ["a", "a", "b"])
///     matrix.counts["b"]?["a"]           // 1
///     matrix.labelsByConfusion           // ["b", "a"]
public struct ConfusionMatrix: Sendable, Equatable {
    /// An (expected, predicted) pair of different labels and how often it happened.
    public struct Pair: Sendable, Equatable, Encodable {
        public var expected: String
        public var predicted: String
        public var count: Int
    }

    /// Every label, in the order given (or sorted, when built from labels alone).
    public var labels: [String]
    /// `counts[expected][predicted]`, with a 0 for every pair of ``labels`` that did not happen.
    public var counts: [String: [String: Int]]

    /// Counts `predicted` against `expected` pairwise (pairs beyond the shorter list are ignored); the
    /// labels are `labels` when given (a label outside them still gets its row and column, after them),
    /// else every label that occurs, sorted.
    public init(expected: [String], predicted: [String], labels given: [String]? = nil) {
        let occurring = Set(expected + predicted)
        let labels = given.map { $0 + occurring.subtracting($0).sorted() } ?? occurring.sorted()
        var counts: [String: [String: Int]] = [:]
        for row in labels { counts[row] = Dictionary(uniqueKeysWithValues: labels.map { ($0, 0) }) }
        for (truth, guess) in zip(expected, predicted) { counts[truth, default: [:]][guess, default: 0] += 1 }
        self.labels = labels
        self.counts = counts
    }

    /// Every (expected, predicted) pair of different labels that happened, most frequent first (ties by name).
    public var confusedPairs: [Pair] {
        var pairs: [Pair] = []
        for row in labels {
            for column in labels where column != row {
                if let value = counts[row]?[column], value > 0 { pairs.append(Pair(expected: row, predicted: column, count: value)) }
            }
        }
        pairs.sort { $0.count != $1.count ? $0.count > $1.count : ($0.expected, $0.predicted) < ($1.expected, $1.predicted) }
        return pairs
    }

    /// ``labels`` in the order of the confusions they take part in, largest first: for each confused pair
    /// (``confusedPairs``), its expected then its predicted label where not listed yet; then the labels
    /// never confused, in ``labels`` order. A matrix drawn in this order has its largest errors in the
    /// top-left corner, the two labels of each of them side by side.
    public var labelsByConfusion: [String] {
        var order: [String] = [], listed = Set<String>()
        for label in confusedPairs.flatMap({ [$0.expected, $0.predicted] }) + labels where listed.insert(label).inserted {
            order.append(label)
        }
        return order
    }
}

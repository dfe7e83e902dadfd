import Foundation

/// The head's `C` chosen by stratified k-fold cross-validation, as scikit-learn's
/// `LogisticRegressionCV(Cs: grid, cv: StratifiedKFold(folds))` chooses it: every `C` of the grid is
/// fitted on each fold's training part (warm-started from the previous `C`) and scored by accuracy on
/// the fold's held-out part; the `C` of the best mean accuracy wins, and the head is then fitted on every
/// example with it. On a tie of accuracies the `C` of the lower mean held-out log-loss wins, where
/// scikit-learn takes the first (the smallest): when every `C` classifies the held-out folds alike, as
/// with the well-separated vectors of a contrastively fine-tuned encoder, the smallest gave a head whose
/// probabilities were nearly uniform ("turn the radio on" → turn_on 26 % on the car-dashboard sample).
///
/// Why not setfit's fixed `C = 1`: with many intents and few unit-length vectors each, that penalty
/// holds the weights far from what the data supports. On HWU64 at 10 per intent (64 intents, frozen
/// all-MiniLM-L6-v2 vectors) `C = 1` answers 81.5 % of the test split and `C = 10` 83.7 %; frozen
/// all-mpnet-base-v2, 82.3 % and 84.9 % (docs/intents.md).
///
///     let choice = LogisticRegressionHead.crossValidatedRegularization(features: x, labels: y, classes: 3)
///     choice.regularization   // the C to fit with; choice.accuracies: the mean held-out accuracy per C
extension LogisticRegressionHead {
    /// The `C`s tried: a decade in half steps from 0.1 to 1000.
    static let regularizationGrid: [Double] = [0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000]
    /// scikit-learn's default number of folds.
    static let crossValidationFolds = 5

    /// What cross-validation chose.
    struct RegularizationChoice: Equatable {
        /// The `C` of the best mean held-out accuracy (of those, the lowest mean held-out log-loss).
        var regularization: Double
        /// The mean held-out accuracy of each `C` of the grid, in the grid's order.
        var accuracies: [Double]
        /// The mean held-out log-loss (cross-entropy per example) of each `C` of the grid.
        var logLosses: [Double]
        /// The folds the examples were split into.
        var folds: Int
    }

    /// The test fold of each example, as scikit-learn's `StratifiedKFold(folds, shuffle=False)` assigns
    /// them: the classes numbered by first appearance, each class's share of every fold dealt round-robin
    /// over the labels sorted by that number, and each class's examples given their folds in order,
    /// in blocks (the first fold's share first).
    static func stratifiedFolds(labels: [Int], folds: Int) -> [Int] {
        var number: [Int: Int] = [:]
        for label in labels where number[label] == nil { number[label] = number.count }
        let encoded = labels.map { number[$0]! }
        let sorted = encoded.sorted()
        // allocation[fold][class]: the class's examples in the fold's test part.
        var allocation = [[Int]](repeating: [Int](repeating: 0, count: number.count), count: folds)
        for (position, label) in sorted.enumerated() { allocation[position % folds][label] += 1 }
        var next = [[Int]](repeating: [], count: number.count)
        for label in 0..<number.count {
            for fold in 0..<folds { next[label] += [Int](repeating: fold, count: allocation[fold][label]) }
        }
        var taken = [Int](repeating: 0, count: number.count)
        return encoded.map { label in
            defer { taken[label] += 1 }
            return next[label][taken[label]]
        }
    }

    /// Chooses `C` from `grid` by cross-validation (see the type's note); `progress(fit, fits)` after
    /// every fit. The folds are ``crossValidationFolds``, or fewer when no class has that many examples
    /// (as many as the largest class has); nil when no class has two examples (nothing to hold out).
    /// - Precondition: as ``fit(features:labels:classes:inverseRegularization:start:progress:)``'s; `grid` not empty.
    static func crossValidatedRegularization(features: [[Float]], labels: [Int], classes: Int,
                                             grid: [Double] = regularizationGrid,
                                             progress: (Int, Int) -> Void = { _, _ in }) -> RegularizationChoice? {
        crossValidatedRegularization(features: features.map(SparseVector.init(dense:)), width: features.first?.count ?? 0,
                                     labels: labels, classes: classes, grid: grid, progress: progress)
    }

    /// ``crossValidatedRegularization(features:labels:classes:grid:progress:)`` on sparse rows of `width` features.
    static func crossValidatedRegularization(features: [SparseVector], width: Int, labels: [Int], classes: Int,
                                             grid: [Double] = regularizationGrid,
                                             progress: (Int, Int) -> Void = { _, _ in }) -> RegularizationChoice? {
        precondition(!grid.isEmpty, "a grid of C values")
        var counts: [Int: Int] = [:]
        for label in labels { counts[label, default: 0] += 1 }
        let folds = min(crossValidationFolds, counts.values.max() ?? 0)
        guard folds >= 2 else { return nil }
        let testFold = stratifiedFolds(labels: labels, folds: folds)
        var scores = [Double](repeating: 0, count: grid.count), losses = [Double](repeating: 0, count: grid.count)
        var fitted = 0
        for fold in 0..<folds {
            let train = labels.indices.filter { testFold[$0] != fold }, test = labels.indices.filter { testFold[$0] == fold }
            guard !train.isEmpty, !test.isEmpty else { continue }
            // The fold's training part, taken once for every C.
            let trainFeatures = train.map { features[$0] }, trainLabels = train.map { labels[$0] }
            var previous: LogisticRegressionHead?
            for (index, c) in grid.enumerated() {
                let head = fit(features: trainFeatures, width: width, labels: trainLabels, classes: classes,
                               inverseRegularization: c, start: previous)
                previous = head
                let (correct, loss) = head.score(test.map { features[$0] }, labels: test.map { labels[$0] })
                scores[index] += Double(correct) / Double(test.count)
                losses[index] += loss / Double(test.count)
                fitted += 1
                progress(fitted, folds * grid.count)
            }
        }
        let accuracies = scores.map { $0 / Double(folds) }, logLosses = losses.map { $0 / Double(folds) }
        var best = 0
        for index in accuracies.indices
        where accuracies[index] > accuracies[best] || (accuracies[index] == accuracies[best] && logLosses[index] < logLosses[best]) {
            best = index
        }
        return RegularizationChoice(regularization: grid[best], accuracies: accuracies, logLosses: logLosses, folds: folds)
    }

    /// How many of the sparse rows `features` the head gives their label, and the sum of their cross-entropies;
    /// a row whose label is nil (a class the head lacks) counts in neither.
    func score(_ features: [SparseVector], labels: [Int?]) -> (right: Int, loss: Double) {
        var right = 0, loss = 0.0
        for (row, label) in zip(features, labels) {
            guard let label else { continue }
            let logits = self.logits(row)
            if Self.firstLargest(logits) == label { right += 1 }
            loss += Self.crossEntropy(logits: logits, label: label)
        }
        return (right, loss)
    }

    /// −log p(label) under the softmax of `logits`.
    static func crossEntropy(logits: [Double], label: Int) -> Double {
        let largest = logits.max() ?? 0
        let normalizer = largest + log(logits.reduce(0) { $0 + exp($1 - largest) })
        return normalizer - logits[label]
    }

    /// The class of `features`: the largest logit, the first on a tie (scikit-learn's `predict`; its
    /// binary model answers class 1 only for a logit above 0).
    func predict(_ features: [Float]) -> Int { predict(SparseVector(dense: features)) }

    /// The class of the sparse row `features`, as ``predict(_:)-([Float])`` answers.
    func predict(_ features: SparseVector) -> Int {
        Self.firstLargest(logits(features))
    }

    /// The index of the largest of `logits`, the first on a tie.
    static func firstLargest(_ logits: [Double]) -> Int {
        var best = 0
        for c in logits.indices where logits[c] > logits[best] { best = c }
        return best
    }

    /// The logit of every class for the sparse row `features`, in the classes' order (a binary head's
    /// class-0 row is zeros: its logit is 0).
    func logits(_ features: SparseVector) -> [Double] {
        let rows = weight.shape[0], d = weight.shape[1]
        let biases = bias.scalars
        var logits = [Double](repeating: 0, count: rows)
        weight.scalars.withUnsafeBufferPointer { w in
            for c in 0..<rows {
                var logit = biases[c]
                for (j, value) in zip(features.indices, features.values) { logit += w[c * d + Int(j)] * value }
                logits[c] = Double(logit)
            }
        }
        return logits
    }
}

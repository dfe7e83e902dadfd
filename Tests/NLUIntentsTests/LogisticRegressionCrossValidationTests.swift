import Foundation
import NLUCore
import Testing
@testable import NLUIntents

/// The few-shot head's C chosen by cross-validation against scikit-learn's `LogisticRegressionCV` on the
/// same features: scripts/fixtures/logistic_regression_cv.py.
@Suite struct LogisticRegressionCrossValidationTests {
    struct Reference: Decodable {
        struct Case: Decodable {
            var features: [[Float]]
            var labels: [Int]
            var classes: Int
            var testFolds: [Int]
            var accuracies: [Double]
            var chosen: Double
            var probabilities: [[Double]]
        }
        var grid: [Double]
        var cases: [Case]
    }

    static func reference() throws -> Reference {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/training/logistic-regression-cv.json")
        return try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
    }

    @Test func foldsAccuraciesAndChoiceMatchScikitLearn() throws {
        let reference = try Self.reference()
        #expect(reference.grid == LogisticRegressionHead.regularizationGrid)
        for item in reference.cases {
            // StratifiedKFold's assignment exactly: the same examples held out in every fold.
            #expect(LogisticRegressionHead.stratifiedFolds(labels: item.labels, folds: 5) == item.testFolds,
                    "\(item.classes) classes: folds")
            var fits = 0
            let choice = try #require(LogisticRegressionHead.crossValidatedRegularization(
                features: item.features, labels: item.labels, classes: item.classes) { fit, total in
                    fits = fit
                    #expect(total == 5 * reference.grid.count)
                })
            #expect(fits == 5 * reference.grid.count && choice.folds == 5)
            // Held-out accuracies are counts over the folds: equal, up to the sum's rounding.
            for (ours, theirs) in zip(choice.accuracies, item.accuracies) {
                #expect(abs(ours - theirs) <= 1e-12, "\(item.classes) classes: accuracies \(choice.accuracies) vs \(item.accuracies)")
            }
            // scikit-learn's C, or on a tie of accuracies (scikit-learn then takes the first) the tied C of the
            // lowest held-out log-loss.
            let bestAccuracy = item.accuracies.max() ?? 0
            let tied = item.accuracies.indices.filter { bestAccuracy - item.accuracies[$0] <= 1e-12 }.map { reference.grid[$0] }
            if tied.count == 1 {
                #expect(choice.regularization == item.chosen, "\(item.classes) classes: C")
            } else {
                #expect(item.chosen == tied[0] && tied.contains(choice.regularization), "\(item.classes) classes: C among \(tied)")
            }
            // The head refitted with scikit-learn's C gives its probabilities.
            let head = LogisticRegressionHead.fit(features: item.features, labels: item.labels, classes: item.classes,
                                                  inverseRegularization: item.chosen)
            let network = try IntentNetwork(inputWeight: nil, inputBias: nil, hiddenWeights: [], hiddenBiases: [],
                                            outputWeight: head.weight, outputBias: head.bias)
            var worst = 0.0
            for (row, expected) in zip(item.features, item.probabilities) {
                worst = max(worst, zip(network.probabilities(forDense: row), expected).map { abs(Double($0) - $1) }.max() ?? .infinity)
            }
            #expect(worst <= 1e-4, "\(item.classes) classes: largest probability difference \(worst)")
        }
    }

    @Test func fewerFoldsWhenNoClassHasFiveAndNoneWithoutTwo() {
        let features: [[Float]] = [[1, 0], [0.9, 0.1], [0, 1], [0.1, 0.9], [0.8, 0.2], [0.2, 0.8]]
        // Three per class: three folds, each holding one of each class out.
        let choice = LogisticRegressionHead.crossValidatedRegularization(features: features, labels: [0, 0, 1, 1, 0, 1], classes: 2)
        #expect(choice?.folds == 3)
        #expect(LogisticRegressionHead.stratifiedFolds(labels: [0, 0, 1, 1, 0, 1], folds: 3) == [0, 1, 0, 1, 2, 2])
        // One example per class: nothing to hold out, no choice (the trainer then fits C = 1).
        #expect(LogisticRegressionHead.crossValidatedRegularization(features: [[1, 0], [0, 1]], labels: [0, 1], classes: 2) == nil)
    }

    /// When every C classifies the held-out folds alike (well-separated classes, as a contrastively fine-tuned
    /// encoder's vectors are), the lower held-out log-loss decides, where scikit-learn takes the smallest C and
    /// fits a head of nearly uniform probabilities.
    @Test func aTieOfAccuraciesGoesToTheLowerLogLoss() throws {
        let features: [[Float]] = (0..<15).map { i in
            let spread = 0.05 * Float(i % 3)
            return [i % 3 == 0 ? 1 : spread, i % 3 == 1 ? 1 : spread, i % 3 == 2 ? 1 : spread]
        }
        let labels = (0..<15).map { $0 % 3 }
        let choice = try #require(LogisticRegressionHead.crossValidatedRegularization(features: features, labels: labels, classes: 3))
        #expect(choice.accuracies.allSatisfy { $0 == 1 })
        let lowest = try #require(choice.logLosses.indices.min { choice.logLosses[$0] < choice.logLosses[$1] })
        #expect(choice.regularization == LogisticRegressionHead.regularizationGrid[lowest])
        #expect(choice.regularization > LogisticRegressionHead.regularizationGrid[0])
    }

    @Test func predictTakesTheLargestLogitAndBinaryAboveZero() {
        let head = LogisticRegressionHead(weight: Tensor(shape: [3, 2], scalars: [1, 0, 0, 1, 1, 1]),
                                          bias: Tensor(shape: [3], scalars: [0, 0, -5]), iterations: 0, loss: 0)
        #expect(head.predict([2, 1]) == 0 && head.predict([1, 2]) == 1 && head.predict([1, 1]) == 0)
        let binary = LogisticRegressionHead(weight: Tensor(shape: [2, 1], scalars: [0, 1]), bias: Tensor(shape: [2], scalars: [0, 0]),
                                            iterations: 0, loss: 0)
        #expect(binary.predict([0]) == 0 && binary.predict([0.5]) == 1)
    }
}

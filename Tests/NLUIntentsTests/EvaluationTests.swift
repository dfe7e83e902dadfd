import Foundation
import Testing
@testable import NLUIntents

/// Evaluation figures on a small example worked out by hand.
@Suite struct EvaluationTests {
    // expected:  a a a b b c ∅ ∅
    // predicted: a a b b c c ∅ a
    let report = IntentEvaluation(expected: ["a", "a", "a", "b", "b", "c", nil, nil],
                                  predicted: ["a", "a", "b", "b", "c", "c", nil, "a"], threshold: 0.5)

    @Test func accuracyAndMacroF1() {
        #expect(report.count == 8)
        #expect(abs(report.accuracy - 5.0 / 8) < 1e-12)             // positions 0, 1, 3, 5, 6
        // F1: a = 2/3 (P 2/3, R 2/3), b = 1/2 (P 1/2, R 1/2), c = 2/3 (P 1/2, R 1)
        #expect(abs(report.macroF1 - (2.0 / 3 + 0.5 + 2.0 / 3) / 3) < 1e-12)
    }

    @Test func perIntentScores() {
        let twoThirds: Double = 2.0 / 3
        let a = IntentEvaluation.Scores(precision: twoThirds, recall: twoThirds, f1: twoThirds, support: 3)
        let b = IntentEvaluation.Scores(precision: 0.5, recall: 0.5, f1: 0.5, support: 2)
        #expect(report.perIntent["a"] == a)
        #expect(report.perIntent["b"] == b)
        let c = report.perIntent["c"]
        #expect(c?.precision == 0.5 && c?.recall == 1 && c?.support == 1)
        #expect(abs((c?.f1 ?? 0) - 2.0 / 3) < 1e-12)
    }

    @Test func confusionMatrixAndPairs() {
        #expect(report.labels == ["a", "b", "c", "(none)"])
        #expect(report.confusion["a"] == ["a": 2, "b": 1, "c": 0, "(none)": 0])
        #expect(report.confusion["b"] == ["a": 0, "b": 1, "c": 1, "(none)": 0])
        #expect(report.confusion["(none)"] == ["a": 1, "b": 0, "c": 0, "(none)": 1])
        #expect(report.mostConfused.map { "\($0.expected)>\($0.predicted)" } == ["(none)>a", "a>b", "b>c"])
    }

    @Test func outOfScopeFigures() {
        #expect(report.outOfScopeRecall == 0.5)                     // 1 of 2 out-of-scope utterances
        #expect(abs((report.inScopeAccuracy ?? 0) - 4.0 / 6) < 1e-12) // 4 of 6 in-scope
        #expect(IntentEvaluation(expected: ["a"], predicted: ["a"]).outOfScopeRecall == nil)
    }

    @Test func tableShowsTheFigures() {
        let table = report.table()
        #expect(table.contains("accuracy: 62.5%"))
        #expect(table.contains("macro-F1: 0.6111"))
        #expect(table.contains("out-of-scope recall: 50.0%"))
        #expect(table.contains("1 × (none) → a"))
    }

    @Test func crossValidationCoversEveryUtteranceOnce() throws {
        let dataset = try ClassifierTests.smallDataset()
        var options = ClassifierTests.quickOptions(seed: 9)
        options.epochs = 8
        let report = try IntentClassifier.crossValidate(dataset, folds: 3, training: options)
        #expect(report.count == dataset.utteranceCount + dataset.counterexamples.count)
        #expect(report.accuracy > 0.6)
    }
}

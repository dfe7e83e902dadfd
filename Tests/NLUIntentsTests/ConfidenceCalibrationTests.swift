import Foundation
import NLUCore
@testable import NLUIntents
import NLUTestSupport
import Testing

/// Out-of-scope calibration against its references (scripts/fixtures/intent_calibration.py): the
/// temperature against PyTorch's LBFGS fit, the ROC AUC against scikit-learn; then the threshold's
/// choice, the held-out split, and a calibrated model saved, loaded and predicting with it.
@Suite struct ConfidenceCalibrationTests {
    struct Reference: Decodable {
        struct TemperatureCase: Decodable {
            var name: String
            var logits: [[Float]]
            var labels: [Int]
            var temperature: Double
        }
        struct AUROCCase: Decodable {
            var name: String
            var labels: [Int]
            var scores: [Double]
            var auroc: Double
        }
        var temperature: [TemperatureCase]
        var auroc: [AUROCCase]
    }

    static func reference() throws -> Reference {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: fixture("calibration.json")))
    }

    /// The fitted temperature within 1e-5 relative of PyTorch's (the NLL's unique minimum, in float64).
    @Test func temperatureMatchesPyTorchLBFGS() throws {
        let cases = try Self.reference().temperature
        #expect(cases.count == 3)
        for entry in cases {
            let ours = Double(ConfidenceCalibration.temperature(logits: entry.logits, labels: entry.labels))
            #expect(abs(ours - entry.temperature) <= 1e-5 * entry.temperature, "\(entry.name): \(ours) vs \(entry.temperature)")
        }
    }

    /// Equal to scikit-learn's `roc_auc_score` within 1e-12, ties included.
    @Test func rocAreaMatchesScikitLearn() throws {
        for entry in try Self.reference().auroc {
            let ours = try #require(ROCArea.value(labels: entry.labels.map { $0 == 1 }, scores: entry.scores))
            #expect(abs(ours - entry.auroc) <= 1e-12, "\(entry.name): \(ours) vs \(entry.auroc)")
        }
        #expect(ROCArea.value(labels: [true, true], scores: [0.1, 0.2]) == nil)
    }

    @Test func degenerateHeldOutSetsStayInTheTemperatureRange() {
        // Every answer right with a growing margin: the loss falls as T → 0, held at the range's end.
        #expect(ConfidenceCalibration.temperature(logits: [[5, 0], [0, 5]], labels: [0, 1]) == ConfidenceCalibration.temperatureRange.lowerBound)
        // Every answer wrong: T grows without bound, held at the range's end.
        #expect(ConfidenceCalibration.temperature(logits: [[5, 0], [0, 5]], labels: [1, 0]) == ConfidenceCalibration.temperatureRange.upperBound)
        #expect(ConfidenceCalibration.temperature(logits: [], labels: []) == 1)
    }

    @Test func thresholdAnswersTheHeldOutSetBest() {
        typealias Answer = ConfidenceCalibration.Answer
        // In scope: right at 0.9 and 0.6, wrong at 0.5; out of scope at 0.55 and 0.3.
        let answers = [Answer(expected: "a", bestIntent: "a", noneWins: false, confidence: 0.9),
                       Answer(expected: "b", bestIntent: "b", noneWins: false, confidence: 0.6),
                       Answer(expected: "a", bestIntent: "b", noneWins: false, confidence: 0.5),
                       Answer(expected: nil, bestIntent: "a", noneWins: false, confidence: 0.55),
                       Answer(expected: nil, bestIntent: "b", noneWins: false, confidence: 0.3)]
        // 0.6 keeps the two right answers and rejects the three others: 5 of 5.
        #expect(ConfidenceCalibration.threshold(answers) == 0.6)
        // Without out-of-scope utterances a threshold can only lose answers: 0.
        #expect(ConfidenceCalibration.threshold(Array(answers.prefix(3))) == 0)
    }

    @Test func heldOutSplitIsStratifiedAndKeepsEveryIntent() throws {
        let dataset = IntentDataset(intents: [Intent(name: "a", utterances: (0..<20).map { Utterance(stringLiteral: "a \($0)") }),
                                              Intent(name: "b", utterances: ["b 0"])],
                                    counterexamples: (0..<10).map { Utterance(stringLiteral: "c \($0)") })
        let (training, heldOut) = try dataset.heldOutSplit(fraction: 0.25, seed: 1)
        #expect(training.intents.map(\.utterances.count) == [15, 1] && heldOut.intents.map(\.name) == ["a"])
        #expect(heldOut.intents[0].utterances.count == 5 && training.counterexamples.count == 8 && heldOut.counterexamples.count == 2)
        #expect(Set(training.intents[0].utterances.map(\.text)).isDisjoint(with: heldOut.intents[0].utterances.map(\.text)))
        for bad in [-0.1, 0.6, .nan] {
            let error = try #require(throws: TrainingSettingError.self) { try dataset.heldOutSplit(fraction: bad, seed: 1) }
            #expect(error.setting == "fraction")
        }
    }

    /// A bag-of-words model calibrated on held-out utterances and counterexamples: its predictions are
    /// softmax(logits / T), the temperature and threshold survive saving, and evaluation reports AUROC.
    @Test func calibratedModelPredictsWithItsTemperatureAfterLoading() throws {
        let dataset = try ClassifierTests.smallDataset()
        let (training, heldOut) = try dataset.heldOutSplit(fraction: 0.2, seed: 3)
        var classifier = try IntentClassifier.train(on: training, training: ClassifierTests.quickOptions(seed: 3), entities: nil)
        let calibrated = classifier.calibrate(on: heldOut)
        let calibration = try #require(calibrated)
        #expect(calibration.utterances == heldOut.utteranceCount + heldOut.counterexamples.count)
        #expect(calibration.lossAfter <= calibration.lossBefore && calibration.temperature != 1)
        #expect(classifier.temperature == calibration.temperature && classifier.threshold == calibration.threshold)

        let text = heldOut.intents[0].utterances[0].text
        var logits = classifier.network.finiteLogits(for: classifier.inputs(for: [text])[0]).map { $0 / calibration.temperature }
        IntentNetwork.softmax(&logits)
        let probabilities = classifier.probabilities(for: text)
        for (label, expected) in zip(classifier.labels, logits) { #expect(abs((probabilities[label] ?? -1) - expected) < 1e-6) }

        let folder = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("calibrated.nlumodel")
        try classifier.save(to: url)
        let loaded = try IntentClassifier.load(from: url)
        #expect(loaded.temperature == classifier.temperature && loaded.threshold == classifier.threshold)
        #expect(loaded.predict(text) == classifier.predict(text))

        let evaluation = loaded.evaluate(on: heldOut)
        let auroc = try #require(evaluation.outOfScopeAUROC)
        #expect(auroc >= 0 && auroc <= 1 && evaluation.table().contains("AUROC"))
        print("calibrated on \(calibration.utterances): T = \(calibration.temperature), threshold \(calibration.threshold), "
              + "held-out loss \(calibration.lossBefore) -> \(calibration.lossAfter), AUROC \(auroc)")
    }

    /// What a model's intents find to calibrate on: an utterance of one of them, or any counterexample; never an
    /// utterance labelled with the "none" class's own name.
    @Test func aHeldOutSetCalibratesOnlyWhatTheModelKnows() {
        let strangers = IntentDataset(intents: [Intent(name: "greet", utterances: ["hello"]),
                                                Intent(name: IntentClassifier.noneLabel, utterances: ["whatever"])])
        #expect(!strangers.canCalibrate(intents: ["weather", "music"]))
        #expect(!strangers.canCalibrate(intents: ["weather", IntentClassifier.noneLabel]))
        #expect(strangers.canCalibrate(intents: ["greet"]))
        var outOfScope = strangers
        outOfScope.counterexamples = ["what is the meaning of life"]
        #expect(outOfScope.canCalibrate(intents: ["weather"]))
        #expect(strangers.calibrationIntents(of: ["greet", IntentClassifier.noneLabel]).map(\.name) == ["greet"])
    }
}

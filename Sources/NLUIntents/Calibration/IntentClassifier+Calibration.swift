import Foundation
import NLUCore

extension IntentClassifier {
    /// What ``calibrate(on:)`` fitted, and how much it changed the held-out negative log-likelihood.
    public struct Calibration: Sendable, Equatable {
        /// Held-out utterances used (those of the model's classes).
        public var utterances: Int
        /// The fitted temperature (1: the confidences already fitted the held-out answers).
        public var temperature: Float
        /// The threshold chosen on the calibrated confidences (0 unless the held-out set has out-of-scope utterances).
        public var threshold: Float
        /// The held-out mean negative log-likelihood before (temperature 1) and after.
        public var lossBefore: Double
        public var lossAfter: Double
    }

    /// Calibrates the model's confidences on `heldOut`, utterances it was not trained on (see
    /// ``IntentDataset/heldOutSplit(fraction:seed:)``): fits ``temperature`` by the held-out negative
    /// log-likelihood (``ConfidenceCalibration/temperature(logits:labels:)``), then sets ``threshold`` to
    /// the calibrated confidence that answers the most held-out utterances right, out-of-scope ones
    /// (its counterexamples) included (``ConfidenceCalibration/threshold(_:)``). Both are saved with the
    /// model and used by every prediction (a `--threshold` given at prediction still wins).
    /// Utterances of intents the model does not have are skipped, and counterexamples count for the
    /// temperature only when the model has a "none" class. Nothing changes when nothing is left.
    ///
    ///     let (training, heldOut) = try dataset.heldOutSplit(fraction: 0.1, seed: 42)
    ///     var classifier = try IntentClassifier.fineTune(on: training, checkpoint: url)
    ///     let calibration = classifier.calibrate(on: heldOut)   // calibration.temperature, .threshold
    @discardableResult
    public mutating func calibrate(on heldOut: IntentDataset) -> Calibration? {
        var texts: [String] = [], expected: [String?] = [], classes: [Int?] = []
        for intent in heldOut.calibrationIntents(of: intents) {
            guard let index = labels.firstIndex(of: intent.name) else { continue }
            for utterance in intent.utterances {
                texts.append(utterance.text)
                expected.append(intent.name)
                classes.append(index)
            }
        }
        for utterance in heldOut.counterexamples {
            texts.append(utterance.text)
            expected.append(nil)
            classes.append(hasNoneClass ? labels.count - 1 : nil)
        }
        guard !texts.isEmpty else { return nil }
        let logits = inputs(for: texts).map { network.finiteLogits(for: $0) }
        let fitted = zip(logits, classes).compactMap { row, label in label.map { (row, $0) } }
        let loss = { (temperature: Float) -> Double in
            var total = 0.0
            for (row, label) in fitted {
                let scaled = row.map { Double($0) / Double(temperature) }
                let largest = scaled.max() ?? 0
                total += largest + log(scaled.reduce(0) { $0 + exp($1 - largest) }) - scaled[label]
            }
            return fitted.isEmpty ? 0 : total / Double(fitted.count)
        }
        temperature = fitted.isEmpty ? 1 : ConfidenceCalibration.temperature(logits: fitted.map(\.0), labels: fitted.map(\.1))
        let intentCount = hasNoneClass ? labels.count - 1 : labels.count
        let answers = zip(logits, expected).map { row, expected -> ConfidenceCalibration.Answer in
            var probabilities = row.map { $0 / temperature }
            IntentNetwork.softmax(&probabilities)
            let best = (0..<intentCount).max { probabilities[$0] != probabilities[$1] ? probabilities[$0] < probabilities[$1] : $0 > $1 } ?? 0
            let noneWins = hasNoneClass && (probabilities.last ?? 0) > probabilities[best]
            return ConfidenceCalibration.Answer(expected: expected, bestIntent: labels[best], noneWins: noneWins, confidence: probabilities[best])
        }
        threshold = ConfidenceCalibration.threshold(answers)
        return Calibration(utterances: texts.count, temperature: temperature, threshold: threshold,
                           lossBefore: loss(1), lossAfter: loss(temperature))
    }
}

extension IntentDataset {
    /// The intents of this held-out set that calibrating a model of `intents` uses: those the model has
    /// (the "none" class's label is none of them; out-of-scope utterances are the counterexamples).
    func calibrationIntents(of intents: [String]) -> [Intent] {
        let known = Set(intents)
        return self.intents.filter { known.contains($0.name) && $0.name != IntentClassifier.noneLabel }
    }

    /// Whether a model of `intents` finds anything to calibrate on here
    /// (``IntentClassifier/calibrate(on:)`` changes nothing otherwise): an utterance of one of them, or a
    /// counterexample. Checked before training by a caller that calibrates after it.
    public func canCalibrate(intents: [String]) -> Bool {
        !counterexamples.isEmpty || calibrationIntents(of: intents).contains { !$0.utterances.isEmpty }
    }
}

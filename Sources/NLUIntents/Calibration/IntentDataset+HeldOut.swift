import NLUCore

extension IntentDataset {
    /// Splits the dataset into a training part and a held-out part, for calibrating confidences
    /// (``IntentClassifier/calibrate(on:)``) or scoring a fine-tuning run's epochs (its `validation`):
    /// `fraction` of each intent's utterances (rounded down)
    /// and of the counterexamples, drawn with `seed`, go to the held-out part, so each intent keeps
    /// its share. Each intent and the counterexamples keep at least one utterance for training.
    /// Everything else (entities, language) stays in both parts.
    ///
    ///     let (training, heldOut) = try dataset.heldOutSplit(fraction: 0.1, seed: 42)
    /// - Throws: ``TrainingSettingError`` (setting `fraction`) for a fraction outside 0 ... 0.5.
    public func heldOutSplit(fraction: Double, seed: UInt64) throws -> (training: IntentDataset, heldOut: IntentDataset) {
        guard fraction.isFinite, (0...0.5).contains(fraction) else {
            throw TrainingSettingError(setting: "fraction", value: "\(fraction)", requirement: "between 0 and 0.5 (the share of each intent held out)")
        }
        var random = SplitMix64(seed: seed ^ 0xCA11_B4A7)
        func split(_ utterances: [Utterance]) -> (kept: [Utterance], held: [Utterance]) {
            var shuffled = Array(utterances.indices)
            shuffled.shuffle(using: &random)
            let held = Set(shuffled.prefix(Swift.min(Int(Double(utterances.count) * fraction), Swift.max(0, utterances.count - 1))))
            return (utterances.indices.filter { !held.contains($0) }.map { utterances[$0] },
                    utterances.indices.filter { held.contains($0) }.map { utterances[$0] })
        }
        var training = self, heldOut = self
        for (index, intent) in intents.enumerated() {
            let (kept, held) = split(intent.utterances)
            training.intents[index].utterances = kept
            heldOut.intents[index].utterances = held
        }
        (training.counterexamples, heldOut.counterexamples) = split(counterexamples)
        heldOut.intents.removeAll { $0.utterances.isEmpty }
        return (training, heldOut)
    }
}

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
    /// - Throws: ``TrainingSettingError`` (setting `fraction`) for a fraction outside 0 ... 0.5 (``HeldOutSplit/checkFraction(_:of:allowsNone:)``).
    public func heldOutSplit(fraction: Double, seed: UInt64) throws -> (training: IntentDataset, heldOut: IntentDataset) {
        try HeldOutSplit.checkFraction(fraction, of: "each intent", allowsNone: true)
        var random = SplitMix64(seed: seed ^ 0xCA11_B4A7)
        func split(_ utterances: [Utterance]) -> (kept: [Utterance], held: [Utterance]) {
            HeldOutSplit.split(utterances, holdingOut: Swift.min(Int(Double(utterances.count) * fraction), Swift.max(0, utterances.count - 1)),
                               using: &random)
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

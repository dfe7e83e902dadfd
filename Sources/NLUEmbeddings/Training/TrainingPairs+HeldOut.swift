import NLUCore

extension TrainingPairs {
    /// Splits the pairs into a training part and a held-out part to score a run's epochs on (its `validation`):
    /// `fraction` of the examples (rounded down, at least one), drawn with `seed`, are held out; both parts keep
    /// the file's order and shape, so the held-out part is scored as a validation file of that shape would be.
    ///
    ///     let (training, heldOut) = try pairs.heldOutSplit(fraction: 0.1, seed: 42)
    /// - Throws: ``TrainingSettingError`` (setting `fraction`) for a fraction outside 0 < fraction ≤ 0.5, or
    ///   pairs too few to leave at least one on each side.
    public func heldOutSplit(fraction: Double, seed: UInt64) throws -> (training: TrainingPairs, heldOut: TrainingPairs) {
        try HeldOutSplit.checkFraction(fraction, of: "the pairs")
        let held = max(1, Int(Double(count) * fraction))
        guard held < count else {
            throw TrainingSettingError(setting: "fraction", value: "\(fraction) of \(count) pair\(count == 1 ? "" : "s")",
                                       requirement: "pairs enough to hold one out and train on the rest")
        }
        var random = SplitMix64(seed: seed ^ 0x5EED_0F_9A1B)
        func split<Example>(_ examples: [Example]) -> (kept: [Example], held: [Example]) {
            HeldOutSplit.split(examples, holdingOut: held, using: &random)
        }
        switch self {
        case .contrastive(let examples):
            let (kept, held) = split(examples)
            return (.contrastive(kept), .contrastive(held))
        case .scored(let pairs):
            let (kept, held) = split(pairs)
            return (.scored(kept), .scored(held))
        }
    }
}

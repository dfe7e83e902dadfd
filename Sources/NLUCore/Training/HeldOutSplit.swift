/// The share of a training set held out of training and its seeded draw: one rule for every held-out split
/// (an intents dataset's calibration and validation splits, a sentence-pairs file's), so the flags that set
/// them (`--validation-split`, `--calibration-split`) and the libraries that draw them accept the same
/// values and name them the same way.
///
///     try HeldOutSplit.checkFraction(0.1, of: "the pairs")
///     var generator = SplitMix64(seed: 42)
///     let (kept, held) = HeldOutSplit.split(examples, holdingOut: 10, using: &generator)
public enum HeldOutSplit {
    /// The largest share held out: beyond it a run would be scored on more than it trains on.
    public static let maximumFraction = 0.5

    /// Throws unless `fraction` is a share a split can hold out: above 0 (or exactly 0, holding nothing out,
    /// where `allowsNone`) and at most ``maximumFraction``.
    /// - Parameter examples: what the share is taken of, for the message ("the pairs", "each intent").
    /// - Throws: ``TrainingSettingError`` with setting `fraction`.
    public static func checkFraction(_ fraction: Double, of examples: String, allowsNone: Bool = false) throws {
        guard fraction.isFinite, allowsNone ? fraction >= 0 : fraction > 0, fraction <= maximumFraction else {
            throw TrainingSettingError(setting: "fraction", value: "\(fraction)",
                                       requirement: "\(allowsNone ? "between 0 and" : "above 0 and at most") \(maximumFraction) (the share of \(examples) held out)")
        }
    }

    /// `examples` split into those kept for training and `count` held out, drawn with `generator` (a seeded
    /// shuffle of the positions); both parts keep the examples' order.
    /// - Precondition: 0 ≤ count ≤ examples.count (callers derive it from a checked fraction).
    public static func split<Example, Generator: RandomNumberGenerator>(_ examples: [Example], holdingOut count: Int,
                                                                       using generator: inout Generator) -> (kept: [Example], held: [Example]) {
        precondition((0...examples.count).contains(count), "holding out \(count) of \(examples.count) examples")
        var order = Array(examples.indices)
        order.shuffle(using: &generator)
        let held = Set(order.prefix(count))
        return (examples.indices.filter { !held.contains($0) }.map { examples[$0] },
                examples.indices.filter { held.contains($0) }.map { examples[$0] })
    }
}

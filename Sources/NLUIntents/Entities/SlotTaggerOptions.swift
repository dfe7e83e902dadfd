/// How the slot tagger (a linear-chain CRF) is trained: crfsuite's L1 / L2 coefficients and L-BFGS
/// stopping rules.
///
///     var options = SlotTaggerOptions()
///     options.c1 = 0      // pure L2: L-BFGS instead of OWL-QN
public struct SlotTaggerOptions: Codable, Sendable, Equatable {
    /// L1 coefficient (`c1 · ‖w‖₁`; above 0 trains by OWL-QN and keeps the model sparse).
    public var c1: Double = 0.1
    /// L2 coefficient (`c2 · ‖w‖²`).
    public var c2: Double = 0.1
    /// The most L-BFGS iterations.
    public var maxIterations: Int = 150
    /// Stop when the objective improved by less than this (relative) over 10 iterations.
    public var delta: Double = 1e-4

    /// How the annotated mentions become dictionary features ("inside a match of X"): 0, not at all
    /// (only the entity definitions' values and synonyms are dictionaries); 1, every mention, in
    /// training as at prediction; k ≥ 2, at prediction every mention, in training an utterance sees
    /// only the mentions of the other k − 1 folds.
    public var gazetteerFolds: Int = 5

    /// The defaults.
    public init() {}

    private enum CodingKeys: String, CodingKey { case c1, c2, maxIterations, delta, gazetteerFolds }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SlotTaggerOptions()
        c1 = try container.decodeIfPresent(Double.self, forKey: .c1) ?? defaults.c1
        c2 = try container.decodeIfPresent(Double.self, forKey: .c2) ?? defaults.c2
        maxIterations = try container.decodeIfPresent(Int.self, forKey: .maxIterations) ?? defaults.maxIterations
        delta = try container.decodeIfPresent(Double.self, forKey: .delta) ?? defaults.delta
        // Models saved before the option trained with every mention in (1 fold).
        gazetteerFolds = try container.decodeIfPresent(Int.self, forKey: .gazetteerFolds) ?? 1
    }

    func validate() throws {
        guard c1 >= 0, c1.isFinite else { throw EntityTaggerError.invalidOption(option: "c1", reason: "expected 0 or more, got \(c1)") }
        guard c2 >= 0, c2.isFinite else { throw EntityTaggerError.invalidOption(option: "c2", reason: "expected 0 or more, got \(c2)") }
        guard (1...100_000).contains(maxIterations) else {
            throw EntityTaggerError.invalidOption(option: "max iterations", reason: "expected 1 to 100000, got \(maxIterations)")
        }
        guard (0...100).contains(gazetteerFolds) else {
            throw EntityTaggerError.invalidOption(option: "gazetteer folds", reason: "expected 0 to 100, got \(gazetteerFolds)")
        }
        guard delta >= 0, delta < 1 else { throw EntityTaggerError.invalidOption(option: "delta", reason: "expected 0 ≤ delta < 1, got \(delta)") }
    }
}

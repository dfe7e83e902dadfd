import NLUCore

/// The dropout of a training pass: the probability of zeroing each hidden-state element (after the
/// embeddings, after each block's attention output and feed-forward output: `hidden_dropout_prob`)
/// and each attention probability (`attention_probs_dropout_prob`). The draws come from the
/// encoder's seeded generator, so a run is reproducible; a probability of 0 is no dropout.
///
///     encoder.dropout = EncoderDropout(hidden: 0.1, attention: 0.1)
public struct EncoderDropout: Sendable, Equatable {
    /// `hidden_dropout_prob` (DistilBERT: `dropout`).
    public var hidden: Float
    /// `attention_probs_dropout_prob` (DistilBERT: `attention_dropout`).
    public var attention: Float

    /// Dropout with the given probabilities, each in 0 ..< 1.
    public init(hidden: Float, attention: Float) {
        self.hidden = hidden
        self.attention = attention
    }

    /// One probability for both, as the fine-tuning options give it (Trainer's models read one dropout from
    /// `config.json` for both); nil for 0, no dropout.
    public init?(probability: Float) {
        guard probability > 0 else { return nil }
        self.init(hidden: probability, attention: probability)
    }

    /// Throws unless both probabilities are in 0 ..< 1.
    func validate() throws {
        for (field, value) in [("hidden dropout", hidden), ("attention dropout", attention)] where !(0..<1).contains(value) {
            throw ModelError.invalidFeatureValue(field, reason: "probability \(value) is outside 0 ..< 1")
        }
    }
}

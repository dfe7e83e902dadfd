/// The held-out score that picks the epoch a sentence-embedding run keeps
/// (``SentenceFineTuningOptions/keepBest``), as sentence-transformers' `save_best_model` with its evaluator's
/// score: one of ``SentenceFineTuningEvaluation``'s, higher is better for all.
public enum SentenceFineTuningMetric: String, Codable, Sendable, CaseIterable {
    /// Scored pairs: Spearman correlation of cosine similarity with the scores (`EmbeddingSimilarityEvaluator`'s main score).
    case spearman
    /// Scored pairs: Pearson correlation.
    case pearson
    /// Anchor/positive pairs: share of anchors whose positive ranks first.
    case accuracyAt1 = "accuracy-at-1"
    /// Anchor/positive pairs: mean reciprocal rank of the positive within the first 10.
    case mrrAt10 = "mrr-at-10"

    /// Whether the score is of scored pairs (else of anchor/positive pairs).
    public var needsScoredPairs: Bool { self == .spearman || self == .pearson }

    /// The score of `evaluation`, nil when its pairs have another shape (or the correlation is undefined).
    public func score(_ evaluation: SentenceFineTuningEvaluation) -> Double? {
        switch self {
        case .spearman: evaluation.spearman
        case .pearson: evaluation.pearson
        case .accuracyAt1: evaluation.accuracyAt1
        case .mrrAt10: evaluation.mrrAt10
        }
    }
}

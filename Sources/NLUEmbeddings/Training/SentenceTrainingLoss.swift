import NLUCore

/// What ``SentenceEncoderTrainer`` minimises, as sentence-transformers names its losses.
///
/// - ``multipleNegativesRanking(scale:)``: `MultipleNegativesRankingLoss` on columns (anchors,
///   positives, then any hard-negative columns): anchor `i` should be nearer positive `i` than every
///   other candidate of the batch. Learns from pairs alone; needs at least 2 examples per batch unless
///   hard negatives are given (with one example and no negative, the loss is 0 and nothing is learnt).
/// - ``cosineSimilarity``: `CosineSimilarityLoss` on two columns and one score per pair: the squared
///   error between the pair's cosine similarity and its score.
///
///     let loss = SentenceTrainingLoss.multipleNegativesRanking(scale: 20)
public enum SentenceTrainingLoss: Sendable, Equatable {
    case multipleNegativesRanking(scale: Float)
    case cosineSimilarity

    /// sentence-transformers' `MultipleNegativesRankingLoss` default: scale 20 (temperature 0.05).
    public static let defaultRankingScale: Float = 20

    /// The name the CLI and the checkpoint state use: `mnrl` or `cosine`.
    public var name: String {
        switch self {
        case .multipleNegativesRanking: "mnrl"
        case .cosineSimilarity: "cosine"
        }
    }
}

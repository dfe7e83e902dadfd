/// How hybrid search combines its keyword and vector rankings.
public enum FusionFunction: String, Sendable, CaseIterable, Codable {
    /// Reciprocal-rank fusion (``ReciprocalRankFusion``): ranks only, Σ wᵢ / (k + rankᵢ).
    case rrf
    /// Convex combination of min-max normalised scores (``ConvexScoreFusion``): Σ wᵢ · normᵢ(scoreᵢ).
    case convex
}

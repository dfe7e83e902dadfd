/// How token embeddings become one sentence embedding, as sentence-transformers' `Pooling` module
/// does it. Several modes concatenate their results in the order the configuration lists them.
public enum PoolingMode: String, Sendable, CaseIterable, Codable {
    /// The first token (`[CLS]`).
    case cls
    /// The element-wise maximum over the tokens.
    case max
    /// The mean over the tokens (all-MiniLM-L6-v2's mode).
    case mean
    /// The sum over the tokens divided by √(token count).
    case meanSqrtLength = "mean_sqrt_len_tokens"
    /// The mean weighted by position (1, 2, 3, ...), as SGPT uses.
    case weightedMean = "weightedmean"
    /// The last real token.
    case lastToken = "lasttoken"

    /// The legacy boolean keys of `1_Pooling/config.json`, in the order sentence-transformers
    /// concatenates their results.
    static let legacyKeys: [(key: String, mode: PoolingMode)] = [
        ("pooling_mode_cls_token", .cls), ("pooling_mode_max_tokens", .max), ("pooling_mode_mean_tokens", .mean),
        ("pooling_mode_mean_sqrt_len_tokens", .meanSqrtLength), ("pooling_mode_weightedmean_tokens", .weightedMean),
        ("pooling_mode_lasttoken", .lastToken),
    ]
}

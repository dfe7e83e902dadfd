/// How token embeddings become one sentence embedding, as sentence-transformers' `Pooling` module
/// does it. Several modes concatenate their results in the order a ``TokenPooling`` lists them.
///
///     let pooling = TokenPooling(modes: [.mean], hiddenSize: 384)
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
}

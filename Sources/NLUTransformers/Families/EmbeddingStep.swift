/// How a family turns token ids into the encoder's first hidden states: which position id each token
/// gets and whether token types take part. The sum of the embedding rows and its layer norm are shared
/// (``WorkspaceEncoder/embedSum(_:tables:norm:into:)``); a relative position bias, where a family has
/// one, is named in its ``EncoderTensorNames/relativeAttentionBias``.
///
///     static let embedding = EmbeddingStep(positions: .afterPaddingIndex, tokenTypes: 1)   // RoBERTa
package struct EmbeddingStep: Sendable, Equatable {
    /// Where a sequence's position ids start.
    package enum Positions: Sendable, Equatable {
        /// 0, 1, 2, ... in every row (BERT, DistilBERT).
        case fromZero
        /// After the padding index, padding tokens at the padding index itself (RoBERTa, XLM-R, MPNet:
        /// `create_position_ids_from_input_ids` in `transformers`, ``PaddingOffsetPositions``).
        case afterPaddingIndex
    }

    /// Where a sequence's position ids start.
    package var positions: Positions
    /// The token-type rows a configuration built in code gets when it names none (BERT: 2 segments;
    /// RoBERTa: 1, as in every released checkpoint); 0 for a family without token-type embeddings.
    package var tokenTypes: Int

    /// A step with `positions`, and `tokenTypes` token-type rows by default (0: none).
    package init(positions: Positions, tokenTypes: Int) {
        self.positions = positions
        self.tokenTypes = tokenTypes
    }
}

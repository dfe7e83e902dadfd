import NLUText

/// The encoder of a joint intent + slot model as the intent model sees it: its sentence features are
/// the pooled vector the intent head reads, and one pass over a text's tokens also gives the hidden
/// states the slot head reads (each word's first piece). NLUIntents does not know how the encoder
/// runs: in the process that fine-tuned it, the training encoder; once loaded from a model package,
/// NLUPipelines' sentence-transformers featurizer, at F32 or INT8.
///
///     let encoding = JointUtteranceEncoding(text: "book for 4", tokenizer: featurizer.tokenizer, maxLength: 128)
///     let pass = featurizer.pooledAndTokenStates(text: "book for 4", tokenIDs: encoding.tokenIDs, positions: [1, 2, 3])
///     pass.states.count      // 3 rows of the hidden size
public protocol TokenStateFeaturizer: SentenceFeaturizer {
    /// The encoder's tokenizer.
    var tokenizer: any EncoderTokenizer { get }
    /// The width of a hidden state.
    var hiddenSize: Int { get }
    /// The most tokens a text may have, special tokens included.
    var maxSequenceLength: Int { get }

    /// The pooled vector (the one ``SentenceFeaturizer/features(for:)`` gives for `text`) and the
    /// last hidden states at `positions` of `tokenIDs`, `text`'s tokens. Cannot fail: the ids come
    /// from the encoder's own tokenizer within its length, and the positions lie inside them.
    func pooledAndTokenStates(text: String, tokenIDs: [Int32], positions: [Int]) -> (pooled: [Float], states: [[Float]])
}

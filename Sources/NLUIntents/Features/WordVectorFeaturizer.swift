/// Contextual word vectors for the slot tagger: for each text, one vector per word, computed by a
/// frozen encoder that sees the whole text (NLUKit's ``SentenceFeaturizer`` backed by a
/// sentence-transformers model provides them from the same encoder pass as the sentence embedding).
/// NLUIntents does not know where the vectors come from; the tagger records ``reference`` and asks
/// for the same encoder again when the model is loaded.
///
///     let vectors = featurizer.wordVectors(for: ["play jazz"], words: [[0..<4, 5..<9]])   // 1 text, 2 words
public protocol WordVectorFeaturizer: Sendable {
    /// What identifies the encoder: recorded in the model package, checked when it is loaded.
    var reference: SentenceFeaturizerReference { get }
    /// The number of values in each word vector.
    var wordVectorDimension: Int { get }

    /// For each text, one vector of ``wordVectorDimension`` values per word range (Unicode-scalar
    /// offsets into the text), in order. Cannot fail: whatever can go wrong is checked when the
    /// featurizer is made.
    func wordVectors(for texts: [String], words: [[Range<Int>]]) -> [[[Float]]]
}

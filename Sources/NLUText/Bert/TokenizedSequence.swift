/// The tokens of one text before special tokens are added: ids, original scalar offsets and word
/// indices (the "model output" stage of the pipeline, before post-processing).
///
///     let sequence = tokenizer.tokenize("Hello world")
///     sequence.ids      // [7592, 2088]
///     sequence.offsets  // [0..<5, 6..<11]
public struct TokenizedSequence: Sendable, Equatable {
    /// Token ids.
    public var ids: [Int32] = []
    /// Unicode-scalar range of each token in the text.
    public var offsets: [Range<Int>] = []
    /// Index of the pre-tokenized word (or special token) each token belongs to.
    public var wordIDs: [Int] = []

    /// Makes an empty sequence.
    public init() {}

    /// The number of tokens.
    public var count: Int { ids.count }

    @inline(__always)
    mutating func append(_ id: Int32, _ offset: Range<Int>, word: Int) {
        ids.append(id)
        offsets.append(offset)
        wordIDs.append(word)
    }
}

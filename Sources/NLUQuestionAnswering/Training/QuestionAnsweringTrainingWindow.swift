/// One training example of extractive question answering: a window `[CLS] question [SEP] context part [SEP]`
/// and the token positions of its answer's first and last token, or of `[CLS]` when the answer is not wholly
/// inside the window (or the question has none), as transformers' `run_qa` builds its training features.
///
///     let set = try QuestionAnsweringTrainingSet(dataset: squad, tokenizer: tokenizer)
///     let window = set.windows[0]
///     print(window.questionID, window.tokenIDs.count, window.startPosition, window.endPosition)
public struct QuestionAnsweringTrainingWindow: Sendable, Equatable {
    /// The SQuAD id of the question the window belongs to.
    public var questionID: String
    /// Token ids: `[CLS]`, the question, `[SEP]`, a part of the context, `[SEP]` (no padding).
    public var tokenIDs: [Int32]
    /// Segment ids: 0 for the question part, 1 for the context part.
    public var tokenTypeIDs: [Int32]
    /// The position of the answer's first token, or of `[CLS]` for no answer in this window.
    public var startPosition: Int
    /// The position of the answer's last token, or of `[CLS]` for no answer in this window.
    public var endPosition: Int

    /// A window from its parts.
    public init(questionID: String, tokenIDs: [Int32], tokenTypeIDs: [Int32], startPosition: Int, endPosition: Int) {
        self.questionID = questionID
        self.tokenIDs = tokenIDs
        self.tokenTypeIDs = tokenTypeIDs
        self.startPosition = startPosition
        self.endPosition = endPosition
    }
}

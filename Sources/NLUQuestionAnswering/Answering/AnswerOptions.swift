/// How ``QuestionAnswerer`` reads a document; the defaults are those of Hugging Face's
/// `pipeline("question-answering")`.
///
///     var options = AnswerOptions()
///     options.topK = 3
///     options.passageSearch = .init(maxPassages: 4)   // for very long documents
///     let answers = try qa.answers(to: question, in: book, options: options)
public struct AnswerOptions: Sendable, Equatable {
    /// How many answers to return (fewer when the document has fewer distinct spans).
    public var topK: Int = 1
    /// Tokens per window (question + context + special tokens); nil: min(the tokenizer's
    /// `model_max_length`, 384).
    public var maxSequenceLength: Int?
    /// Tokens of overlap between consecutive windows; nil: min(maxSequenceLength / 2, 128).
    public var documentStride: Int?
    /// Questions longer than this many tokens are cut to it.
    public var maxQuestionLength: Int = 64
    /// The longest answer considered, in tokens.
    public var maxAnswerLength: Int = 15
    /// Whether "no answer" (empty, score from the [CLS] token) may be returned.
    public var handleImpossibleAnswer: Bool = false
    /// Whether answer boundaries snap to whole words.
    public var alignToWords: Bool = true
    /// Reads only the paragraphs most related to the question (BM25) when set.
    public var passageSearch: PassageSearchOptions?
    /// The most windows one call may put through the model (all its documents together); nil: no
    /// limit. Documents are tokenized and cut into windows first (cheap), and a call that needs more
    /// throws ``QuestionAnsweringError/tooManyWindows(count:limit:windowLength:)`` before the model
    /// runs: a server's bound on the work one request may ask for.
    public var maxWindows: Int?

    /// Options with the pipeline's defaults unless given.
    public init(topK: Int = 1, maxSequenceLength: Int? = nil, documentStride: Int? = nil,
                maxQuestionLength: Int = 64, maxAnswerLength: Int = 15, handleImpossibleAnswer: Bool = false,
                alignToWords: Bool = true, passageSearch: PassageSearchOptions? = nil, maxWindows: Int? = nil) {
        self.topK = topK
        self.maxSequenceLength = maxSequenceLength
        self.documentStride = documentStride
        self.maxQuestionLength = maxQuestionLength
        self.maxAnswerLength = maxAnswerLength
        self.handleImpossibleAnswer = handleImpossibleAnswer
        self.alignToWords = alignToWords
        self.passageSearch = passageSearch
        self.maxWindows = maxWindows
    }
}

/// Paragraph pre-selection for documents much longer than a few windows: paragraphs are ranked
/// by BM25 against the question and only the best ``maxPassages`` are read by the model.
public struct PassageSearchOptions: Sendable, Equatable {
    /// How many paragraphs to read.
    public var maxPassages: Int = 3

    /// Reads the `maxPassages` best paragraphs.
    public init(maxPassages: Int = 3) {
        self.maxPassages = maxPassages
    }
}

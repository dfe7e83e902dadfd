/// One answer to a question: a span of the document, or the empty "no answer" when the options
/// allow it (``AnswerOptions/handleImpossibleAnswer``).
///
///     let best = try qa.answers(to: "Who jumped over the dog?", in: text).first
///     print(best?.text, best?.score, best.map { text[$0.range] })
public struct Answer: Sendable, Equatable, Hashable {
    /// The answer as it appears in the document ("" for no answer).
    public var text: String
    /// Where the answer is in the document (empty at the start for no answer).
    public var range: Range<String.Index>
    /// The probability the model gives the span: P(start) · P(end), summed over duplicates.
    public var score: Double
    /// Unicode-scalar offset of the first character (as Python and the reference pipeline count).
    public var start: Int
    /// Unicode-scalar offset just past the last character.
    public var end: Int

    /// Makes an answer (``QuestionAnswerer`` builds them; this is for tests and custom pipelines).
    public init(text: String, range: Range<String.Index>, score: Double, start: Int, end: Int) {
        self.text = text
        self.range = range
        self.score = score
        self.start = start
        self.end = end
    }

    /// Whether this is the "no answer" result.
    public var isNoAnswer: Bool { start == 0 && end == 0 && text.isEmpty }
}

/// One utterance of an evaluation as the report pages show it: its text, the expected and the predicted
/// intent (`nil`: no intent) and the confidence of the prediction.
///
/// The confidence is the probability of the best-ranked intent, also when the answer is no intent (the
/// none class won, or the best intent fell under the threshold): how sure the classifier was of its
/// best guess, which is what a confidence histogram of right and wrong answers is about.
///
///     let evaluation = classifier.evaluate(on: testSet)
///     for error in evaluation.worstErrors(limit: 5) {
///         print(error.text, error.expected ?? "-", error.predicted ?? "-", error.confidence)
///     }
public struct EvaluatedUtterance: Sendable, Equatable, Encodable {
    /// The utterance as the dataset has it.
    public var text: String
    /// The labelled intent, `nil` for a counterexample (out of scope).
    public var expected: String?
    /// The predicted intent, `nil` for no intent.
    public var predicted: String?
    /// The best-ranked intent's probability, between 0 and 1.
    public var confidence: Float

    /// Whether the predicted intent is the expected one ("no intent" for "no intent" included).
    public var isCorrect: Bool { expected == predicted }

    public init(text: String, expected: String?, predicted: String?, confidence: Float) {
        self.text = text
        self.expected = expected
        self.predicted = predicted
        self.confidence = confidence
    }
}

import Foundation

/// Why a SQuAD dataset cannot be trained on, naming the questions at fault and the way out.
public enum QuestionAnsweringTrainingError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// A question without an answer in a SQuAD v1.1 file, where every question has one.
    case unanswerableInVersion1(questionID: String)
    /// An answer without `answer_start`: where it is in the context is unknown.
    case answerWithoutStart(questionID: String)
    /// With `strict`: answers whose text is not the context's at their `answer_start`.
    case answersNotInContext(questionIDs: [String])
    /// No question is left to train on.
    case noTrainingWindows(skipped: Int)

    public var description: String {
        switch self {
        case let .unanswerableInVersion1(id):
            return "question '\(id)' has no answer, but the file is SQuAD v1.1, where every question has one: "
                + "mark unanswerable questions \"is_impossible\": true in a v2.0 file, or train with unanswerable questions allowed (--version-2-with-negative)"
        case let .answerWithoutStart(id):
            return "question '\(id)': its answer has no \"answer_start\" (the character offset of the answer in the context), which training needs"
        case let .answersNotInContext(ids):
            let shown = ids.prefix(10).map { "'\($0)'" }.joined(separator: ", ")
            return "\(ids.count) answer\(ids.count == 1 ? "'s" : "s'") text is not the context's at answer_start "
                + "(question\(ids.count == 1 ? "" : "s") \(shown)\(ids.count > 10 ? ", ..." : "")): fix them, or train without strict checking to skip them"
        case let .noTrainingWindows(skipped):
            return "no question to train on\(skipped > 0 ? " (all \(skipped) skipped: their answers are not in their contexts at answer_start)" : "")"
        }
    }

    public var errorDescription: String? { description }
}

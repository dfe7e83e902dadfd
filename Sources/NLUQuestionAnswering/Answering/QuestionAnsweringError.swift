import Foundation

/// Why a question cannot be answered: bad input or options, named so the caller can fix them.
public enum QuestionAnsweringError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case emptyQuestion
    case emptyDocument
    /// An ``AnswerOptions`` value out of range.
    case invalidOption(name: String, reason: String)
    /// The question leaves no room for the document in a window.
    case questionTooLong(reason: String)
    /// One question of a dataset (SQuAD `qas[].id`) cannot be answered.
    case question(id: String, reason: String)
    /// The model computed a NaN or an infinity as a start or end logit (finite weights that overflow).
    case nonFiniteLogits(detail: String)
    /// The documents need more windows of `windowLength` tokens than ``AnswerOptions/maxWindows`` allows
    /// (found before the model runs).
    case tooManyWindows(count: Int, limit: Int, windowLength: Int)

    public var description: String {
        switch self {
        case .emptyQuestion: return "the question is empty"
        case .emptyDocument: return "the context is empty"
        case let .invalidOption(name, reason): return "invalid \(name): \(reason)"
        case let .questionTooLong(reason): return "the question is too long for the window: \(reason)"
        case let .question(id, reason): return "question '\(id)': \(reason)"
        case let .nonFiniteLogits(detail):
            return "the model computed a non-finite number (\(detail)): its weights overflow Float arithmetic, "
                + "so no answer can be scored (JSON has no NaN or infinity)"
        case let .tooManyWindows(count, limit, windowLength):
            return "the context needs \(count) windows of \(windowLength) tokens, over the limit of \(limit)"
        }
    }

    public var errorDescription: String? { description }
}

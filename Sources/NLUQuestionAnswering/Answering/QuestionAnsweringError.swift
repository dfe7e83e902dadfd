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

    public var description: String {
        switch self {
        case .emptyQuestion: return "the question is empty"
        case .emptyDocument: return "the context is empty"
        case let .invalidOption(name, reason): return "invalid \(name): \(reason)"
        case let .questionTooLong(reason): return "the question is too long for the window: \(reason)"
        case let .question(id, reason): return "question '\(id)': \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

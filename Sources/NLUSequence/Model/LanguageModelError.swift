import Foundation

/// What went wrong loading, running or training a ``LanguageModel``, with what was expected.
///
///     do { _ = try LanguageModel(contentsOf: url) }
///     catch let error as LanguageModelError { print(error) }   // "… weight tensor 'rnn.weight_hh_l1' has shape …"
public enum LanguageModelError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The manifest's `config` is inconsistent (the message names the field).
    case invalidConfiguration(String)
    /// The weights do not match the configuration (the message names the tensor).
    case weightsMismatch(String)
    /// The corpus has no tokens to train on.
    case emptyCorpus([String])
    /// Every token of the prompt is outside the vocabulary.
    case unknownPrompt(String)
    /// A state tensor of the wrong shape.
    case invalidState(expected: [Int], actual: [Int])
    /// A training or generation option out of range.
    case invalidOption(String, String)
    /// A file that could not be read or written.
    case file(String, String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let message): return "invalid language-model configuration: \(message)"
        case .weightsMismatch(let message): return "model weights do not match the configuration: \(message)"
        case .emptyCorpus(let files):
            return "the corpus has no text to train on (\(files.isEmpty ? "no files" : files.joined(separator: ", ")))"
        case .unknownPrompt(let prompt):
            return "every token of the prompt \"\(prompt)\" is outside the model's vocabulary"
        case let .invalidState(expected, actual):
            return "state tensor has shape \(actual), expected \(expected) ([layers, components, hidden])"
        case let .invalidOption(name, reason): return "\(name): \(reason)"
        case let .file(path, reason): return "\(path): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

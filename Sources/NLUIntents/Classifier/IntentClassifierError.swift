import Foundation

/// Errors from training, loading or running an ``IntentClassifier``.
///
///     catch let error as IntentClassifierError { print(error) }
public enum IntentClassifierError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// A training option is out of range (`option` names it).
    case invalidOption(option: String, reason: String)
    /// The training data yields no features (all utterances empty after tokenization, or pruned).
    case noFeatures(reason: String)
    /// A loaded model is inconsistent (wrong tensor shape, labels not matching the weights).
    case invalidModel(String)
    /// An intent uses the name reserved for the "none" class.
    case reservedIntentName(String)
    /// The model was trained with sentence embeddings, and none (or others) were given to load it.
    case sentenceFeaturizerRequired(model: String, needed: SentenceFeaturizerReference, reason: String)

    public var description: String {
        switch self {
        case let .invalidOption(option, reason): return "invalid \(option): \(reason)"
        case let .noFeatures(reason): return "no features to train on: \(reason)"
        case let .invalidModel(reason): return "invalid intent model: \(reason)"
        case let .reservedIntentName(name): return "the intent name '\(name)' is reserved for the \"none\" class; rename the intent"
        case let .sentenceFeaturizerRequired(model, needed, reason):
            return "\(model): trained with the sentence embeddings of \(needed.model) (\(needed.dimension) values): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

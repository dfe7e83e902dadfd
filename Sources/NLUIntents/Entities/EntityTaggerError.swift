import Foundation

/// Errors from training, loading or running the entity extractors (slot tagger, dictionaries, regexes).
///
///     catch let error as EntityTaggerError { print(error) }   // "invalid regex for entity 'zip': ..."
public enum EntityTaggerError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// A stored tagger is inconsistent (sizes, indices, weights).
    case invalidModel(String)
    /// There is nothing to train on.
    case noTrainingData(String)
    /// A tagger option is out of range (`option` names it).
    case invalidOption(option: String, reason: String)
    /// A pattern of an entity definition is not a valid regular expression.
    case invalidPattern(entity: String, pattern: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidModel(reason): return "invalid entity tagger: \(reason)"
        case let .noTrainingData(reason): return "no entity training data: \(reason)"
        case let .invalidOption(option, reason): return "invalid \(option): \(reason)"
        case let .invalidPattern(entity, pattern, reason): return "invalid regex for entity '\(entity)': '\(pattern)': \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

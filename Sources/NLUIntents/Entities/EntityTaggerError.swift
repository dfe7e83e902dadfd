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
    /// The training data's annotations make so many tags (entity, role and group, in BIO form) that the
    /// CRF's tag-pair weights and training buffers would not fit in half of the memory; `file` names the
    /// dataset when known.
    case tooManyTags(file: String?, count: Int, neededMiB: Int, budgetMiB: Int)

    public var description: String {
        switch self {
        case let .invalidModel(reason): return "invalid entity tagger: \(reason)"
        case let .noTrainingData(reason): return "no entity training data: \(reason)"
        case let .invalidOption(option, reason): return "invalid \(option): \(reason)"
        case let .invalidPattern(entity, pattern, reason): return "invalid regex for entity '\(entity)': '\(pattern)': \(reason)"
        case let .tooManyTags(file, count, needed, budget):
            return (file.map { "\($0): " } ?? "") + "the annotations make \(count) slot tags (each entity with its role and group, "
                + "B- and I-); the CRF has a weight for every pair of tags, and training them needs about \(needed) MiB, more than "
                + "half of this machine's memory (\(budget) MiB): use fewer distinct entity names, roles and groups"
        }
    }

    public var errorDescription: String? { description }
}

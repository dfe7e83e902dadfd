import Foundation

/// Errors from validating or running a ``Model``, each naming the feature at fault.
public enum ModelError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case missingFeature(String, expected: FeatureType)
    case wrongFeatureType(String, expected: FeatureType, actual: FeatureType)
    /// A tensor of the right element type but another shape (`nil` = any length in `expected`).
    case wrongFeatureShape(String, expected: [Int?], actual: [Int])
    case invalidFeatureValue(String, reason: String)

    public var description: String {
        switch self {
        case let .missingFeature(name, expected):
            return "missing input feature '\(name)' (expected \(expected))"
        case let .wrongFeatureType(name, expected, actual):
            return "input feature '\(name)' is a \(actual), expected \(expected)"
        case let .wrongFeatureShape(name, expected, actual):
            let expectedText = expected.map { $0.map(String.init) ?? "?" }.joined(separator: ", ")
            return "input feature '\(name)' has shape \(actual), expected [\(expectedText)]"
        case let .invalidFeatureValue(name, reason):
            return "input feature '\(name)': \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

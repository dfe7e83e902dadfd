/// Errors from validating or running a ``Model``, each naming the feature at fault.
public enum ModelError: Error, Equatable, CustomStringConvertible {
    case missingFeature(String, expected: FeatureType)
    case wrongFeatureType(String, expected: FeatureType, actual: FeatureType)
    case invalidFeatureValue(String, reason: String)

    public var description: String {
        switch self {
        case let .missingFeature(name, expected):
            return "missing input feature '\(name)' (expected \(expected))"
        case let .wrongFeatureType(name, expected, actual):
            return "input feature '\(name)' is a \(actual), expected \(expected)"
        case let .invalidFeatureValue(name, reason):
            return "input feature '\(name)': \(reason)"
        }
    }
}

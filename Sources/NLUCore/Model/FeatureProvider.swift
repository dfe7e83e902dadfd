/// A set of named feature values: what a ``Model`` takes and returns (the `MLFeatureProvider`).
public protocol FeatureProvider: Sendable {
    /// The names of the features this provider has.
    var featureNames: Set<String> { get }
    /// The value of the feature `name`, or `nil` when it has none.
    func featureValue(for name: String) -> FeatureValue?
}

/// A ``FeatureProvider`` backed by a dictionary (the `MLDictionaryFeatureProvider`).
///
///     let input = DictionaryFeatureProvider(["previousWord": .string("the")])
public struct DictionaryFeatureProvider: FeatureProvider, Equatable {
    public var features: [String: FeatureValue]

    public init(_ features: [String: FeatureValue] = [:]) {
        self.features = features
    }

    public var featureNames: Set<String> { Set(features.keys) }

    public func featureValue(for name: String) -> FeatureValue? { features[name] }

    public subscript(name: String) -> FeatureValue? {
        get { features[name] }
        set { features[name] = newValue }
    }
}

/// What a ``Model`` takes and returns: named, typed, shaped features (the `MLModelDescription`).
public struct ModelDescription: Sendable, Equatable {
    /// One named feature of a model's input or output.
    public struct Feature: Sendable, Equatable {
        public var name: String
        public var type: FeatureType
        /// An optional input may be left out (e.g. `stateIn` at the start of a sequence).
        public var isOptional: Bool
        public var summary: String

        public init(name: String, type: FeatureType, isOptional: Bool = false, summary: String = "") {
            self.name = name
            self.type = type
            self.isOptional = isOptional
            self.summary = summary
        }
    }

    public var inputs: [Feature]
    public var outputs: [Feature]
    /// Free-form facts about the model (author, version, training data, ...).
    public var metadata: [String: String]

    public init(inputs: [Feature], outputs: [Feature], metadata: [String: String] = [:]) {
        self.inputs = inputs
        self.outputs = outputs
        self.metadata = metadata
    }

    /// Checks `provider` against ``inputs``: every required feature present, every present one of
    /// the declared type and shape.
    /// - Throws: ``ModelError`` naming the first feature at fault.
    public func validate(_ provider: FeatureProvider) throws {
        for input in inputs {
            guard let value = provider.featureValue(for: input.name) else {
                if input.isOptional { continue }
                throw ModelError.missingFeature(input.name, expected: input.type)
            }
            if case let .tensor(expectedType, expectedShape) = input.type,
               case let .tensor(actualType, actualShape) = value.type, expectedType == actualType,
               !input.type.accepts(value.type) {
                throw ModelError.wrongFeatureShape(input.name, expected: expectedShape, actual: actualShape.compactMap { $0 })
            }
            guard input.type.accepts(value.type) else {
                throw ModelError.wrongFeatureType(input.name, expected: input.type, actual: value.type)
            }
        }
    }
}

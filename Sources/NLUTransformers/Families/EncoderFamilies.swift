import NLUCore

/// The registry of encoder families: `config.json`'s `model_type` picks the ``EncoderFamily`` that reads
/// the rest of the file and builds the encoder.
///
/// Adding a family is one new file in `Sources/NLUTransformers/Families/` (a type conforming to
/// ``EncoderFamily`` and its ``BertConfiguration/Architecture`` constant) and one line in ``byModelType``
/// per `model_type` it answers to (docs/architecture.md, "Adding a model family").
///
///     let family = try EncoderFamilies.family(modelType: "xlm-roberta", architectures: [])
///     print(family.name)   // roberta
package enum EncoderFamilies {
    /// `model_type` → family. When a file has no `model_type`, its `architectures` class names are matched
    /// against each family's ``EncoderFamily/architectureClassPrefixes`` in this order.
    package static let byModelType: [(modelType: String, family: any EncoderFamily.Type)] = [
        ("distilbert", DistilBertFamily.self),
        ("bert", BertFamily.self),
        ("mpnet", MPNetFamily.self),
        ("roberta", RobertaFamily.self),
        ("xlm-roberta", RobertaFamily.self),
    ]

    /// The family `config.json` names by `model_type`, or without one by its `architectures`.
    /// - Throws: ``BertConfigurationError/unsupportedModelType(_:)`` or
    ///   ``BertConfigurationError/unknownArchitecture(_:)`` naming the value and what is supported.
    package static func family(modelType: String?, architectures: [String]) throws -> any EncoderFamily.Type {
        if let modelType {
            guard let entry = byModelType.first(where: { $0.modelType == modelType }) else {
                throw BertConfigurationError.unsupportedModelType(modelType)
            }
            return entry.family
        }
        for (_, family) in byModelType
        where architectures.contains(where: { name in family.architectureClassPrefixes.contains { name.hasPrefix($0) } }) {
            return family
        }
        throw BertConfigurationError.unknownArchitecture(architectures)
    }

    /// The family whose ``EncoderFamily/name`` is `name`.
    package static func family(named name: String) -> (any EncoderFamily.Type)? {
        byModelType.first { $0.family.name == name }?.family
    }

    /// Every `model_type` the registry knows, sorted (for messages).
    package static var modelTypes: [String] { byModelType.map(\.modelType).sorted() }

    /// How messages name the supported models (`BERT`, ..., `XLM-RoBERTa`), sorted.
    package static var displayNames: [String] {
        var names: [String] = []
        for (_, family) in byModelType { names += family.displayNames.filter { !names.contains($0) } }
        return names.sorted()
    }
}

/// Builds the encoder that `configuration` describes from `tensors` (made by
/// ``CheckpointTensors/init(file:family:)``), checking every tensor's presence and shape: its family
/// decides how. The caller loads its head from ``CheckpointTensors/root``, then calls
/// ``CheckpointTensors/verifyAllUsed()``. The dense layers run at `precision`.
package func makeEncoder(configuration: BertConfiguration, tensors: CheckpointTensors,
                         precision: Precision = .f32) throws -> any WorkspaceEncoder {
    try configuration.architecture.family.makeEncoder(configuration: configuration, tensors: tensors, precision: precision)
}

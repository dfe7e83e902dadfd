import NLUCore

/// The intent classifier in the Core-ML-like model API, as SwiftNLC's Core ML model: the input
/// `embeddings` is the utterance's feature vector (a float tensor of the vocabulary's size, as
/// ``TextFeaturizer`` makes it), the output `entities` the probability of each intent (a string →
/// double dictionary; the "none" class under ``IntentClassifier/noneLabel``).
///
///     let x = classifier.featurizer.vector(for: "play jazz").dense(dimension: classifier.featurizer.dimension)
///     let out = try classifier.model.prediction(from: DictionaryFeatureProvider(["embeddings": .floatTensor(Tensor(x))]))
///     out.featureValue(for: "entities")?.dictionaryValue?["play_music"]
public struct IntentModel: Model {
    /// The classifier answering.
    public let classifier: IntentClassifier

    public var modelDescription: ModelDescription {
        ModelDescription(
            inputs: [.init(name: "embeddings", type: .tensor(.float32, shape: [classifier.featurizer.dimension]),
                           summary: "the utterance's feature vector (TextFeaturizer)")],
            outputs: [.init(name: "entities", type: .dictionary, summary: "the probability of each intent")],
            metadata: ["kind": IntentClassifier.modelKind])
    }

    public func prediction(from input: FeatureProvider) throws -> FeatureProvider {
        try modelDescription.validate(input)
        guard let embeddings = input.featureValue(for: "embeddings")?.floatTensorValue else {
            throw ModelError.missingFeature("embeddings", expected: .tensor(.float32, shape: [classifier.featurizer.dimension]))
        }
        let probabilities = classifier.network.probabilities(forDense: embeddings.scalars, temperature: classifier.temperature)
        var entities: [String: Double] = [:]
        for (label, probability) in zip(classifier.labels, probabilities) { entities[label] = Double(probability) }
        return DictionaryFeatureProvider(["entities": .dictionary(entities)])
    }
}

extension IntentClassifier {
    /// The classifier as a Core-ML-like ``IntentModel`` (`embeddings` in, `entities` out).
    public var model: IntentModel { IntentModel(classifier: self) }
}

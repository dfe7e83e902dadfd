import Foundation
import NLUCore

/// A Core ML neural-network model (`.mlmodel`) run on NLUKit's kernels, anywhere Swift runs: named input features
/// in, named outputs out, as `MLModel` does. Reads `neuralNetwork`, `neuralNetworkClassifier`,
/// `neuralNetworkRegressor` and pipelines of them, with FP32, FP16, linear-quantized and lookup-table weights
/// (the supported layers are listed in docs/coreml.md).
///
///     let model = try CoreMLModel(contentsOf: URL(fileURLWithPath: "Intents.mlmodel"))
///     let output = try model.prediction(from: DictionaryFeatureProvider(["embeddings": .floatTensor(vector)]))
///     print(output.featureValue(for: "label")?.stringValue ?? "")
///
/// A classifier returns its label (`predictedFeatureName`) and the label → probability dictionary
/// (`predictedProbabilitiesName`). Recurrent state inputs (e.g. an LSTM's `stateIn`) are optional: leave them out at
/// the start of a sequence (zeros), then pass each step's `stateOut` back in.
public struct CoreMLModel: Model {
    public let modelDescription: ModelDescription
    /// The file's Core ML specification version.
    public let specificationVersion: Int
    /// The model type as the `.proto` names it: `neuralNetwork`, `neuralNetworkClassifier`, `pipeline`, …
    public let modelType: String
    /// How many layers of each kind the model has (over all stages of a pipeline).
    public let layerCounts: [String: Int]

    private enum Engine: Sendable {
        case network(NeuralNetworkRunner)
        case pipeline([CoreMLModel])
    }

    private let engine: Engine

    /// Loads the `.mlmodel` file at `url`.
    /// - Throws: ``CoreMLError`` when the file is not a model, needs a newer specification, or holds a model type
    ///   or layer that is not supported (naming it).
    public init(contentsOf url: URL) throws {
        let specification = try SpecificationReader.read(contentsOf: url)
        do {
            try self.init(specification: specification)
        } catch let error as CoreMLError {
            throw CoreMLError.inFile(url.path, error)
        }
    }

    /// Loads a model from the bytes of a `.mlmodel` file.
    public init(data: Data) throws {
        try self.init(specification: try SpecificationReader.decode(data, path: "<data>"))
    }

    /// `budget` counts the decoded weights of the whole model: one per load, shared by a pipeline's stages.
    init(specification spec: CoreML_Specification_Model, budget: WeightBudget = WeightBudget()) throws {
        try SpecificationReader.checkVersion(spec)
        specificationVersion = Int(spec.specificationVersion)
        modelType = SpecificationReader.typeName(of: spec)
        let description = spec.description_p
        let inputs = try description.input.map(FeatureSpecification.init)
        let outputs = try description.output.map(FeatureSpecification.init)
        var metadata = description.metadata.userDefined
        for (key, value) in [("author", description.metadata.author), ("shortDescription", description.metadata.shortDescription),
                             ("license", description.metadata.license), ("version", description.metadata.versionString)] where !value.isEmpty {
            metadata[key] = value
        }
        modelDescription = ModelDescription(inputs: inputs.map(\.feature), outputs: outputs.map(\.feature), metadata: metadata)

        switch spec.type {
        case .neuralNetwork(let network):
            let runner = try NeuralNetworkRunner(layers: network.layers, arrayMapping: network.arrayInputShapeMapping,
                                                 inputs: inputs, outputs: outputs, classification: nil, budget: budget)
            engine = .network(runner)
            layerCounts = runner.layerCounts
        case .neuralNetworkRegressor(let network):
            let runner = try NeuralNetworkRunner(layers: network.layers, arrayMapping: network.arrayInputShapeMapping,
                                                 inputs: inputs, outputs: outputs, classification: nil, budget: budget)
            engine = .network(runner)
            layerCounts = runner.layerCounts
        case .neuralNetworkClassifier(let network):
            let classification = try Self.classification(network, description: description)
            let runner = try NeuralNetworkRunner(layers: network.layers, arrayMapping: network.arrayInputShapeMapping,
                                                 inputs: inputs, outputs: outputs, classification: classification, budget: budget)
            engine = .network(runner)
            layerCounts = runner.layerCounts
        case .pipeline(let pipeline):
            (engine, layerCounts) = try Self.stages(pipeline.models, budget: budget)
        case .pipelineClassifier(let classifier):
            (engine, layerCounts) = try Self.stages(classifier.pipeline.models, budget: budget)
        case .pipelineRegressor(let regressor):
            (engine, layerCounts) = try Self.stages(regressor.pipeline.models, budget: budget)
        default:
            throw CoreMLError.unsupportedModelType(modelType)
        }
    }

    private static func stages(_ models: [CoreML_Specification_Model], budget: WeightBudget) throws -> (Engine, [String: Int]) {
        guard !models.isEmpty else { throw CoreMLError.invalidModel("the pipeline has no models") }
        let stages = try models.map { try CoreMLModel(specification: $0, budget: budget) }
        let counts = stages.reduce(into: [String: Int]()) { total, stage in total.merge(stage.layerCounts, uniquingKeysWith: +) }
        return (.pipeline(stages), counts)
    }

    private static func classification(_ network: CoreML_Specification_NeuralNetworkClassifier,
                                       description: CoreML_Specification_ModelDescription) throws -> NeuralNetworkRunner.Classification {
        let labels: NeuralNetworkRunner.Classification.Labels
        switch network.classLabels {
        case .stringClassLabels(let vector):
            try checkDistinct(vector.vector, field: "stringClassLabels")
            labels = .strings(vector.vector)
        case .int64ClassLabels(let vector):
            try checkDistinct(vector.vector, field: "int64ClassLabels")
            labels = .integers(vector.vector)
        case nil: throw CoreMLError.invalidModel("the classifier has no class labels")
        }
        guard !description.predictedFeatureName.isEmpty else {
            throw CoreMLError.invalidModel("the classifier names no predicted feature (predictedFeatureName)")
        }
        let probabilities = description.predictedProbabilitiesName.isEmpty ? nil : description.predictedProbabilitiesName
        // Core ML reads the probabilities from labelProbabilityLayerName, else from the blob named like the
        // probabilities output, else from the last layer.
        let made = Set(network.layers.flatMap(\.output))
        let blob: String
        if !network.labelProbabilityLayerName.isEmpty {
            blob = network.labelProbabilityLayerName
        } else if let probabilities, made.contains(probabilities) {
            blob = probabilities
        } else if let last = network.layers.last?.output.first {
            blob = last
        } else {
            throw CoreMLError.invalidModel("the classifier has no layer that makes its probabilities")
        }
        return .init(labels: labels, probabilityBlob: blob, labelFeature: description.predictedFeatureName,
                     probabilitiesFeature: probabilities)
    }

    /// The class labels key the probabilities output (label → probability): a label listed twice would have two
    /// probabilities and no single answer, and made building that dictionary trap at the first prediction.
    private static func checkDistinct<Label: Hashable>(_ labels: [Label], field: String) throws {
        var firstPosition = [Label: Int]()
        for (position, label) in labels.enumerated() {
            if let first = firstPosition.updateValue(position, forKey: label) {
                throw CoreMLError.invalidModel("the classifier's \(field) lists '\(label)' twice (at \(first) and \(position)); class labels must be distinct")
            }
        }
    }

    /// Runs the model on one input.
    /// - Throws: `ModelError` for a missing or misshapen input (naming the feature, expected and given shape),
    ///   ``CoreMLError`` when a layer cannot run on what it is given.
    public func prediction(from input: FeatureProvider) throws -> FeatureProvider {
        switch engine {
        case .network(let runner):
            return DictionaryFeatureProvider(try runner.predict(input))
        case .pipeline(let stages):
            var pool = DictionaryFeatureProvider()
            for name in input.featureNames { pool[name] = input.featureValue(for: name) }
            for stage in stages {
                let output = try stage.prediction(from: pool)
                for name in output.featureNames { pool[name] = output.featureValue(for: name) }
            }
            var result = DictionaryFeatureProvider()
            for output in modelDescription.outputs {
                guard let value = pool[output.name] else { throw CoreMLError.invalidModel("no pipeline stage makes output '\(output.name)'") }
                result[output.name] = value
            }
            return result
        }
    }
}

import ArgumentParser
import Foundation
import NLUKit

/// `nlu coreml info FILE`: a model's inputs, outputs, layer counts and metadata.
struct CoreMLInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a Core ML model's inputs and outputs (with types and shapes), its layers by kind, and its metadata.",
        discussion: """
        With --json: {"type", "specificationVersion", "inputs": [{"name", "type", "shape", "optional", \
        "description"}], "outputs": [...], "layers": {kind: count}, "metadata": {key: value}}; a shape lists \
        null for a flexible dimension.

        Example: nlu coreml info Intents.mlmodel
        """)

    @Argument(help: ArgumentHelp("The .mlmodel file.", valueName: "file"))
    var file: String

    @Flag(help: "Print one JSON object on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func run() throws {
        let model = try CoreMLModel(contentsOf: URL(fileURLWithPath: file))
        let description = model.modelDescription
        if json {
            Console.write(try Console.json(ModelInfo(model)) + "\n")
            return
        }
        var out = "\(file): \(model.modelType) (Core ML specification version \(model.specificationVersion))\n"
        func features(_ title: String, _ list: [ModelDescription.Feature]) {
            out += "\(title):\n"
            let width = list.map(\.name.count).max() ?? 0
            for feature in list {
                out += "  " + feature.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(feature.type)"
                out += (feature.isOptional ? "  (optional)" : "") + (feature.summary.isEmpty ? "" : "  \(feature.summary)") + "\n"
            }
        }
        features("inputs", description.inputs)
        features("outputs", description.outputs)
        let total = model.layerCounts.values.reduce(0, +)
        out += "layers: \(total)" + (total == 0 ? "" : " (" + model.layerCounts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")") + "\n"
        if !description.metadata.isEmpty {
            out += "metadata:\n" + description.metadata.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)\n" }.joined()
        }
        Console.write(out)
    }
}

/// The `--json` form of `nlu coreml info`.
private struct ModelInfo: Encodable {
    struct Feature: Encodable {
        var name: String
        var type: String
        var shape: [Int?]?
        var optional: Bool
        var description: String
    }

    var type: String
    var specificationVersion: Int
    var inputs: [Feature]
    var outputs: [Feature]
    var layers: [String: Int]
    var metadata: [String: String]

    init(_ model: CoreMLModel) {
        func convert(_ feature: ModelDescription.Feature) -> Feature {
            var typeName = "\(feature.type)", shape: [Int?]? = nil
            if case let .tensor(dataType, dimensions) = feature.type {
                typeName = "\(dataType)"
                shape = dimensions
            }
            return Feature(name: feature.name, type: typeName, shape: shape, optional: feature.isOptional, description: feature.summary)
        }
        type = model.modelType
        specificationVersion = model.specificationVersion
        inputs = model.modelDescription.inputs.map(convert)
        outputs = model.modelDescription.outputs.map(convert)
        layers = model.layerCounts
        metadata = model.modelDescription.metadata
    }
}

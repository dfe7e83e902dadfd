import ArgumentParser
import Foundation
import NLUKit

/// `nlu coreml predict FILE --input JSON`: one prediction, printed as JSON.
struct CoreMLPredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Run a Core ML model on one input and print {\"outputs\": {name: value}}.",
        discussion: """
        --input is a JSON object of feature name → number, (nested) array of numbers, string, or object; \
        @FILE reads it from a file, @- from standard input. Multi-array outputs print as nested arrays, a \
        classifier's label as a string and its probabilities as an object of label → probability.

        Example: nlu coreml predict Intents.mlmodel --input '{"embeddings": [0.5, -1.2, 0.3, 0.8, 0, 1, -0.4, 0.2]}'
        """)

    @Argument(help: ArgumentHelp("The .mlmodel file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The input features as a JSON object, or @FILE to read them from a file.", valueName: "json"))
    var input: String

    // The output is JSON either way; the flag is accepted so that --json works on every subcommand.
    @Flag(help: "Print the JSON object on stdout (the default: the output is always JSON).")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func run() throws {
        let model = try CoreMLModel(contentsOf: URL(fileURLWithPath: file))
        let json = input.hasPrefix("@") ? try Console.readData(path: String(input.dropFirst())) : Data(input.utf8)
        let features = try FeatureJSON.provider(from: json, for: model.modelDescription)
        let output = try model.prediction(from: features)
        Console.write(String(decoding: try FeatureJSON.data(from: output), as: UTF8.self) + "\n")
    }
}

import ArgumentParser
import Foundation
import NLUKit

/// `nlu intents import`: turns a platform export into NLUKit's dataset JSON.
struct IntentsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert an NLU platform export into an NLUKit intent dataset (JSON).",
        discussion: """
        Inputs: every format in docs/formats.md (Watson, Lex, Dialogflow ES and CX, Alexa, Rasa, LUIS JSON \
        and .lu, Azure CLU, watsonx actions, Snips, CSV), a file, a folder or a .zip. Several inputs are \
        merged (e.g. one Snips file per intent). Utterances an export marks as test data (CLU's \
        dataset "Test") go to a second dataset, --test-output (default: OUTPUT with .test before its \
        extension), for `nlu intents evaluate --model M TEST`. Outputs are written atomically, and \
        replace only an NLUKit dataset or an empty file (a re-run over its own output) unless --force.
        """)

    @Argument(help: "The export(s) to import.")
    var inputs: [String]

    @OptionGroup var input: DatasetInputOptions

    @Option(name: .shortAndLong, help: "Where to write the dataset JSON.")
    var output: String

    @Option(name: .customLong("test-output"),
            help: "Where to write the export's test utterances, when it marks some (default: OUTPUT with .test before the extension).")
    var testOutput: String?

    @Flag(help: "Replace an existing file at --output or the test split's path even when it is not an NLUKit dataset.")
    var force = false

    @Flag(help: "Print a JSON summary on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func validate() throws {
        guard !output.isEmpty else { throw ValidationError("--output is empty; give a file path") }
        // The test split written over the training set would lose it: a usage error, caught before any work.
        let outputURL = URL(fileURLWithPath: output)
        if let testOutput {
            if OutputPath.isSameDestination(URL(fileURLWithPath: testOutput), outputURL) {
                throw ValidationError("--test-output \(testOutput) is the same file as --output \(output); give the test split another path")
            }
        } else if OutputPath.isSameDestination(URL(fileURLWithPath: Self.testPath(for: output)), outputURL) {
            throw ValidationError("the default test-split path \(Self.testPath(for: output)) (--output with .test before the extension) "
                                  + "is the same file as --output \(output); choose another with --test-output")
        }
    }

    func run() throws {
        try Console.checkOutput(output, inputs: inputs)
        let replace = "choose another path, move it away, or pass --force to replace it"
        try OwnOutputs.dataset.checkReplaceable(URL(fileURLWithPath: output), force: force, remedy: replace)
        let testPath = testOutput ?? Self.testPath(for: output)
        try Console.checkOutput(testPath, flag: "--test-output", inputs: inputs + [output])
        let result = try input.load(inputs)
        let dataset = result.dataset
        // The test path is written only when the export marks test utterances: only then may what is there stop the import.
        if result.testDataset != nil {
            try OwnOutputs.dataset.checkReplaceable(
                URL(fileURLWithPath: testPath), force: force,
                role: testOutput == nil ? "the default test-split path: --output with .test before the extension" : nil,
                remedy: testOutput == nil ? "choose another with --test-output, move it away, or pass --force to replace it" : replace)
        }
        try dataset.save(to: URL(fileURLWithPath: output))
        var summary = Summary(format: result.format.rawValue, intents: dataset.intents.count,
                              utterances: dataset.utteranceCount, counterexamples: dataset.counterexamples.count,
                              entities: dataset.entities.count, warnings: result.warnings.count, output: output)
        if let test = result.testDataset {
            try test.save(to: URL(fileURLWithPath: testPath))
            summary.testUtterances = test.utteranceCount + test.counterexamples.count
            summary.testOutput = testPath
        }
        if json {
            Console.print(try Console.json(summary, sortedKeys: false))
        } else {
            let warned = summary.warnings == 0 ? "" : ", \(summary.warnings) warning(s)"
            Console.print("imported \(Console.count(summary.intents, "intent")), \(Console.count(summary.utterances, "utterance")), \(Console.count(summary.counterexamples, "counterexample")), \(Console.count(summary.entities, "entity", plural: "entities")) (\(result.format.summary)\(warned)) → \(output)")
            if let count = summary.testUtterances, let path = summary.testOutput {
                Console.print("test split: \(count) utterances → \(path)")
            }
        }
    }

    /// `car.json` → `car.test.json` (`car` → `car.test.json`).
    static func testPath(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        let stem = url.deletingPathExtension().lastPathComponent
        let ext = url.pathExtension.isEmpty ? "json" : url.pathExtension
        let name = "\(stem).test.\(ext)"
        return output.contains("/") ? url.deletingLastPathComponent().appendingPathComponent(name).path : name
    }

    struct Summary: Encodable {
        var format: String
        var intents: Int
        var utterances: Int
        var counterexamples: Int
        var entities: Int
        var warnings: Int
        var output: String
        var testUtterances: Int?
        var testOutput: String?
    }
}

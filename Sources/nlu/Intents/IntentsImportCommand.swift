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
        and .lu, Azure CLU, watsonx actions, Snips, CLINC150, CSV), a file, a folder or a .zip. Several inputs are \
        merged (e.g. one Snips file per intent). Utterances an export marks as test data (CLU's \
        dataset "Test", CLINC150's test split) go to a second dataset, --test-output (default: OUTPUT with .test before its \
        extension), for `nlu intents evaluate --model M TEST`; those it marks for validation (CLINC150's val \
        split) to a third, --validation-output (default: OUTPUT with .validation before its extension), for \
        `nlu intents train --calibration-file` or --validation-file. Outputs are written atomically, and \
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

    @Option(name: .customLong("validation-output"),
            help: "Where to write the export's validation utterances, when it marks some (default: OUTPUT with .validation before the extension).")
    var validationOutput: String?

    @Flag(help: "Replace an existing file at --output or a split's path even when it is not an NLUKit dataset.")
    var force = false

    @Flag(help: "Print a JSON summary on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    /// The held-out splits an export may mark, each with its flag and where it goes.
    private var splits: [(name: String, flag: String, given: String?, path: String)] {
        [("test", "--test-output", testOutput, testOutput ?? Self.splitPath(for: output, split: "test")),
         ("validation", "--validation-output", validationOutput, validationOutput ?? Self.splitPath(for: output, split: "validation"))]
    }

    func validate() throws {
        guard !output.isEmpty else { throw ValidationError("--output is empty; give a file path") }
        // A split written over the training set (or over the other split) would lose it: a usage error, caught before any work.
        var taken = [(flag: "--output", path: output)]
        for split in splits {
            let described = split.given == nil
                ? "the default \(split.name)-split path \(split.path) (--output with .\(split.name) before the extension)" : "\(split.flag) \(split.path)"
            if let other = taken.first(where: { OutputPath.isSameDestination(URL(fileURLWithPath: split.path), URL(fileURLWithPath: $0.path)) }) {
                throw ValidationError("\(described) is the same file as \(other.flag) \(other.path); "
                                      + (split.given == nil ? "choose another with \(split.flag)" : "give the \(split.name) split another path"))
            }
            taken.append((split.flag, split.path))
        }
    }

    func run() throws {
        try Console.checkOutput(output, inputs: inputs)
        let replace = "choose another path, move it away, or pass --force to replace it"
        try OwnOutputs.dataset.checkReplaceable(URL(fileURLWithPath: output), force: force, remedy: replace)
        for split in splits { try Console.checkOutput(split.path, flag: split.flag, inputs: inputs + [output]) }
        let result = try input.load(inputs)
        let dataset = result.dataset
        let held = [result.testDataset, result.validationDataset]
        // A split's path is written only when the export marks such utterances: only then may what is there stop the import.
        for (split, part) in zip(splits, held) where part != nil {
            try OwnOutputs.dataset.checkReplaceable(
                URL(fileURLWithPath: split.path), force: force,
                role: split.given == nil ? "the default \(split.name)-split path: --output with .\(split.name) before the extension" : nil,
                remedy: split.given == nil ? "choose another with \(split.flag), move it away, or pass --force to replace it" : replace)
        }
        try dataset.save(to: URL(fileURLWithPath: output))
        var summary = Summary(format: result.format.rawValue, intents: dataset.intents.count,
                              utterances: dataset.utteranceCount, counterexamples: dataset.counterexamples.count,
                              entities: dataset.entities.count, warnings: result.warnings.count, output: output)
        if let test = result.testDataset {
            try test.save(to: URL(fileURLWithPath: splits[0].path))
            summary.testUtterances = test.utteranceCount + test.counterexamples.count
            summary.testOutput = splits[0].path
        }
        if let validation = result.validationDataset {
            try validation.save(to: URL(fileURLWithPath: splits[1].path))
            summary.validationUtterances = validation.utteranceCount + validation.counterexamples.count
            summary.validationOutput = splits[1].path
        }
        if json {
            Console.print(try Console.json(summary, sortedKeys: false))
        } else {
            let warned = summary.warnings == 0 ? "" : ", \(summary.warnings) warning(s)"
            Console.print("imported \(Console.count(summary.intents, "intent")), \(Console.count(summary.utterances, "utterance")), \(Console.count(summary.counterexamples, "counterexample")), \(Console.count(summary.entities, "entity", plural: "entities")) (\(result.format.summary)\(warned)) → \(output)")
            if let count = summary.testUtterances, let path = summary.testOutput {
                Console.print("test split: \(count) utterances → \(path)")
            }
            if let count = summary.validationUtterances, let path = summary.validationOutput {
                Console.print("validation split: \(count) utterances → \(path)")
            }
        }
    }

    /// `car.json` → `car.test.json` (`car` → `car.test.json`) for the split `test`.
    static func splitPath(for output: String, split: String) -> String {
        let url = URL(fileURLWithPath: output)
        let stem = url.deletingPathExtension().lastPathComponent
        let ext = url.pathExtension.isEmpty ? "json" : url.pathExtension
        let name = "\(stem).\(split).\(ext)"
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
        var validationUtterances: Int?
        var validationOutput: String?
    }
}

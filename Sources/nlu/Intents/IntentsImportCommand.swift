import ArgumentParser
import Foundation
import NLUKit

/// `nlu intents import`: turns a platform export into NLUKit's dataset JSON.
struct IntentsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert an NLU platform export into an NLUKit intent dataset (JSON).",
        discussion: """
        Inputs: Watson Assistant workspace JSON, Watson NLC CSV, Lex V1 JSON, Lex V2 (.zip or folder), \
        Dialogflow ES (.zip or folder), Alexa interaction model, Rasa YAML / legacy JSON / legacy Markdown, \
        LUIS JSON, Snips benchmark JSON, CSV text,intent. Several inputs are merged (e.g. one Snips file per \
        intent). The output is written atomically.
        """)

    @Argument(help: "The export(s) to import.")
    var inputs: [String]

    @OptionGroup var input: DatasetInputOptions

    @Option(name: .shortAndLong, help: "Where to write the dataset JSON.")
    var output: String

    @Flag(help: "Print a JSON summary on stdout.")
    var json = false

    func validate() throws {
        guard !output.isEmpty else { throw ValidationError("--output is empty; give a file path") }
    }

    func run() throws {
        try Console.checkOutput(output, inputs: inputs)
        let result = try input.load(inputs)
        let dataset = result.dataset
        try dataset.save(to: URL(fileURLWithPath: output))
        let summary = Summary(format: result.format.rawValue, intents: dataset.intents.count,
                              utterances: dataset.utteranceCount, counterexamples: dataset.counterexamples.count,
                              entities: dataset.entities.count, output: output)
        if json {
            Console.print(try Console.json(summary, sortedKeys: false))
        } else {
            Console.print("imported \(summary.intents) intents, \(summary.utterances) utterances, \(summary.counterexamples) counterexamples, \(summary.entities) entities (\(result.format.summary)) → \(output)")
        }
    }

    struct Summary: Encodable {
        var format: String
        var intents: Int
        var utterances: Int
        var counterexamples: Int
        var entities: Int
        var output: String
    }
}

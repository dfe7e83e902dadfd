import ArgumentParser
import Foundation
import NLUKit

/// `nlu dialogue import`: a platform's dialogue into NLUKit's dialogue JSON.
struct DialogueImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a platform's dialogue (Watson Assistant dialog_nodes, a Rasa project, a Lex V2 bot, an Alexa dialog model, a Dialogflow ES agent, a Dialogflow CX agent's flows and pages) into an NLUKit dialogue (JSON).",
        discussion: """
        What the dialogue language of the platform has beyond what NLUKit runs is listed as warnings on stderr, \
        by node id (see docs/dialogue.md). The dialogue is checked as `nlu dialogue chat` loads it before it is \
        written. The output is written atomically, and replaces only an NLUKit dialogue or an empty file unless --force.
        """)

    @Argument(help: "The export (\"-\": standard input): a JSON file, a Rasa project folder, or a Lex V2 bot or Dialogflow ES or CX agent (folder or zip).")
    var input: String

    @Option(name: .shortAndLong, help: "Where to write the dialogue JSON.")
    var output: String

    @Flag(help: "Replace an existing file at --output even when it is not an NLUKit dialogue.")
    var force = false

    @Flag(help: "Print a JSON summary on stdout: {\"nodes\", \"output\", \"warnings\"}.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func run() throws {
        try Console.checkOutput(output, inputs: [input])
        try DialogueImporter.ownOutput.checkReplaceable(URL(fileURLWithPath: output), force: force,
                                                        remedy: "choose another path, move it away, or pass --force to replace it")
        let file = input == "-" ? "standard input" : input
        let (model, warnings) = try DialogueLoading.read(input)
        for warning in warnings { Console.log("warning: \(warning)") }
        do {
            _ = try Dialogue(model)
        } catch {
            throw InputError("\(file): \(error)")
        }
        let data = try model.encoded()
        try AtomicFile.write(to: URL(fileURLWithPath: output)) { try $0.write(data) }
        if json {
            struct Summary: Encodable { var nodes: Int, warnings: Int, output: String }
            Console.print(try Console.json(Summary(nodes: model.nodes.count, warnings: warnings.count, output: output)))
        } else if let rules = model.rules {
            Console.log("Imported \(Console.count(rules.rules.count, "rule")) and stories, \(Console.count(rules.forms.count, "form")), "
                        + "\(Console.count(rules.responses.count, "response")) → \(output)"
                        + (warnings.isEmpty ? "" : ", \(Console.count(warnings.count, "warning"))"))
        } else {
            Console.log("Imported \(Console.count(model.nodes.count, "node")) → \(output)"
                        + (warnings.isEmpty ? "" : ", \(Console.count(warnings.count, "warning"))"))
        }
    }
}

import ArgumentParser
import Foundation
import NLUKit

/// `nlu intents export`: writes a dataset in another platform's format (Rasa YAML, Azure CLU JSON,
/// Bot Framework .lu, Dialogflow CX zip).
struct IntentsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an intent dataset as Rasa YAML, Azure CLU JSON, a .lu file or a Dialogflow CX agent (.zip).",
        discussion: """
        DATASET is NLUKit's dataset JSON or any importable export (detected). What a format cannot hold \
        (roles in CLU, closed lists in .lu, ...) is listed as warnings on stderr; docs/formats.md has the \
        details. The output is written atomically; importing it gives back the dataset. An existing file \
        at --output is replaced only when it is an export of the same format written by nlu (a re-run) \
        or empty, unless --force.
        """)

    @Argument(help: "The dataset (NLUKit JSON or any importable export).")
    var dataset: String

    @Option(help: ArgumentHelp("The format to write.", valueName: ExportFormat.allCases.map(\.rawValue).joined(separator: "|")))
    var format: ExportFormat

    @Option(name: .shortAndLong, help: "Where to write the export (for dialogflow-cx, a .zip file).")
    var output: String

    @Option(help: "Language to read from a multi-language input export, e.g. en.")
    var language: String?

    @Flag(help: "Replace an existing file at --output even when it is not an export of this format written by nlu.")
    var force = false

    @Flag(help: "Print a JSON summary on stdout.")
    var json = false

    func validate() throws {
        try DatasetInputOptions.checkLanguage(language)
    }

    func run() throws {
        try Console.checkOutput(output, inputs: [dataset])
        try OwnOutputs.export(format).checkReplaceable(URL(fileURLWithPath: output), force: force,
                                                       remedy: "choose another path, move it away, or pass --force to replace it")
        let imported = try IntentImporter.importDataset(from: [URL(fileURLWithPath: dataset)], options: ImportOptions(language: language))
        for warning in imported.warnings { Console.log("warning: \(warning)") }
        let result = try IntentExporter.export(imported.dataset, format: format)
        for warning in result.warnings { Console.log("warning: \(warning)") }
        try AtomicFile.write(to: URL(fileURLWithPath: output)) { try $0.write(result.data) }
        let summary = Summary(format: format.rawValue, intents: imported.dataset.intents.count,
                              utterances: imported.dataset.utteranceCount, counterexamples: imported.dataset.counterexamples.count,
                              entities: imported.dataset.entities.count, warnings: result.warnings.count, bytes: result.data.count, output: output)
        if json {
            Console.print(try Console.json(summary, sortedKeys: false))
        } else {
            let warned = summary.warnings == 0 ? "" : ", \(summary.warnings) warning(s)"
            Console.print("exported \(Console.count(summary.intents, "intent")), \(Console.count(summary.utterances, "utterance")), \(Console.count(summary.counterexamples, "counterexample")), \(Console.count(summary.entities, "entity", plural: "entities")) as \(format.rawValue)\(warned) → \(output)")
        }
    }

    struct Summary: Encodable {
        var format: String
        var intents: Int
        var utterances: Int
        var counterexamples: Int
        var entities: Int
        var warnings: Int
        var bytes: Int
        var output: String
    }
}

extension ExportFormat: ExpressibleByArgument {}

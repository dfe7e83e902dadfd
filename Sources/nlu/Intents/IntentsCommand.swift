import ArgumentParser
import Foundation
import NLUKit

/// `nlu intents`: import intent datasets from NLU platforms, train classifiers, predict, evaluate.
struct IntentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intents",
        abstract: "Intent classification: import platform exports, train locally, predict, evaluate, export.",
        discussion: """
        Datasets: NLUKit's JSON form or any supported export, detected from the content (--format to override): \
        \(DatasetFormat.allCases.map(\.rawValue).joined(separator: ", ")). Models are .nlumodel packages \
        (kind "intent-classifier"); see docs/intents.md.
        """,
        subcommands: [
            IntentsImportCommand.self,
            IntentsExportCommand.self,
            IntentsTrainCommand.self,
            IntentsPredictCommand.self,
            IntentsEvaluateCommand.self,
        ]
    )
}

extension DatasetFormat: ExpressibleByArgument {}
extension FeatureOptions.Weighting: ExpressibleByArgument {}
extension TrainingOptions.ClassWeighting: ExpressibleByArgument {}
extension SlotTaggerOptions.Kind: ExpressibleByArgument {}
extension FineTuningMetric: ExpressibleByArgument {}

/// Dataset input options shared by `import`, `train` and `evaluate`.
struct DatasetInputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The input format (default: detected).",
                               valueName: DatasetFormat.allCases.map(\.rawValue).joined(separator: "|")))
    var format: DatasetFormat?

    @Option(name: .customLong("out-of-scope-label"),
            help: "An intent label whose utterances are out of scope (the \"none\" class); repeatable. Default: none, out_of_scope, oos, irrelevant, nlu_fallback.")
    var outOfScopeLabels: [String] = []

    @Option(help: "The dataset's language, e.g. fr or pt-BR: the one read from multi-language exports (Dialogflow ES/CX, Lex V2, CLU, a .lu folder of several cultures, an Alexa skill package) and from several inputs in different languages (the others are left out), and the stemmer's (it overrides the export's, with a warning). A language code: 'e!' is refused.")
    var language: String?

    func validate() throws {
        try Self.checkLanguage(language)
    }

    /// A `--language` that is not a language code is a usage error (exit 2) listing the supported ones;
    /// a code without a stemmer trains on unstemmed words, with a warning (``IntentLanguage``).
    static func checkLanguage(_ code: String?) throws {
        guard let code else { return }
        do { _ = try IntentLanguage(code: code, place: "--language") } catch { throw ValidationError(error.description) }
    }

    var importOptions: ImportOptions {
        ImportOptions(format: format,
                      outOfScopeLabels: outOfScopeLabels.isEmpty ? ImportOptions.defaultOutOfScopeLabels : Set(outOfScopeLabels),
                      language: language)
    }

    /// Imports `paths` (merged when several), printing warnings on stderr.
    func load(_ paths: [String]) throws -> ImportResult {
        let result = try IntentImporter.importDataset(from: paths.map(Console.inputFile), options: importOptions)
        for warning in result.warnings { Console.log("warning: \(warning)") }
        return result
    }
}

/// Shared output helpers of the `nlu intents` subcommands.
enum IntentsOutput {
    /// "1-2" → 1...2 (n-gram ranges).
    static func range(_ text: String, option: String) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        if parts.count == 1, let n = parts[0], n >= 1 { return n...n }
        guard parts.count == 2, let low = parts[0], let high = parts[1], low >= 1, low <= high, high <= 20 else {
            throw ValidationError("\(option) expects a range like 1-2 (lengths 1 to 20), got '\(text)'")
        }
        return low...high
    }
}

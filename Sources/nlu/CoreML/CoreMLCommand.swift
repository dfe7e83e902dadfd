import ArgumentParser

/// `nlu coreml`: Core ML neural-network models (`.mlmodel`) inspected and run without Core ML.
struct CoreMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coreml",
        abstract: "Inspect and run Core ML neural-network models (.mlmodel) on any platform.",
        discussion: "Supported model types, layers and weight forms: docs/coreml.md.",
        subcommands: [CoreMLInfoCommand.self, CoreMLPredictCommand.self]
    )
}

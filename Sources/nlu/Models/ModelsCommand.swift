import ArgumentParser

/// `nlu models`: the models NLUKit finds by name.
struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "Models in the Hugging Face cache (what --model ORG/NAME finds): list, download.",
        subcommands: [ModelsListCommand.self, ModelsDownloadCommand.self])
}

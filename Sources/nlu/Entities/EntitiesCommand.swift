import ArgumentParser
import NLUKit

/// `nlu entities`: built-in entities (numbers, money, dates…) found and resolved.
struct EntitiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entities",
        abstract: "Built-in entities: numbers, ordinals, percentages, money, temperatures, ages, dimensions, e-mails, URLs, phone numbers, dates and times.",
        discussion: "Resolutions follow LUIS / Microsoft Recognizers-Text; see docs/builtins.md.",
        subcommands: [EntitiesExtractCommand.self]
    )
}

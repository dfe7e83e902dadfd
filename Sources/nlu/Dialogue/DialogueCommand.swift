import ArgumentParser
import NLUKit

/// `nlu dialogue`: run a bot's dialogue offline (NLUKit's dialogue file, or a Watson Assistant workspace's
/// dialog), and import platform dialogues into NLUKit's format.
struct DialogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dialogue",
        abstract: "Conversations: chat with a bot's dialogue offline, import a platform's dialogue.",
        discussion: """
        A dialogue is NLUKit's dialogue JSON ("format": "nlu-dialogue") or a Watson Assistant workspace with \
        dialog_nodes, told apart by content. See docs/dialogue.md.
        """,
        subcommands: [DialogueChatCommand.self, DialogueImportCommand.self]
    )
}

/// Loads the dialogue at `path` (either kind), logging what its import could not map.
enum DialogueLoading {
    static func load(_ path: String) throws -> Dialogue {
        let (model, warnings) = try DialogueImporter.read(try Console.readData(path: path), file: path == "-" ? "standard input" : path)
        for warning in warnings { Console.log("warning: \(warning)") }
        do {
            return try Dialogue(model)
        } catch {
            throw InputError("\(path): \(error)")
        }
    }
}

import ArgumentParser
import Foundation
import NLUKit

/// `nlu dialogue`: run a bot's dialogue offline (NLUKit's dialogue file, or a Watson Assistant workspace's
/// dialog), and import platform dialogues into NLUKit's format.
struct DialogueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dialogue",
        abstract: "Conversations: chat with a bot's dialogue offline, import a platform's dialogue.",
        discussion: """
        A dialogue is NLUKit's dialogue JSON ("format": "nlu-dialogue"), a Watson Assistant workspace with \
        dialog_nodes or an Alexa interaction model with a dialog (told apart by content), a Rasa project folder \
        (domain.yml, data/ rules and stories), or a Lex V2 bot export or Dialogflow ES or CX agent (a folder or zip). \
        See docs/dialogue.md.
        """,
        subcommands: [DialogueChatCommand.self, DialogueImportCommand.self]
    )
}

/// Loads the dialogue at `path` (any kind), logging what its import could not map.
enum DialogueLoading {
    static func load(_ path: String) throws -> Dialogue {
        let (model, warnings) = try read(path)
        for warning in warnings { Console.log("warning: \(warning)") }
        do {
            return try Dialogue(model)
        } catch {
            throw InputError("\(path): \(error)")
        }
    }

    /// The model at `path`: a Rasa project (a folder, or a `.yml` domain), else a JSON dialogue or workspace.
    static func read(_ path: String) throws -> (model: DialogueModel, warnings: [String]) {
        // A Rasa project, a Lex V2 bot or a Dialogflow agent: a folder, a zip or a .yml domain.
        if path != "-" {
            do {
                if let imported = try DialogueExport.readProject(URL(fileURLWithPath: path)) { return imported }
            } catch let error as RasaDialogueError {
                throw InputError(error.description)
            }
        }
        return try DialogueImporter.read(try Console.readData(path: path), file: path == "-" ? "standard input" : path)
    }
}

import ArgumentParser
import Foundation

/// The `nlu` command tree as ArgumentParser describes it (`--experimental-dump-help`), read in
/// process: each command's names, its options (name → takes a value) and its subcommands. For the
/// argument checks ArgumentParser does not make itself (``UnknownOption``, ``NegativeOptionValues``).
struct CommandTree {
    var names: [String]
    var options: [String: Bool]
    var subcommands: [CommandTree]
    /// The subcommand run when no subcommand name follows (`nlu embed TEXT` is `nlu embed text TEXT`).
    var defaultSubcommand: String?

    /// The whole tree, or nil if ArgumentParser's description cannot be read.
    static func load() -> CommandTree? {
        let dump: String
        do {
            _ = try NLU.parseAsRoot(["--experimental-dump-help"])
            return nil
        } catch {
            dump = NLU.fullMessage(for: error)
        }
        guard let root = try? JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any],
              let command = root["command"] as? [String: Any] else { return nil }
        return CommandTree(command)
    }

    private init(_ object: [String: Any]) {
        var options: [String: Bool] = ["--help": false, "-h": false, "--version": false]
        for argument in object["arguments"] as? [[String: Any]] ?? [] {
            let takesValue = (argument["kind"] as? String) == "option"
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let text = name["name"] as? String else { continue }
                options[((name["kind"] as? String) == "long" ? "--" : "-") + text] = takesValue
            }
        }
        self.options = options
        names = [object["commandName"] as? String].compactMap { $0 } + (object["aliases"] as? [String] ?? [])
        subcommands = (object["subcommands"] as? [[String: Any]] ?? []).map(CommandTree.init)
        defaultSubcommand = object["defaultSubcommand"] as? String
    }

    /// The subcommand `arguments` (without the executable) address, and the index of the first
    /// argument after the subcommand names. As ArgumentParser does, a group not followed by one of
    /// its subcommands' names goes on to its default subcommand.
    func addressed(by arguments: [String]) -> (command: CommandTree, start: Int) {
        var command = self, index = arguments.startIndex
        while true {
            if index < arguments.endIndex, let next = command.subcommands.first(where: { $0.names.contains(arguments[index]) }) {
                command = next
                index += 1
            } else if let name = command.defaultSubcommand, let next = command.subcommands.first(where: { $0.names.contains(name) }) {
                command = next
            } else {
                return (command, index)
            }
        }
    }

    /// Whether `argument` reads as a number (a negative one starts with "-" like an option).
    static func looksLikeANumber(_ argument: String) -> Bool {
        Double(argument) != nil || argument.lowercased() == "-inf" || argument.lowercased() == "-nan"
    }
}

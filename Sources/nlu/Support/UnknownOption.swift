import ArgumentParser
import Foundation

/// Finds an option the command does not have. ArgumentParser runs a command's `validate()` before
/// it looks for arguments nobody used, so `nlu qa ask --model x --frob` said "give --question" and
/// hid the typo; `NLU.main` asks this first when validation fails, and reports the unknown option.
enum UnknownOption {
    /// The first option in `arguments` (without the executable) that the addressed subcommand does
    /// not declare, or nil. Values of options that take one are skipped; nothing after `--` is looked at.
    static func find(in arguments: [String]) -> String? {
        guard var command = commandTree() else { return nil }
        var index = arguments.startIndex
        while index < arguments.endIndex,
              let next = command.subcommands.first(where: { $0.names.contains(arguments[index]) }) {
            command = next
            index += 1
        }
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return nil }
            guard argument.count > 1, argument.hasPrefix("-"), !looksLikeANumber(argument) else { continue }
            let name = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
            if argument.hasPrefix("--") {
                guard let takesValue = command.options[name] else { return name }
                if takesValue && !argument.contains("=") { index += 1 }
            } else {
                // Short options may be combined (-vx); the last one may take the next argument as its value.
                for character in argument.dropFirst() {
                    guard let takesValue = command.options["-\(character)"] else { return "-\(character)" }
                    if takesValue { index += 1; break }
                }
            }
        }
        return nil
    }

    private static func looksLikeANumber(_ argument: String) -> Bool {
        Double(argument) != nil || argument.lowercased() == "-inf" || argument.lowercased() == "-nan"
    }

    /// A command's names, its options (name → takes a value) and its subcommands.
    private struct Command {
        var names: [String]
        var options: [String: Bool]
        var subcommands: [Command]
    }

    /// The command tree as ArgumentParser describes it (`--experimental-dump-help`), read in process.
    private static func commandTree() -> Command? {
        let dump: String
        do {
            _ = try NLU.parseAsRoot(["--experimental-dump-help"])
            return nil
        } catch {
            dump = NLU.fullMessage(for: error)
        }
        guard let root = try? JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any],
              let command = root["command"] as? [String: Any] else { return nil }
        return parse(command)
    }

    private static func parse(_ object: [String: Any]) -> Command {
        var options: [String: Bool] = ["--help": false, "-h": false, "--version": false]
        for argument in object["arguments"] as? [[String: Any]] ?? [] {
            let takesValue = (argument["kind"] as? String) == "option"
            for name in argument["names"] as? [[String: Any]] ?? [] {
                guard let text = name["name"] as? String else { continue }
                options[((name["kind"] as? String) == "long" ? "--" : "-") + text] = takesValue
            }
        }
        let names = [object["commandName"] as? String].compactMap { $0 } + (object["aliases"] as? [String] ?? [])
        let subcommands = (object["subcommands"] as? [[String: Any]] ?? []).map(parse)
        return Command(names: names, options: options, subcommands: subcommands)
    }
}

import ArgumentParser
import Foundation

/// Finds an option the command does not have. ArgumentParser runs a command's `validate()` before
/// it looks for arguments nobody used, so `nlu qa ask --model x --frob` said "give --question" and
/// hid the typo; `NLU.main` asks this first when validation fails, and reports the unknown option.
enum UnknownOption {
    /// The first option in `arguments` (without the executable) that the addressed subcommand does
    /// not declare, or nil. Values of options that take one are skipped; nothing after `--` is looked at.
    static func find(in arguments: [String]) -> String? {
        guard let tree = CommandTree.load() else { return nil }
        var (command, index) = tree.addressed(by: arguments)
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" { return nil }
            guard argument.count > 1, argument.hasPrefix("-"), !CommandTree.looksLikeANumber(argument) else { continue }
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
}

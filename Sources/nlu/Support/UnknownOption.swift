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

    /// `message` ("Error: Unknown option 'X'…") with a hint after X when X is more likely a text starting with
    /// "-" (`nlu entities extract "-5 degrees"`): one with a space or a character no option name has, or a single
    /// dash and more than one letter (short options are one letter), is to go after `--`.
    static func addingTextHint(to message: String) -> String {
        let prefix = "Error: Unknown option '"
        guard message.hasPrefix(prefix) else { return message }
        let lines = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        // ArgumentParser may add ". Did you mean '--json'?": the name is what comes before that.
        let named = lines[0].range(of: "'. Did you mean '", options: .backwards).map { lines[0][...$0.lowerBound] } ?? lines[0]
        guard let end = named.lastIndex(of: "'"), end > named.index(named.startIndex, offsetBy: prefix.count) else { return message }
        let unknown = String(named[named.index(named.startIndex, offsetBy: prefix.count)..<end])
        return ([String(lines[0]) + textHint(for: unknown)] + lines.dropFirst().map(String.init)).joined(separator: "\n")
    }

    private static func textHint(for unknown: String) -> String {
        let body = unknown.drop { $0 == "-" }
        let looksLikeText = body.contains { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "=") }
            || (!unknown.hasPrefix("--") && body.count > 1 && !body.contains("="))
        guard looksLikeText else { return "" }
        return " (a text that starts with '-' goes after '--': nlu … -- \"\(unknown)\")"
    }
}

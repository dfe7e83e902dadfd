/// Joins a long option and a negative number that follows it (`--crf-c2 -1` → `--crf-c2=-1`).
/// ArgumentParser reads "-1" as a short option, so the user saw "Missing value for '--crf-c2'"
/// instead of the option's own range check; joined, the value reaches it.
enum NegativeOptionValues {
    /// `arguments` (without the executable) with each value-taking long option of the addressed
    /// subcommand joined to a following argument that reads as a negative number. Nothing after
    /// `--` changes; without such a pair the arguments come back as they are.
    static func joined(_ arguments: [String]) -> [String] {
        guard arguments.contains(where: { $0.hasPrefix("-") && CommandTree.looksLikeANumber($0) }),
              let tree = CommandTree.load() else { return arguments }
        let (command, start) = tree.addressed(by: arguments)
        var result = Array(arguments[..<start]), index = start
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                result += arguments[(index - 1)...]
                break
            }
            let takesValue = argument.hasPrefix("--") && !argument.contains("=") && command.options[argument] == true
            guard takesValue, index < arguments.endIndex else {
                result.append(argument)
                continue
            }
            let value = arguments[index]
            index += 1
            if value.hasPrefix("-") && CommandTree.looksLikeANumber(value) {
                result.append("\(argument)=\(value)")
            } else {
                result += [argument, value]  // a value that is another option stays for ArgumentParser to report
            }
        }
        return result
    }
}

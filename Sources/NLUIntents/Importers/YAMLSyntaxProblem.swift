import Yams

/// A YAML syntax error as the importers (Rasa, snips-nlu) report it: the line and column where the
/// parser stopped (1-based, as editors count) and what it expected, as Yams states it.
enum YAMLSyntaxProblem {
    static func describe(_ error: Error) -> String {
        if let yaml = error as? YamlError {
            switch yaml {
            case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _):
                return "line \(mark.line), column \(mark.column): \(problem)\(context.map { " (\($0.text))" } ?? "")"
            default: break
            }
        }
        return "\(error)"
    }
}

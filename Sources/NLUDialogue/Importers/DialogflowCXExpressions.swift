/// Dialogflow CX's condition and parameter-reference syntax rewritten into NLUKit's expressions and
/// templates. Session and page parameters are both context variables in NLUKit (a page's form fills the
/// session parameter of the same name, as CX does), so `$session.params.size` and `$page.params.size`
/// become `$size`. A page's form status `$page.params.status = "FINAL"` becomes "every required parameter
/// of the page has a value". Anything else (`$sys.func.*`, `$intent.params`, `$flow.*`, the `:` operator)
/// is reported, never guessed.
///
///     DialogflowCXExpressions.condition(#"$page.params.status = "FINAL" AND $session.params.size != "small""#,
///                                       required: ["size", "topping"])
///     // "($size != null && $topping != null) && $size != \"small\"", no problems
enum DialogflowCXExpressions {
    /// `condition` in NLUKit's syntax, or `nil` and what could not be read.
    static func condition(_ condition: String, required: [String]) -> (expression: String?, problem: String?) {
        let final = required.isEmpty ? "true" : "(" + required.map { "$\($0) != null" }.joined(separator: " && ") + ")"
        let scalars = Array(condition.unicodeScalars)
        var output = ""
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\"", "'":
                // A literal is copied as written, escapes included.
                var end = index + 1
                while end < scalars.count, scalars[end] != scalar { end += scalars[end] == "\\" ? 2 : 1 }
                guard end < scalars.count else { return (nil, "a text literal is not closed") }
                output.unicodeScalars.append(contentsOf: scalars[index...end])
                index = end + 1
            case "$":
                let (path, end) = readPath(scalars, from: index + 1)
                if path == "page.params.status" {
                    // Only the comparison with "FINAL" has a meaning NLUKit can state.
                    guard let (isEqual, after) = finalComparison(scalars, from: end) else {
                        return (nil, "$page.params.status is only read compared with \"FINAL\"")
                    }
                    output += (isEqual ? "" : "!") + final
                    index = after
                    continue
                }
                guard let name = parameter(path) else { return (nil, "the reference $\(path) is not supported") }
                output += "$" + name
                index = end
            case "=":
                // CX compares with one "=", NLUKit with "=="; "!=", "<=", ">=" are the same in both.
                let previous = index > 0 ? scalars[index - 1] : " "
                output += ["!", "<", ">", "="].contains(previous) ? "=" : "=="
                index += 1
            case ":":
                return (nil, "the ':' (has) operator is not supported")
            default:
                if scalar.properties.isAlphabetic {
                    var end = index
                    while end < scalars.count, ExpressionParser.isNameScalar(scalars[end]) { end += 1 }
                    let word = String(String.UnicodeScalarView(scalars[index..<end]))
                    switch word {
                    case "AND": output += "&&"
                    case "OR": output += "||"
                    case "NOT": output += "!"
                    case "true", "false", "null": output += word
                    default: return (nil, "'\(word)' is not supported")
                    }
                    index = end
                } else {
                    output.unicodeScalars.append(scalar)
                    index += 1
                }
            }
        }
        do {
            _ = try ExpressionParser.parse(output)
        } catch {
            return (nil, "\(error)")
        }
        return (output, nil)
    }

    /// `text` with its parameter references as NLUKit's `$name`; references NLUKit cannot resolve are left
    /// out and returned, so the importer can name them.
    static func template(_ text: String) -> (text: String, unsupported: [String]) {
        let scalars = Array(text.unicodeScalars)
        var output = ""
        var unsupported: [String] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let startsReference = scalar == "$" && index + 1 < scalars.count && scalars[index + 1].properties.isAlphabetic
                && (index == 0 || !(scalars[index - 1].properties.isAlphabetic || ("0"..."9").contains(scalars[index - 1])))
            guard startsReference else {
                output.unicodeScalars.append(scalar)
                index += 1
                continue
            }
            var (path, end) = readPath(scalars, from: index + 1)
            // A sentence's full stop after a reference is prose, not a member.
            if path.hasSuffix(".") { path.removeLast(); end -= 1 }
            if let name = parameter(path) {
                output += "$" + name
            } else {
                unsupported.append("$" + path)
            }
            index = end
        }
        return (output, unsupported)
    }

    /// `= "FINAL"` or `!= "FINAL"` (spaces allowed) from `start`: whether it is `=`, and where it ends.
    private static func finalComparison(_ scalars: [Unicode.Scalar], from start: Int) -> (isEqual: Bool, end: Int)? {
        var index = start
        func skipSpaces() { while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 } }
        skipSpaces()
        let isEqual = index >= scalars.count || scalars[index] != "!"
        if !isEqual { index += 1 }
        guard index < scalars.count, scalars[index] == "=" else { return nil }
        index += 1
        skipSpaces()
        let literal = Array("\"FINAL\"".unicodeScalars)
        guard index + literal.count <= scalars.count, Array(scalars[index..<index + literal.count]) == literal else { return nil }
        return (isEqual, index + literal.count)
    }

    /// The parameter a `session.params.x` or `page.params.x` path names.
    private static func parameter(_ path: String) -> String? {
        for prefix in ["session.params.", "page.params."] where path.hasPrefix(prefix) {
            let name = String(path.dropFirst(prefix.count))
            if !name.isEmpty, name.unicodeScalars.allSatisfy(ExpressionParser.isNameScalar) { return name }
        }
        return nil
    }

    /// A dotted reference path (`session.params.size`) from `start`, and where it ends.
    private static func readPath(_ scalars: [Unicode.Scalar], from start: Int) -> (path: String, end: Int) {
        var end = start
        while end < scalars.count, ExpressionParser.isNameScalar(scalars[end]) || scalars[end] == "." { end += 1 }
        return (String(String.UnicodeScalarView(scalars[start..<end])), end)
    }
}

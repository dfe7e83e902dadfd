/// A response text or context value with references in it: `$variable` (a context variable), `@entity`
/// (the first mention's value) and `<? expression ?>` (any expression of ``ExpressionParser``), as in
/// Watson Assistant. A `$` or `@` followed by a letter or `_` starts a reference when it does not follow a
/// letter or digit (so `me@example.com` stays text).
///
///     let template = try TextTemplate.parse("I've turned up the @appliance for you.")
struct TextTemplate: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case text(String)
        case reference(ConditionExpression)
    }

    var segments: [Segment]

    /// Parses `text`; an `<? ?>` expression that does not parse throws with its offset in `text`.
    static func parse(_ text: String) throws(ExpressionError) -> TextTemplate {
        let scalars = Array(text.unicodeScalars)
        var segments: [Segment] = []
        var literal = String.UnicodeScalarView()
        func flush() {
            if !literal.isEmpty { segments.append(.text(String(literal))); literal = String.UnicodeScalarView() }
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<", index + 1 < scalars.count, scalars[index + 1] == "?" {
                guard let close = (index + 2..<max(index + 2, scalars.count - 1)).first(where: { scalars[$0] == "?" && scalars[$0 + 1] == ">" }) else {
                    throw ExpressionError(expression: text, offset: index, reason: "'<?' is not closed by '?>'")
                }
                var inner = String.UnicodeScalarView()
                inner.append(contentsOf: scalars[(index + 2)..<close])
                do {
                    flush()
                    segments.append(.reference(try ExpressionParser.parse(String(inner))))
                } catch {
                    throw ExpressionError(expression: text, offset: index + 2 + error.offset, reason: error.reason)
                }
                index = close + 2
                continue
            }
            let startsReference = (scalar == "$" || scalar == "@") && index + 1 < scalars.count
                && (scalars[index + 1].properties.isAlphabetic || scalars[index + 1] == "_")
                && (index == 0 || !(scalars[index - 1].properties.isAlphabetic || ("0"..."9").contains(scalars[index - 1])))
            guard startsReference else {
                literal.append(scalar)
                index += 1
                continue
            }
            var end = index + 1
            while end < scalars.count, ExpressionParser.isNameScalar(scalars[end]) { end += 1 }
            // A name does not end with "-" (`$name-` before a dash in prose).
            while end > index + 2, scalars[end - 1] == "-" { end -= 1 }
            var name = String.UnicodeScalarView()
            name.append(contentsOf: scalars[(index + 1)..<end])
            flush()
            segments.append(.reference(scalar == "$" ? .variable(String(name)) : .entity(String(name), value: nil)))
            index = end
        }
        flush()
        return TextTemplate(segments: segments)
    }

    /// The text with every reference replaced by its value; the variables and entities that had none are
    /// added to `unset` (they render as nothing, as Watson renders them). `python`: values as Rasa's responses
    /// print a slot (Python's `str`): a boolean `True`/`False`, no value `None`.
    func render(in scope: EvaluationScope, unset: inout [String], python: Bool = false) -> String {
        var result = ""
        for segment in segments {
            switch segment {
            case .text(let text):
                result += text
            case .reference(let expression):
                let value = scope.evaluate(expression)
                if value == .null { unset.append(Self.describe(expression)) }
                guard python else { result += value.displayText; continue }
                switch value {
                case .bool(let flag): result += flag ? "True" : "False"
                case .null: result += "None"
                default: result += value.displayText
                }
            }
        }
        return result
    }

    /// The value of a context update: a template that is one reference alone keeps the referenced value's
    /// type (`"$date"` copies a number or an object as it is), any other renders as text.
    func value(in scope: EvaluationScope, unset: inout [String]) -> DialogueValue {
        if segments.count == 1, case .reference(let expression) = segments[0] { return scope.evaluate(expression) }
        return .string(render(in: scope, unset: &unset))
    }

    /// Whether the text holds no reference (it renders as itself).
    var isPlainText: Bool { segments.allSatisfy { if case .text = $0 { return true } else { return false } } }

    private static func describe(_ expression: ConditionExpression) -> String {
        switch expression {
        case .variable(let name): return "$" + name
        case .entity(let name, _): return "@" + name
        default: return "<? ?> expression"
        }
    }
}

import Foundation

/// What an expression can see while a turn runs: the message, the context variables, and where the
/// conversation is (first turn, returning from a digression).
struct EvaluationScope {
    var message: ParsedMessage
    var context: [String: DialogueValue]
    var isFirstTurn: Bool
    var isReturning = false
    /// `#intent` is true only when the top intent's confidence reaches this (Watson: 0.2).
    var intentThreshold: Double

    /// Evaluates `expression`. Evaluation never fails: what has no value (an unset variable, a missing
    /// entity, an index past the end, a division by zero) is `null`, which is false as a condition.
    func evaluate(_ expression: ConditionExpression) -> DialogueValue {
        switch expression {
        case .literal(let value):
            return value
        case .intent(let name):
            guard let top = message.intents.first else { return .bool(false) }
            return .bool(top.intent == name && top.confidence >= intentThreshold)
        case .entity(let name, let value):
            let mentions = message.entities.filter { $0.entity == name }
            guard let value else { return mentions.first.map(Self.value(of:)) ?? .null }
            return .bool(mentions.contains { $0.value.caseInsensitiveCompare(value) == .orderedSame })
        case .variable(let name):
            return context[name] ?? .null
        case .special(.anythingElse):
            return .bool(true)
        case .special(.welcome):
            return .bool(isFirstTurn && message.text.isEmpty)
        case .special(.conversationStart):
            return .bool(isFirstTurn)
        case .special(.returning):
            return .bool(isReturning)
        case .root(let root):
            return value(of: root)
        case .member(.entity(let name, nil), let field):
            // `@appliance.literal`, `.confidence`, `.location`: the first mention's details.
            guard let mention = message.entities.first(where: { $0.entity == name }) else { return .null }
            return entityValue(mention)[field] ?? .null
        case .member(let base, let field):
            return evaluate(base)[field] ?? .null
        case .index(let base, let index):
            let container = evaluate(base)
            let key = evaluate(index)
            switch (container, key) {
            case (.array(let items), .number(let number)):
                guard number.rounded() == number, number >= 0, number < Double(items.count) else { return .null }
                return items[Int(number)]
            case (.object(let members), .string(let name)):
                return members[name] ?? .null
            default:
                return .null
            }
        case .call(let base, let method, let arguments):
            return call(method, on: evaluate(base), arguments: arguments.map(evaluate))
        case .not(let operand):
            return .bool(!evaluate(operand).isTruthy)
        case .negate(let operand):
            return evaluate(operand).number.map { .number(-$0) } ?? .null
        case .and(let left, let right):
            return .bool(evaluate(left).isTruthy && evaluate(right).isTruthy)
        case .or(let left, let right):
            return .bool(evaluate(left).isTruthy || evaluate(right).isTruthy)
        case .compare(let comparison, let left, let right):
            return .bool(Self.compare(comparison, evaluate(left), evaluate(right)))
        case .arithmetic(let operation, let left, let right):
            return Self.arithmetic(operation, evaluate(left), evaluate(right))
        }
    }

    /// Whether `expression` holds.
    func holds(_ expression: ConditionExpression) -> Bool { evaluate(expression).isTruthy }

    private func value(of root: ConditionExpression.Root) -> DialogueValue {
        switch root {
        case .intents:
            return .array(message.intents.map { ["intent": .string($0.intent), "confidence": .number($0.confidence)] })
        case .entities:
            return .array(message.entities.map(entityValue))
        case .input:
            return ["text": .string(message.text)]
        case .context:
            return .object(context)
        }
    }

    /// A mention's value: its number when it has one, its text value otherwise.
    static func value(of mention: ParsedMessage.Entity) -> DialogueValue {
        mention.number.map(DialogueValue.number) ?? .string(mention.value)
    }

    private func entityValue(_ mention: ParsedMessage.Entity) -> DialogueValue {
        var members: [String: DialogueValue] = [
            "entity": .string(mention.entity), "value": Self.value(of: mention), "literal": .string(mention.text ?? mention.value),
            "confidence": .number(mention.confidence ?? 1),
        ]
        if let start = mention.start, let end = mention.end { members["location"] = [.number(Double(start)), .number(Double(end))] }
        return .object(members)
    }

    private func call(_ method: ConditionExpression.Method, on value: DialogueValue, arguments: [DialogueValue]) -> DialogueValue {
        switch (method, value) {
        case (.size, .array(let items)), (.length, .array(let items)): return .number(Double(items.count))
        case (.size, .object(let members)): return .number(Double(members.count))
        case (.size, .string(let text)), (.length, .string(let text)): return .number(Double(text.count))
        case (.size, .null), (.length, .null): return .number(0)
        case (.isEmpty, _): return .bool(!value.isTruthy || value == .array([]) || value == .object([:]))
        case (.contains, .string(let text)):
            guard let needle = arguments.first else { return .bool(false) }
            return .bool(text.contains(needle.displayText))
        case (.contains, .array(let items)):
            guard let needle = arguments.first else { return .bool(false) }
            return .bool(items.contains { Self.compare(.equal, $0, needle) })
        case (.toLowerCase, .string(let text)): return .string(text.lowercased())
        case (.toUpperCase, .string(let text)): return .string(text.uppercased())
        case (.trim, .string(let text)): return .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
        default: return .null
        }
    }

    /// Numbers compare as numbers (also "5" against 5: entity values arrive as text); texts compare as texts,
    /// equality case-sensitively as Watson does; `null` equals only `null`.
    static func compare(_ comparison: ConditionExpression.Comparison, _ left: DialogueValue, _ right: DialogueValue) -> Bool {
        let order: ComparisonResult?
        if case .null = left, case .null = right {
            order = .orderedSame
        } else if case .null = left {
            order = nil
        } else if case .null = right {
            order = nil
        } else if let a = left.number, let b = right.number, !(isText(left) && isText(right)) {
            order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        } else if case .string(let a) = left, case .string(let b) = right {
            order = a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        } else {
            order = left == right ? .orderedSame : nil
        }
        switch comparison {
        case .equal: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order == .orderedAscending || order == .orderedSame
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order == .orderedDescending || order == .orderedSame
        }
    }

    private static func isText(_ value: DialogueValue) -> Bool {
        if case .string = value { return true }
        return false
    }

    static func arithmetic(_ operation: ConditionExpression.Arithmetic, _ left: DialogueValue, _ right: DialogueValue) -> DialogueValue {
        if operation == .add, isText(left) || isText(right), left.number == nil || right.number == nil {
            return .string(left.displayText + right.displayText)
        }
        // An unset counter counts from 0 (`$default_counter + 1` on the first turn).
        let a = left == .null ? 0 : left.number, b = right == .null ? 0 : right.number
        guard let a, let b else { return .null }
        let result: Double
        switch operation {
        case .add: result = a + b
        case .subtract: result = a - b
        case .multiply: result = a * b
        case .divide: result = a / b
        case .remainder: result = a.truncatingRemainder(dividingBy: b)
        }
        return result.isFinite ? .number(result) : .null
    }
}

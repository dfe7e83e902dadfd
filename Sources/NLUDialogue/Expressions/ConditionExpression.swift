/// A parsed condition or value expression: the subset of Watson Assistant's expression language (itself
/// a subset of SpEL) that the dialogue runtime evaluates. ``ExpressionParser`` builds it from text such as
/// `#turn_on && @appliance:lights && $lightonoff == "off"`.
///
///     let condition = try ExpressionParser.parse("@sys-number > 5 || @zero_match")
public indirect enum ConditionExpression: Sendable, Equatable {
    /// The comparison operators.
    public enum Comparison: String, Sendable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    }
    /// The arithmetic operators (`+` also joins strings).
    public enum Arithmetic: String, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    }
    /// Conditions that name a moment of the conversation rather than the message.
    public enum Special: String, Sendable {
        /// Always true: the fallback node's condition.
        case anythingElse = "anything_else"
        /// True on the first turn when it carries no text (the greeting).
        case welcome
        /// True on the first turn, whatever it carries.
        case conversationStart = "conversation_start"
        /// True when the runtime returns to a node after a digression.
        case returning = "returning"
    }
    /// The message's parts that expressions can read by name: `intents[0].confidence`, `entities.size()`, `input.text`.
    public enum Root: String, Sendable {
        case intents, entities, input, context
    }
    /// The methods expressions may call on a value.
    public enum Method: String, Sendable, CaseIterable {
        case size, length, contains, toLowerCase, toUpperCase, trim, isEmpty
    }

    /// A number, string, `true`, `false` or `null`.
    case literal(DialogueValue)
    /// `#name`: true when the message's top intent is `name` (above the model's intent threshold).
    case intent(String)
    /// `@name`: the value of the first mention of entity `name` (null when absent); `@name:value` is true when
    /// some mention of `name` has that value.
    case entity(String, value: String?)
    /// `$name`: a context variable (null when unset).
    case variable(String)
    /// `anything_else`, `welcome`, `conversation_start`.
    case special(Special)
    /// `intents`, `entities`, `input`, `context` as values.
    case root(Root)
    /// `value.name`
    case member(ConditionExpression, String)
    /// `value[index]`
    case index(ConditionExpression, ConditionExpression)
    /// `value.method(arguments)`
    case call(ConditionExpression, Method, [ConditionExpression])
    case not(ConditionExpression)
    case negate(ConditionExpression)
    case and(ConditionExpression, ConditionExpression)
    case or(ConditionExpression, ConditionExpression)
    case compare(Comparison, ConditionExpression, ConditionExpression)
    case arithmetic(Arithmetic, ConditionExpression, ConditionExpression)

    /// The context variables the expression reads (for reports).
    public var variables: Set<String> {
        switch self {
        case .variable(let name): return [name]
        case .literal, .intent, .entity, .special, .root: return []
        case .member(let base, _), .not(let base), .negate(let base): return base.variables
        case .index(let base, let index): return base.variables.union(index.variables)
        case .call(let base, _, let arguments): return arguments.reduce(base.variables) { $0.union($1.variables) }
        case .and(let left, let right), .or(let left, let right), .compare(_, let left, let right),
             .arithmetic(_, let left, let right):
            return left.variables.union(right.variables)
        }
    }
}

/// An expression that does not parse: what was wrong and where, as an offset in Unicode scalars from the
/// expression's start (0-based), with the expression itself so the message can point at the spot.
///
///     // "#greet && && @x": offset 9: expected a value, found '&&'
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The expression as written.
    public var expression: String
    /// Where the problem starts, in Unicode scalars from the expression's start.
    public var offset: Int
    /// What was expected or found.
    public var reason: String

    public init(expression: String, offset: Int, reason: String) {
        self.expression = expression
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "offset \(offset) in '\(expression)': \(reason)" }
}

/// A Snowball arithmetic expression (`AE`).
indirect enum SnowballExpression: Sendable {
    case number(Int)
    case variable(Int)
    case cursor
    /// `limit`: the limit in the direction the code runs (`limit_backward` in backward mode).
    case limit
    /// `len` / `size`: the current string's length in characters.
    case length
    /// `lenof s` / `sizeof s`.
    case lengthOf(Int)
    case negate(SnowballExpression)
    case add(SnowballExpression, SnowballExpression)
    case subtract(SnowballExpression, SnowballExpression)
    case multiply(SnowballExpression, SnowballExpression)
    case divide(SnowballExpression, SnowballExpression)
}

/// The string argument of `<-`, `insert`, `attach` and `=`: a literal or a string variable.
enum SnowballStringValue: Sendable {
    case literal([Unicode.Scalar])
    case variable(Int)
}

/// An integer operator of `$x op AE`.
enum SnowballAssignment: Sendable {
    case assign, add, subtract, multiply, divide
}

/// A relational operator of an integer test.
enum SnowballComparison: Sendable {
    case equal, notEqual, greater, greaterOrEqual, less, lessOrEqual

    func holds(_ lhs: Int, _ rhs: Int) -> Bool {
        switch self {
        case .equal: lhs == rhs
        case .notEqual: lhs != rhs
        case .greater: lhs > rhs
        case .greaterOrEqual: lhs >= rhs
        case .less: lhs < rhs
        case .lessOrEqual: lhs <= rhs
        }
    }
}

/// Parses condition and value expressions (``ConditionExpression``) with errors that give the offset of the
/// problem. Grammar, loosest binding first:
///
///     or         := and (("||" | "or") and)*
///     and        := not (("&&" | "and") not)*
///     not        := ("!" | "not") not | comparison
///     comparison := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)?
///     sum        := product (("+" | "-") product)*
///     product    := unary (("*" | "/" | "%") unary)*
///     unary      := "-" unary | postfix
///     postfix    := primary ("." name ("(" arguments ")")? | "[" or "]")*
///     primary    := number | 'text' | "text" | true | false | null | #intent | @entity | @entity:value
///                 | @entity:(value with spaces) | $variable | anything_else | welcome | conversation_start
///                 | intents | entities | input | context | "(" or ")"
///
///     let condition = try ExpressionParser.parse("#turn_on && $lightonoff == 'off'")
public struct ExpressionParser {
    private let text: String
    private let scalars: [Unicode.Scalar]
    private var position = 0
    /// Expressions nest at most this deep, so a hostile condition cannot exhaust the stack.
    static let maximumDepth = 64
    private var depth = 0

    private init(_ text: String) {
        self.text = text
        self.scalars = Array(text.unicodeScalars)
    }

    /// Parses `text` as one expression.
    /// - Throws: ``ExpressionError`` with the offset of the first problem.
    public static func parse(_ text: String) throws(ExpressionError) -> ConditionExpression {
        var parser = ExpressionParser(text)
        parser.skipSpaces()
        if parser.atEnd { throw parser.error("the expression is empty") }
        let expression = try parser.parseOr()
        parser.skipSpaces()
        if !parser.atEnd { throw parser.error("unexpected '\(parser.tokenPreview)' after a complete expression") }
        return expression
    }

    // MARK: grammar

    private mutating func parseOr() throws(ExpressionError) -> ConditionExpression {
        var left = try parseAnd()
        while consumeOperator("||") || consumeKeyword("or") {
            left = .or(left, try parseAnd())
        }
        return left
    }

    private mutating func parseAnd() throws(ExpressionError) -> ConditionExpression {
        var left = try parseNot()
        while consumeOperator("&&") || consumeKeyword("and") {
            left = .and(left, try parseNot())
        }
        return left
    }

    private mutating func parseNot() throws(ExpressionError) -> ConditionExpression {
        skipSpaces()
        if peek("!") && !peek("!=") {
            position += 1
            return .not(try nested { (parser: inout ExpressionParser) throws(ExpressionError) in try parser.parseNot() })
        }
        if consumeKeyword("not") {
            return .not(try nested { (parser: inout ExpressionParser) throws(ExpressionError) in try parser.parseNot() })
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws(ExpressionError) -> ConditionExpression {
        let left = try parseSum()
        for comparison in [ConditionExpression.Comparison.lessOrEqual, .greaterOrEqual, .equal, .notEqual, .less, .greater]
        where consumeOperator(comparison.rawValue) {
            return .compare(comparison, left, try parseSum())
        }
        return left
    }

    private mutating func parseSum() throws(ExpressionError) -> ConditionExpression {
        var left = try parseProduct()
        while true {
            if consumeOperator("+") { left = .arithmetic(.add, left, try parseProduct()) }
            else if consumeOperator("-") { left = .arithmetic(.subtract, left, try parseProduct()) }
            else { return left }
        }
    }

    private mutating func parseProduct() throws(ExpressionError) -> ConditionExpression {
        var left = try parseUnary()
        while true {
            if consumeOperator("*") { left = .arithmetic(.multiply, left, try parseUnary()) }
            else if consumeOperator("/") { left = .arithmetic(.divide, left, try parseUnary()) }
            else if consumeOperator("%") { left = .arithmetic(.remainder, left, try parseUnary()) }
            else { return left }
        }
    }

    private mutating func parseUnary() throws(ExpressionError) -> ConditionExpression {
        if consumeOperator("-") {
            return .negate(try nested { (parser: inout ExpressionParser) throws(ExpressionError) in try parser.parseUnary() })
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws(ExpressionError) -> ConditionExpression {
        var base = try parsePrimary()
        while true {
            if peek(".") {
                position += 1
                let start = position
                let name = readName()
                if name.isEmpty { throw error("expected a member or method name after '.'", at: start) }
                skipSpaces()
                if peek("(") {
                    guard let method = ConditionExpression.Method(rawValue: name) else {
                        let known = ConditionExpression.Method.allCases.map { "\($0.rawValue)()" }.joined(separator: ", ")
                        throw error("unsupported method '\(name)' (supported: \(known))", at: start)
                    }
                    position += 1
                    var arguments: [ConditionExpression] = []
                    skipSpaces()
                    if !peek(")") {
                        repeat {
                            arguments.append(try nested { (parser: inout ExpressionParser) throws(ExpressionError) in try parser.parseOr() })
                        } while consumeOperator(",")
                    }
                    try expect(")")
                    base = .call(base, method, arguments)
                } else {
                    base = .member(base, name)
                }
            } else if peek("[") {
                position += 1
                let index = try nested { (parser: inout ExpressionParser) throws(ExpressionError) in try parser.parseOr() }
                try expect("]")
                base = .index(base, index)
            } else {
                return base
            }
        }
    }

    private mutating func parsePrimary() throws(ExpressionError) -> ConditionExpression {
        skipSpaces()
        guard let scalar = current else { throw error("expected a value, found the end of the expression") }
        let start = position
        switch scalar {
        case "(":
            position += 1
            let inner = try nested { (parser: inout ExpressionParser) throws(ExpressionError) in try parser.parseOr() }
            try expect(")")
            return inner
        case "#":
            position += 1
            let name = readName()
            if name.isEmpty { throw error("expected an intent name after '#'", at: start) }
            return .intent(name)
        case "$":
            position += 1
            let name = readName()
            if name.isEmpty { throw error("expected a variable name after '$'", at: start) }
            return .variable(name)
        case "@":
            position += 1
            var name = readName()
            // Dialogflow's system entities keep their dot (`@sys.number`): an importer names them so.
            if name == "sys", peek("."), position + 1 < scalars.count, scalars[position + 1].properties.isAlphabetic {
                position += 1
                name += "." + readName()
            }
            if name.isEmpty { throw error("expected an entity name after '@'", at: start) }
            guard peek(":") else { return .entity(name, value: nil) }
            position += 1
            return .entity(name, value: try readEntityValue(after: start))
        case "'", "\"":
            return .literal(.string(try readString()))
        case "0"..."9":
            return .literal(.number(try readNumber()))
        default:
            let name = readName()
            switch name {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            case "": throw error("expected a value, found '\(tokenPreview)'", at: start)
            default:
                if let special = ConditionExpression.Special(rawValue: name) { return .special(special) }
                if let root = ConditionExpression.Root(rawValue: name) { return .root(root) }
                throw error("unknown name '\(name)' (a value is #intent, @entity, $variable, a number, a quoted text, true, false, null, anything_else, welcome, conversation_start, intents, entities, input or context)", at: start)
            }
        }
    }

    // MARK: tokens

    private var atEnd: Bool { position >= scalars.count }
    private var current: Unicode.Scalar? { atEnd ? nil : scalars[position] }

    private var tokenPreview: String {
        var preview = String.UnicodeScalarView()
        preview.append(contentsOf: scalars[position..<min(scalars.count, position + 12)])
        return String(preview)
    }

    private mutating func nested(_ body: (inout ExpressionParser) throws(ExpressionError) -> ConditionExpression) throws(ExpressionError) -> ConditionExpression {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth { throw error("the expression nests deeper than \(Self.maximumDepth) levels") }
        return try body(&self)
    }

    private mutating func skipSpaces() {
        while let scalar = current, scalar.properties.isWhitespace { position += 1 }
    }

    private func peek(_ token: String) -> Bool {
        var index = position
        for scalar in token.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }

    private mutating func consumeOperator(_ token: String) -> Bool {
        skipSpaces()
        guard peek(token) else { return false }
        // "<" must not take the first half of "<=".
        let end = position + token.unicodeScalars.count
        if token == "<" || token == ">", end < scalars.count, scalars[end] == "=" { return false }
        position = end
        return true
    }

    private mutating func consumeKeyword(_ word: String) -> Bool {
        skipSpaces()
        guard peek(word) else { return false }
        let end = position + word.unicodeScalars.count
        if end < scalars.count, Self.isNameScalar(scalars[end]) { return false }
        position = end
        return true
    }

    private mutating func expect(_ token: String) throws(ExpressionError) {
        skipSpaces()
        guard peek(token) else {
            throw error(atEnd ? "expected '\(token)', found the end of the expression" : "expected '\(token)', found '\(tokenPreview)'")
        }
        position += token.unicodeScalars.count
    }

    /// Names of intents, entities, variables and members: letters, digits, `_` and `-` (`sys-number`).
    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
    }

    private mutating func readName() -> String {
        var name = String.UnicodeScalarView()
        while let scalar = current, Self.isNameScalar(scalar) {
            // "-" belongs to names (`sys-number`), as in Watson: a subtraction needs spaces (`$a - 1`).
            name.append(scalar)
            position += 1
        }
        return String(name)
    }

    /// `@entity:value` (up to a space, operator or parenthesis) or `@entity:(any value, spaces included)`.
    private mutating func readEntityValue(after start: Int) throws(ExpressionError) -> String {
        var value = String.UnicodeScalarView()
        if peek("(") {
            position += 1
            while let scalar = current, scalar != ")" { value.append(scalar); position += 1 }
            if atEnd { throw error("'(' of the entity value is not closed", at: start) }
            position += 1
        } else {
            while let scalar = current, !scalar.properties.isWhitespace, !"()&|!=<>,".unicodeScalars.contains(scalar) {
                value.append(scalar)
                position += 1
            }
        }
        if value.isEmpty { throw error("expected an entity value after ':'", at: position) }
        return String(value)
    }

    private mutating func readString() throws(ExpressionError) -> String {
        let start = position
        let quote = scalars[position]
        position += 1
        var value = String.UnicodeScalarView()
        while let scalar = current {
            position += 1
            if scalar == quote { return String(value) }
            if scalar == "\\", let next = current {
                position += 1
                value.append(next == "n" ? "\n" : next == "t" ? "\t" : next)
            } else {
                value.append(scalar)
            }
        }
        throw error("the quoted text is not closed", at: start)
    }

    private mutating func readNumber() throws(ExpressionError) -> Double {
        let start = position
        var digits = String.UnicodeScalarView()
        while let scalar = current, ("0"..."9").contains(scalar) || scalar == "." {
            digits.append(scalar)
            position += 1
        }
        guard let number = Double(String(digits)), number.isFinite else {
            throw error("'\(String(digits))' is not a number", at: start)
        }
        return number
    }

    private func error(_ reason: String, at offset: Int? = nil) -> ExpressionError {
        ExpressionError(expression: text, offset: offset ?? position, reason: reason)
    }
}

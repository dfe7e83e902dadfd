/// Reads a Snowball source into a ``SnowballProgram``, following the grammar of the Snowball
/// compiler's analyser: declarations, `define` of routines and groupings, `backwardmode (...)`,
/// commands with `or`/`and` chains, among tables with conditions and commands, arithmetic.
/// Only what the published stemmers use is accepted; anything else is a ``SnowballSyntaxError``.
struct SnowballParser {
    private enum Name {
        case routine(Int), integer(Int), boolean(Int), string(Int), grouping(Int)
    }

    private let tokens: [(token: SnowballToken, line: Int)]
    private var index = 0
    private var names: [String: Name] = [:]
    private var routineNames: [String] = []
    private var routines: [SnowballProgram.Routine?] = []
    private var groupingSets: [Set<Unicode.Scalar>?] = []
    private var amongs: [SnowballAmong?] = []
    private var integerCount = 0
    private var booleanCount = 0
    private var stringCount = 0
    private var backward = false
    /// A `substring` waiting for the `among` that follows it in the same routine.
    private var pendingSubstring: (index: Int, backward: Bool)?

    init(source: String) throws(SnowballSyntaxError) {
        tokens = try SnowballTokenizer.tokens(of: source)
    }

    // MARK: Tokens

    private var line: Int { index < tokens.count ? tokens[index].line : (tokens.last?.line ?? 0) }

    private func error(_ message: String) -> SnowballSyntaxError {
        SnowballSyntaxError(line: line, message: message)
    }

    private var peek: SnowballToken? { index < tokens.count ? tokens[index].token : nil }

    private mutating func take() throws(SnowballSyntaxError) -> SnowballToken {
        guard index < tokens.count else { throw error("unexpected end of source") }
        defer { index += 1 }
        return tokens[index].token
    }

    private mutating func skip(_ token: SnowballToken) -> Bool {
        guard peek == token else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ token: SnowballToken) throws(SnowballSyntaxError) {
        guard skip(token) else { throw error("expected \(token), found \(peek.map { "\($0)" } ?? "end")") }
    }

    private mutating func takeName() throws(SnowballSyntaxError) -> String {
        guard case .word(let word) = try take() else { throw error("expected a name") }
        return word
    }

    // MARK: Declarations

    mutating func parseProgram() throws(SnowballSyntaxError) -> SnowballProgram {
        try parseDeclarations(until: nil)
        var resolvedRoutines: [SnowballProgram.Routine] = []
        for (slot, routine) in routines.enumerated() {
            guard let routine else { throw error("routine '\(routineNames[slot])' is declared but not defined") }
            resolvedRoutines.append(routine)
        }
        guard case .routine(let entry)? = names["stem"] else { throw error("no external 'stem'") }
        return SnowballProgram(routines: resolvedRoutines,
                      groupings: groupingSets.map { SnowballGrouping($0 ?? []) },
                      amongs: amongs.compactMap { $0 },
                      integerCount: integerCount, booleanCount: booleanCount, stringCount: stringCount,
                      entry: entry)
    }

    private mutating func parseDeclarations(until terminator: SnowballToken?) throws(SnowballSyntaxError) {
        while let token = peek {
            if let terminator, token == terminator {
                index += 1
                return
            }
            switch try take() {
            case .word("routines"), .word("externals"):
                for name in try declaredNames() {
                    names[name] = .routine(routines.count)
                    routines.append(nil)
                    routineNames.append(name)
                }
            case .word("integers"):
                for name in try declaredNames() { names[name] = .integer(integerCount); integerCount += 1 }
            case .word("booleans"):
                for name in try declaredNames() { names[name] = .boolean(booleanCount); booleanCount += 1 }
            case .word("strings"):
                for name in try declaredNames() { names[name] = .string(stringCount); stringCount += 1 }
            case .word("groupings"):
                for name in try declaredNames() {
                    names[name] = .grouping(groupingSets.count)
                    groupingSets.append(nil)
                }
            case .word("define"):
                try parseDefinition()
            case .word("backwardmode"):
                try expect(.symbol("("))
                let outer = backward
                backward = true
                try parseDeclarations(until: .symbol(")"))
                backward = outer
            case let other:
                throw error("unexpected \(other) at the top level")
            }
        }
        if terminator != nil { throw error("missing ')' after backwardmode") }
    }

    private mutating func declaredNames() throws(SnowballSyntaxError) -> [String] {
        try expect(.symbol("("))
        var result: [String] = []
        while !skip(.symbol(")")) { result.append(try takeName()) }
        return result
    }

    private mutating func parseDefinition() throws(SnowballSyntaxError) {
        let name = try takeName()
        switch names[name] {
        case .routine(let slot)?:
            try expect(.word("as"))
            let body = try parseCommand()
            if pendingSubstring != nil { throw error("substring without among in '\(name)'") }
            routines[slot] = SnowballProgram.Routine(body: body, backward: backward)
        case .grouping(let slot)?:
            var members = Set<Unicode.Scalar>()
            var adding = true
            while true {
                let part: [Unicode.Scalar]
                switch try take() {
                case .literal(let scalars):
                    part = scalars
                case .word(let other):
                    guard case .grouping(let otherSlot)? = names[other], let defined = groupingSets[otherSlot] else {
                        throw error("grouping '\(other)' used before its definition")
                    }
                    part = Array(defined)
                default:
                    throw error("bad grouping definition of '\(name)'")
                }
                if adding { members.formUnion(part) } else { members.subtract(part) }
                if skip(.symbol("+")) { adding = true } else if skip(.symbol("-")) { adding = false } else { break }
            }
            groupingSets[slot] = members
        default:
            throw error("'\(name)' is defined but not declared as a routine or grouping")
        }
    }

    // MARK: Commands

    private mutating func parseCommandList() throws(SnowballSyntaxError) -> [SnowballCommand] {
        var commands: [SnowballCommand] = []
        while !skip(.symbol(")")) {
            var command = try parseCommand()
            while true {
                if skip(.word("or")) {
                    var alternatives = [command]
                    repeat { alternatives.append(try parseCommand()) } while skip(.word("or"))
                    command = .or(alternatives)
                } else if skip(.word("and")) {
                    var parts = [command]
                    repeat { parts.append(try parseCommand()) } while skip(.word("and"))
                    command = .and(parts)
                } else {
                    break
                }
            }
            commands.append(command)
        }
        return commands
    }

    private mutating func parseCommand() throws(SnowballSyntaxError) -> SnowballCommand {
        let token = try take()
        switch token {
        case .symbol("("):
            let commands = try parseCommandList()
            return commands.count == 1 ? commands[0] : .sequence(commands)
        case .symbol("["):
            return .leftSlice
        case .symbol("]"):
            return .rightSlice
        case .symbol("?"):
            return .alwaysTrue
        case .symbol("<-"):
            return .sliceFrom(try parseStringValue())
        case .symbol("<+"):
            return try insertion(SnowballCommand.insert)
        case .symbol("="):
            return .assignString(try parseStringValue())
        case .symbol("=>"):
            return .assignTo(try stringSlot(try takeName()))
        case .symbol("->"):
            return .sliceTo(try stringSlot(try takeName()))
        case .symbol("$"):
            return try parseDollar()
        case .literal(let scalars):
            return scalars.isEmpty ? .alwaysTrue : .literal(scalars)
        case .word(let word):
            return try parseWordCommand(word)
        default:
            throw error("unexpected \(token) in a command")
        }
    }

    private mutating func insertion(_ make: (SnowballStringValue) -> SnowballCommand) throws(SnowballSyntaxError) -> SnowballCommand {
        let value = try parseStringValue()
        if case .literal(let scalars) = value, scalars.isEmpty { return .alwaysTrue }
        return make(value)
    }

    private mutating func parseWordCommand(_ word: String) throws(SnowballSyntaxError) -> SnowballCommand {
        switch word {
        case "not": return .not(try parseCommand())
        case "test": return .test(try parseCommand())
        case "try": return .try(try parseCommand())
        case "do": return .do(try parseCommand())
        case "fail": return .fail(try parseCommand())
        case "repeat": return .repeat(try parseCommand())
        case "goto": return .goto(try parseCommand())
        case "gopast": return .gopast(try parseCommand())
        case "loop":
            let count = try parseExpression()
            return .loop(count, try parseCommand())
        case "atleast":
            let count = try parseExpression()
            return .atleast(count, try parseCommand())
        case "backwards":
            guard !backward else { throw error("'backwards' inside backward mode") }
            backward = true
            defer { backward = false }
            return .backwards(try parseCommand())
        case "setlimit":
            let limit = try parseCommand()
            try expect(.word("for"))
            return .setlimit(limit, try parseCommand())
        case "setmark":
            return .assignInteger(try integerSlot(try takeName()), .assign, .cursor)
        case "atmark":
            return .compare(.cursor, .equal, try parseExpression())
        case "tomark":
            return .tomark(try parseExpression())
        case "hop":
            let distance = try parseExpression()
            // A negative constant hop signals f, as the Snowball compiler makes it.
            if case .number(let value) = distance, value < 0 { return .alwaysFalse }
            return .hop(distance)
        case "next": return .next
        case "tolimit": return .tolimit
        case "atlimit": return .compare(.cursor, backward ? .lessOrEqual : .greaterOrEqual, .limit)
        case "true": return .alwaysTrue
        case "false": return .alwaysFalse
        case "delete": return .sliceFrom(.literal([]))
        case "insert": return try insertion(SnowballCommand.insert)
        case "attach": return try insertion(SnowballCommand.attach)
        case "set": return .setBoolean(try booleanSlot(try takeName()), true)
        case "unset": return .setBoolean(try booleanSlot(try takeName()), false)
        case "non":
            _ = skip(.symbol("-"))
            let name = try takeName()
            guard case .grouping(let slot)? = names[name] else { throw error("'\(name)' is not a grouping") }
            return .grouping(slot, negated: true)
        case "among":
            return try parseAmong()
        case "substring":
            guard pendingSubstring == nil else { throw error("two substrings without an among") }
            amongs.append(nil)
            pendingSubstring = (amongs.count - 1, backward)
            return .substring(amongs.count - 1)
        case "reverse", "get":
            throw error("'\(word)' is not supported")
        default:
            switch names[word] {
            case .routine(let slot)?: return .call(slot)
            case .grouping(let slot)?: return .grouping(slot, negated: false)
            case .boolean(let slot)?: return .testBoolean(slot, negated: false)
            case .string(let slot)?: return .stringVariable(slot)
            case .integer?: throw error("integer name '\(word)' misplaced")
            case nil: throw error("unknown name '\(word)'")
            }
        }
    }

    private mutating func parseStringValue() throws(SnowballSyntaxError) -> SnowballStringValue {
        switch try take() {
        case .literal(let scalars): return .literal(scalars)
        case .word(let name): return .variable(try stringSlot(name))
        case let other: throw error("expected a string, found \(other)")
        }
    }

    private func stringSlot(_ name: String) throws(SnowballSyntaxError) -> Int {
        guard case .string(let slot)? = names[name] else { throw error("'\(name)' is not a string variable") }
        return slot
    }

    private func integerSlot(_ name: String) throws(SnowballSyntaxError) -> Int {
        guard case .integer(let slot)? = names[name] else { throw error("'\(name)' is not an integer variable") }
        return slot
    }

    private func booleanSlot(_ name: String) throws(SnowballSyntaxError) -> Int {
        guard case .boolean(let slot)? = names[name] else { throw error("'\(name)' is not a boolean variable") }
        return slot
    }

    private static let comparisons: [String: SnowballComparison] = [
        "==": .equal, "!=": .notEqual, ">": .greater, ">=": .greaterOrEqual, "<": .less, "<=": .lessOrEqual,
    ]
    private static let assignments: [String: SnowballAssignment] = [
        "=": .assign, "+=": .add, "-=": .subtract, "*=": .multiply, "/=": .divide,
    ]

    /// `$(AE op AE)`, `$x op AE` (a test) or `$x = AE` (an assignment).
    private mutating func parseDollar() throws(SnowballSyntaxError) -> SnowballCommand {
        if skip(.symbol("(")) {
            let lhs = try parseExpression()
            guard case .symbol(let op) = try take(), let comparison = Self.comparisons[op] else {
                throw error("expected a relational operator")
            }
            let rhs = try parseExpression()
            try expect(.symbol(")"))
            return .compare(lhs, comparison, rhs)
        }
        let name = try takeName()
        let slot = try integerSlot(name)
        guard case .symbol(let op) = try take() else { throw error("expected an operator after $\(name)") }
        if let comparison = Self.comparisons[op] {
            return .compare(.variable(slot), comparison, try parseExpression())
        }
        guard let assignment = Self.assignments[op] else { throw error("unexpected '\(op)' after $\(name)") }
        return .assignInteger(slot, assignment, try parseExpression())
    }

    // MARK: Among

    private mutating func parseAmong() throws(SnowballSyntaxError) -> SnowballCommand {
        // Taken before the commands are read: they may hold substring/among pairs of their own.
        let substring = pendingSubstring
        pendingSubstring = nil
        try expect(.symbol("("))
        var entries: [SnowballAmong.Entry] = []
        var pending: [(string: [Unicode.Scalar], condition: Int?)] = []
        var commands: [SnowballCommand] = []
        var starter: SnowballCommand?
        var first = true
        while !skip(.symbol(")")) {
            switch try take() {
            case .literal(let string):
                var condition: Int?
                if case .word(let name)? = peek, case .routine(let slot)? = names[name] {
                    index += 1
                    condition = slot
                }
                pending.append((string, condition))
            case .symbol("("):
                let list = try parseCommandList()
                let group: SnowballCommand? = list.isEmpty ? nil : (list.count == 1 ? list[0] : .sequence(list))
                if first {
                    // A legacy "starter": code run between the match and the command.
                    starter = group
                } else {
                    var command: Int?
                    if let group {
                        commands.append(group)
                        command = commands.count - 1
                    }
                    entries += pending.map { SnowballAmong.Entry(string: $0.string, condition: $0.condition, command: command) }
                    pending.removeAll()
                }
            case let other:
                throw error("unexpected \(other) in among(...)")
            }
            first = false
        }
        entries += pending.map { SnowballAmong.Entry(string: $0.string, condition: $0.condition, command: nil) }
        guard !entries.isEmpty else { throw error("empty among(...)") }
        if let substring {
            amongs[substring.index] = SnowballAmong(entries: entries, commands: commands, backward: substring.backward)
            guard let starter else { return .among(substring.index, searched: true) }
            return .sequence([starter, .among(substring.index, searched: true)])
        }
        amongs.append(SnowballAmong(entries: entries, commands: commands, backward: backward))
        let slot = amongs.count - 1
        guard let starter else { return .among(slot, searched: false) }
        return .sequence([.substring(slot), starter, .among(slot, searched: true)])
    }

    // MARK: Arithmetic

    private mutating func parseExpression(binding: Int = 0) throws(SnowballSyntaxError) -> SnowballExpression {
        var lhs: SnowballExpression
        switch try take() {
        case .symbol("-"):
            let operand = try parseExpression(binding: 100)
            if case .number(let value) = operand { lhs = .number(-value) } else { lhs = .negate(operand) }
        case .symbol("("):
            lhs = try parseExpression()
            try expect(.symbol(")"))
        case .number(let value):
            lhs = .number(value)
        case .word("cursor"): lhs = .cursor
        case .word("limit"): lhs = .limit
        case .word("len"), .word("size"): lhs = .length
        case .word("maxint"): lhs = .number(Int.max)
        case .word("minint"): lhs = .number(~Int.max)
        case .word("lenof"), .word("sizeof"):
            switch try parseStringValue() {
            case .literal(let scalars): lhs = .number(scalars.count)
            case .variable(let slot): lhs = .lengthOf(slot)
            }
        case .word(let name):
            lhs = .variable(try integerSlot(name))
        case let other:
            throw error("unexpected \(other) in an integer expression")
        }
        while case .symbol(let op)? = peek {
            let strength: Int
            switch op {
            case "+", "-": strength = 1
            case "*", "/": strength = 2
            default: return lhs
            }
            guard strength > binding else { return lhs }
            index += 1
            let rhs = try parseExpression(binding: strength)
            switch op {
            case "+": lhs = .add(lhs, rhs)
            case "-": lhs = .subtract(lhs, rhs)
            case "*": lhs = .multiply(lhs, rhs)
            default: lhs = .divide(lhs, rhs)
            }
        }
        return lhs
    }
}

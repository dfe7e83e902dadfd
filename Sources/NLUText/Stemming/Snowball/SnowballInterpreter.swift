/// Runs a ``SnowballProgram`` on one word: the string, cursor, limits and slice of the Snowball
/// runtime, with each command's meaning as the Snowball manual defines it and as the generated
/// Python of `snowballstemmer` 3.1.1 carries it out (the reference these stemmers are checked
/// against word for word). Works on Unicode scalars, as the Python stemmers work on code points.
struct SnowballInterpreter {
    private let program: SnowballProgram
    private(set) var current: [Unicode.Scalar]
    private var cursor = 0
    private var limit: Int
    private var limitBackward = 0
    private var bra = 0
    private var ket: Int
    private var backward = false
    private var integers: [Int]
    private var booleans: [Bool]
    private var strings: [[Unicode.Scalar]]

    init(program: SnowballProgram, word: [Unicode.Scalar]) {
        self.program = program
        current = word
        limit = word.count
        ket = word.count
        integers = Array(repeating: 0, count: program.integerCount)
        booleans = Array(repeating: false, count: program.booleanCount)
        strings = Array(repeating: [], count: program.stringCount)
    }

    /// Runs the program's `stem` routine; the stem is then ``current``.
    mutating func run() {
        _ = call(program.entry)
    }

    // MARK: Cursor bookkeeping

    /// Saves the cursor as the generated code does: from the limit in backward mode, so the saved
    /// position survives changes to the string before it.
    @inline(__always) private func saved() -> Int { backward ? limit - cursor : cursor }
    @inline(__always) private mutating func restore(_ value: Int) { cursor = backward ? limit - value : value }

    /// Steps the cursor one character in the direction of the code; false at the limit.
    @inline(__always) private mutating func step() -> Bool {
        if backward {
            guard cursor > limitBackward else { return false }
            cursor -= 1
        } else {
            guard cursor < limit else { return false }
            cursor += 1
        }
        return true
    }

    // MARK: Commands

    private mutating func call(_ routine: Int) -> Bool {
        let definition = program.routines[routine]
        let outer = backward
        backward = definition.backward
        var amongResult = -1
        let result = run(definition.body, &amongResult)
        backward = outer
        return result
    }

    /// Runs `command`; `amongResult` is the routine's among variable (which command a `substring`
    /// selected), local to each routine call as in the generated code.
    private mutating func run(_ command: SnowballCommand, _ amongResult: inout Int) -> Bool {
        switch command {
        case .sequence(let commands):
            for command in commands where !run(command, &amongResult) { return false }
            return true
        case .or(let alternatives):
            let start = saved()
            for alternative in alternatives {
                if run(alternative, &amongResult) { return true }
                restore(start)
            }
            return false
        case .and(let parts):
            let start = saved()
            for (position, part) in parts.enumerated() {
                if position > 0 { restore(start) }
                if !run(part, &amongResult) { return false }
            }
            return true
        case .not(let inner):
            let start = saved()
            if run(inner, &amongResult) { return false }
            restore(start)
            return true
        case .test(let inner):
            let start = saved()
            guard run(inner, &amongResult) else { return false }
            restore(start)
            return true
        case .try(let inner):
            let start = saved()
            if !run(inner, &amongResult) { restore(start) }
            return true
        case .do(let inner):
            let start = saved()
            _ = run(inner, &amongResult)
            restore(start)
            return true
        case .fail(let inner):
            _ = run(inner, &amongResult)
            return false
        case .repeat(let inner):
            repeatWhileSucceeding(inner, &amongResult)
            return true
        case .atleast(let count, let inner):
            var remaining = evaluate(count)
            while true {
                let start = saved()
                guard run(inner, &amongResult) else {
                    restore(start)
                    break
                }
                remaining -= 1
            }
            return remaining <= 0
        case .loop(let count, let inner):
            let times = evaluate(count)
            if times > 0 {
                for _ in 0..<times where !run(inner, &amongResult) { return false }
            }
            return true
        case .goto(let inner):
            while true {
                let start = saved()
                if run(inner, &amongResult) {
                    restore(start)
                    return true
                }
                restore(start)
                guard step() else { return false }
            }
        case .gopast(let inner):
            if case .grouping(let slot, let negated) = inner { return gopast(program.groupings[slot], negated: negated) }
            while true {
                let start = saved()
                if run(inner, &amongResult) { return true }
                restore(start)
                guard step() else { return false }
            }
        case .backwards(let inner):
            limitBackward = cursor
            cursor = limit
            backward = true
            defer { backward = false }
            guard run(inner, &amongResult) else { return false }
            cursor = limitBackward
            return true
        case .setlimit(let boundary, let inner):
            return setlimit(boundary, inner, &amongResult)
        case .literal(let scalars):
            return match(scalars)
        case .stringVariable(let slot):
            return match(strings[slot])
        case .grouping(let slot, let negated):
            return matchGrouping(program.groupings[slot], negated: negated)
        case .call(let routine):
            return call(routine)
        case .substring(let slot):
            amongResult = findAmong(program.amongs[slot])
            return amongResult >= 0
        case .among(let slot, let searched):
            let among = program.amongs[slot]
            if !searched {
                amongResult = findAmong(among)
                guard amongResult >= 0 else { return false }
            }
            // A match without a command of its own just succeeds.
            guard amongResult < among.commands.count else { return true }
            return run(among.commands[amongResult], &amongResult)
        case .leftSlice:
            if backward { ket = cursor } else { bra = cursor }
            return true
        case .rightSlice:
            if backward { bra = cursor } else { ket = cursor }
            return true
        case .sliceFrom(let value):
            let text = resolve(value)
            replace(from: bra, to: ket, with: text)
            ket = bra + text.count
            return true
        case .insert(let value):
            let start = cursor
            insert(resolve(value), from: cursor, to: cursor)
            if backward { cursor = start }
            return true
        case .attach(let value):
            let start = cursor
            insert(resolve(value), from: cursor, to: cursor)
            if !backward { cursor = start }
            return true
        case .assignString(let value):
            if backward {
                insert(resolve(value), from: limitBackward, to: cursor)
            } else {
                let start = cursor
                insert(resolve(value), from: cursor, to: limit)
                cursor = start
            }
            return true
        case .assignTo(let slot):
            strings[slot] = Array(current[0..<limit])
            return true
        case .sliceTo(let slot):
            strings[slot] = Array(current[bra..<ket])
            return true
        case .next:
            return step()
        case .hop(let distance):
            let target = backward ? cursor - evaluate(distance) : cursor + evaluate(distance)
            if backward {
                guard target >= limitBackward, target <= cursor else { return false }
            } else {
                guard target <= limit, target >= cursor else { return false }
            }
            cursor = target
            return true
        case .tomark(let mark):
            let target = evaluate(mark)
            if backward ? cursor < target : cursor > target { return false }
            cursor = target
            return true
        case .tolimit:
            cursor = backward ? limitBackward : limit
            return true
        case .assignInteger(let slot, let operation, let expression):
            let value = evaluate(expression)
            switch operation {
            case .assign: integers[slot] = value
            case .add: integers[slot] &+= value
            case .subtract: integers[slot] &-= value
            case .multiply: integers[slot] &*= value
            case .divide: integers[slot] = value == 0 ? Int.max : integers[slot] / value
            }
            return true
        case .compare(let lhs, let comparison, let rhs):
            return comparison.holds(evaluate(lhs), evaluate(rhs))
        case .setBoolean(let slot, let value):
            booleans[slot] = value
            return true
        case .testBoolean(let slot, let negated):
            return booleans[slot] != negated
        case .alwaysTrue:
            return true
        case .alwaysFalse:
            return false
        }
    }

    private mutating func repeatWhileSucceeding(_ inner: SnowballCommand, _ amongResult: inout Int) {
        while true {
            let start = saved()
            guard run(inner, &amongResult) else {
                restore(start)
                return
            }
        }
    }

    /// `setlimit C1 for C2`: C1 moves the cursor to the new limit, C2 runs within it, and the old
    /// limit comes back (in forward mode counted from the end, as text before it may have changed).
    private mutating func setlimit(_ boundary: SnowballCommand, _ inner: SnowballCommand,
                                   _ amongResult: inout Int) -> Bool {
        let start = saved()
        guard run(boundary, &amongResult) else { return false }
        if backward {
            let outer = limitBackward
            limitBackward = cursor
            restore(start)
            let result = run(inner, &amongResult)
            limitBackward = outer
            return result
        }
        let beyond = limit - cursor
        limit = cursor
        restore(start)
        let result = run(inner, &amongResult)
        limit += beyond
        return result
    }

    // MARK: Matching

    @inline(__always)
    private mutating func match(_ scalars: [Unicode.Scalar]) -> Bool {
        let count = scalars.count
        if backward {
            guard cursor - limitBackward >= count,
                  current[(cursor - count)..<cursor].elementsEqual(scalars) else { return false }
            cursor -= count
        } else {
            guard limit - cursor >= count,
                  current[cursor..<(cursor + count)].elementsEqual(scalars) else { return false }
            cursor += count
        }
        return true
    }

    @inline(__always)
    private mutating func matchGrouping(_ grouping: SnowballGrouping, negated: Bool) -> Bool {
        if backward {
            guard cursor > limitBackward, grouping.contains(current[cursor - 1]) != negated else { return false }
            cursor -= 1
        } else {
            guard cursor < limit, grouping.contains(current[cursor]) != negated else { return false }
            cursor += 1
        }
        return true
    }

    /// `gopast g` / `gopast non g` without the general loop: skip to just past the first
    /// character that is (not) in the grouping.
    private mutating func gopast(_ grouping: SnowballGrouping, negated: Bool) -> Bool {
        if backward {
            while cursor > limitBackward {
                cursor -= 1
                if grouping.contains(current[cursor]) != negated { return true }
            }
        } else {
            while cursor < limit {
                cursor += 1
                if grouping.contains(current[cursor - 1]) != negated { return true }
            }
        }
        return false
    }

    /// The index of the matched entry's command (or `commands.count` for an entry without one), or
    /// -1 when nothing matches: the longest entry that matches at the cursor and whose condition
    /// routine succeeds, the cursor left after (before, backward) it, as `find_among` does.
    private mutating func findAmong(_ among: SnowballAmong) -> Int {
        let start = cursor
        let edge: Unicode.Scalar? = backward
            ? (cursor > limitBackward ? current[cursor - 1] : nil)
            : (cursor < limit ? current[cursor] : nil)
        let (candidates, empty) = among.candidates(edge: edge)
        for entry in candidates where fits(entry.string, at: start) {
            if let result = accept(entry, at: start, among: among) { return result }
        }
        for entry in empty {
            if let result = accept(entry, at: start, among: among) { return result }
        }
        return -1
    }

    @inline(__always)
    private func fits(_ string: [Unicode.Scalar], at start: Int) -> Bool {
        let count = string.count
        if backward {
            return start - limitBackward >= count && current[(start - count)..<start].elementsEqual(string)
        }
        return limit - start >= count && current[start..<(start + count)].elementsEqual(string)
    }

    private mutating func accept(_ entry: SnowballAmong.Entry, at start: Int, among: SnowballAmong) -> Int? {
        let end = backward ? start - entry.string.count : start + entry.string.count
        cursor = end
        if let condition = entry.condition {
            let succeeded = call(condition)
            cursor = end
            guard succeeded else { return nil }
        }
        return entry.command ?? among.commands.count
    }

    // MARK: Changing the string

    private func resolve(_ value: SnowballStringValue) -> [Unicode.Scalar] {
        switch value {
        case .literal(let scalars): scalars
        case .variable(let slot): strings[slot]
        }
    }

    /// Replaces `start..<end` and moves the cursor and limit as `replace_s` does.
    @discardableResult
    private mutating func replace(from start: Int, to end: Int, with text: [Unicode.Scalar]) -> Int {
        let adjustment = text.count - (end - start)
        current.replaceSubrange(start..<end, with: text)
        limit += adjustment
        if cursor >= end {
            cursor += adjustment
        } else if cursor > start {
            cursor = start
        }
        return adjustment
    }

    /// Inserts as `insert` does: the slice moves along when it lies after the insertion point.
    private mutating func insert(_ text: [Unicode.Scalar], from start: Int, to end: Int) {
        let adjustment = replace(from: start, to: end, with: text)
        if start <= bra { bra += adjustment }
        if start <= ket { ket += adjustment }
    }

    // MARK: Arithmetic

    private func evaluate(_ expression: SnowballExpression) -> Int {
        switch expression {
        case .number(let value): value
        case .variable(let slot): integers[slot]
        case .cursor: cursor
        case .limit: backward ? limitBackward : limit
        case .length: current.count
        case .lengthOf(let slot): strings[slot].count
        case .negate(let inner): -evaluate(inner)
        case .add(let lhs, let rhs): evaluate(lhs) &+ evaluate(rhs)
        case .subtract(let lhs, let rhs): evaluate(lhs) &- evaluate(rhs)
        case .multiply(let lhs, let rhs): evaluate(lhs) &* evaluate(rhs)
        case .divide(let lhs, let rhs):
            evaluate(rhs) == 0 ? Int.max : evaluate(lhs) / evaluate(rhs)
        }
    }
}

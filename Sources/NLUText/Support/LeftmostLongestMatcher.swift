/// Finds fixed strings (a tokenizer's added and special tokens) in text: the leftmost match, the
/// longest one when several start there, as Hugging Face `tokenizers` finds added tokens with an
/// Aho-Corasick automaton in leftmost-longest mode. Trying every token at every position took
/// time in text length × token count (5,000 added tokens over 200 KB: minutes); the automaton
/// reads each element of the text once, plus a re-read after a match of at most the longest
/// token's length (needed to know that no longer token matches there).
///
/// Symbols are `UInt32` codes (UTF-8 bytes or Unicode scalar values), so one automaton serves both.
///
///     let matcher = LeftmostLongestMatcher(["[MASK]", "[MA"].map { $0.unicodeScalars.map(\.value) })
///     matcher.firstMatch(in: Array("a [MASK]".unicodeScalars), from: 0) { $0.value }   // (2..<8, pattern 0)
struct LeftmostLongestMatcher: Sendable {
    /// Marks "no such state" in the tables; `dead` ends a search (the match found is final).
    private static let none: Int32 = -1
    private static let dead: Int32 = -2
    private static let root: Int32 = 0

    /// Goto transitions other than the root's first symbols: (state << 32 | symbol) → state.
    private let transitions: [UInt64: Int32]
    /// The root's transitions for symbols below 256 (every byte, ASCII scalars), one load each.
    private let rootTable: [Int32]
    /// The state to continue from when a symbol has no transition (`dead` once a match is in hand).
    private let failure: [Int32]
    /// The longest pattern ending at each state (its own, else its failure state's), or `none`.
    private let matchPattern: [Int32]
    private let matchLength: [Int32]

    /// Whether there are no (non-empty) patterns.
    let isEmpty: Bool

    /// An automaton for `patterns`; empty ones never match, and of equal patterns the first wins.
    init(_ patterns: [[UInt32]]) {
        var transitions: [UInt64: Int32] = [:]
        var children: [[(symbol: UInt32, state: Int32)]] = [[]]
        var matchPattern: [Int32] = [Self.none], matchLength: [Int32] = [0]
        for (index, pattern) in patterns.enumerated() where !pattern.isEmpty {
            var state = Self.root
            for symbol in pattern {
                let key = UInt64(UInt32(state)) << 32 | UInt64(symbol)
                if let next = transitions[key] {
                    state = next
                } else {
                    let next = Int32(children.count)
                    transitions[key] = next
                    children[Int(state)].append((symbol, next))
                    children.append([])
                    matchPattern.append(Self.none)
                    matchLength.append(0)
                    state = next
                }
            }
            if matchPattern[Int(state)] == Self.none {
                matchPattern[Int(state)] = Int32(index)
                matchLength[Int(state)] = Int32(pattern.count)
            }
        }
        func goto(_ state: Int32, _ symbol: UInt32) -> Int32? { transitions[UInt64(UInt32(state)) << 32 | UInt64(symbol)] }

        // Failure links breadth first, in leftmost mode (as the aho-corasick crate builds them): a
        // state that completes a pattern fails to `dead`, since after a match only a longer match
        // from the same start may replace it, never one that starts further right.
        var failure = [Int32](repeating: Self.root, count: children.count)
        var queue: [Int32] = []
        for (_, child) in children[0] {
            failure[Int(child)] = matchPattern[Int(child)] == Self.none ? Self.root : Self.dead
            queue.append(child)
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for (symbol, child) in children[Int(state)] {
                queue.append(child)
                if matchPattern[Int(child)] != Self.none {
                    failure[Int(child)] = Self.dead
                    continue
                }
                var fallback = failure[Int(state)]
                while true {
                    if fallback == Self.dead { break }
                    if let next = goto(fallback, symbol) { fallback = next; break }
                    if fallback == Self.root { break }
                    fallback = failure[Int(fallback)]
                }
                failure[Int(child)] = fallback
                // A pattern that ends here as a suffix (it starts later) is the match so far.
                if fallback >= 0, matchPattern[Int(fallback)] != Self.none {
                    matchPattern[Int(child)] = matchPattern[Int(fallback)]
                    matchLength[Int(child)] = matchLength[Int(fallback)]
                }
            }
        }
        var rootTable = [Int32](repeating: Self.none, count: 256)
        for (symbol, child) in children[0] where symbol < 256 {
            rootTable[Int(symbol)] = child
            transitions[UInt64(symbol)] = nil
        }
        self.transitions = transitions
        self.rootTable = rootTable
        self.failure = failure
        self.matchPattern = matchPattern
        self.matchLength = matchLength
        isEmpty = children[0].isEmpty
    }

    @inline(__always)
    private func next(_ state: Int32, _ symbol: UInt32) -> Int32? {
        if state == Self.root, symbol < 256 {
            let next = rootTable[Int(symbol)]
            return next == Self.none ? nil : next
        }
        return transitions[UInt64(UInt32(state)) << 32 | UInt64(symbol)]
    }

    /// The leftmost match at or after `from` in `text` (the longest of those starting there): its
    /// range and the index of its pattern in the list given to `init`.
    @inline(__always)
    func firstMatch<Text: RandomAccessCollection>(in text: Text, from: Int, symbol: (Text.Element) -> UInt32)
        -> (range: Range<Int>, pattern: Int)? where Text.Index == Int {
        if isEmpty { return nil }
        var state = Self.root
        var found: (end: Int, pattern: Int32, length: Int32)?
        var index = from
        let end = text.endIndex
        while index < end {
            let code = symbol(text[index])
            index += 1
            var target = next(state, code)
            while target == nil {
                // No transition: fall back (a start further right) until one has it, or give up.
                if state == Self.root { break }
                state = failure[Int(state)]
                if state == Self.dead { break }
                target = next(state, code)
            }
            if state == Self.dead { break }
            state = target ?? Self.root
            let pattern = matchPattern[Int(state)]
            if pattern != Self.none { found = (index, pattern, matchLength[Int(state)]) }
        }
        return found.map { ((($0.end - Int($0.length))..<$0.end), Int($0.pattern)) }
    }
}

/// Turns a word into the number pieces of a ``NumberLexicon``: a piece of the table ("vingt"), pieces glued
/// together ("dreihundertvierundzwanzig"), an ordinal by its ending ("cinquième", "zwanzigste"), or a
/// denominator ("cinquièmes", "veinticincoavos"). Nil for a word that is no number. Words are short, so
/// trying every split point of a glued word costs little; a parser asks once per token. Every step works on
/// the folded word's scalars: a text's every word is asked about, and most are no number. A class: each text's
/// parser holds it, and a struct would copy the lexicon's tables with every text (a retain and a release each).
final class NumberWordAnalyzer: Sendable {
    typealias Word = [Unicode.Scalar]

    let lexicon: NumberLexicon
    /// The table's pieces and the glued-only ones by their scalars (a table piece wins over a glued-only one).
    private let pieces: PieceTree
    /// The lexicon's endings and stem repairs as scalars; the repairs begin with "change nothing".
    private let ordinalEndings: [Word]
    private let stemRepairs: [(drop: Word, add: Word)]
    private let pluralEndings: [(plural: Word, singular: Word)]
    private let denominatorEndings: [Word]

    init(_ lexicon: NumberLexicon) {
        self.lexicon = lexicon
        pieces = PieceTree(table: lexicon.morphemes, gluedOnly: lexicon.gluedOnly)
        ordinalEndings = lexicon.ordinalEndings.map { Array($0.unicodeScalars) }
        stemRepairs = [([], [])] + lexicon.stemRepairs.map { (Array($0.drop.unicodeScalars), Array($0.add.unicodeScalars)) }
        pluralEndings = lexicon.pluralEndings.map { (Array($0.plural.unicodeScalars), Array($0.singular.unicodeScalars)) }
        denominatorEndings = lexicon.denominatorEndings.map { Array($0.unicodeScalars) }
    }

    /// The pieces of `word` (lower case, as tokens hold it), or nil.
    func morphemes(of word: String) -> [NumberMorpheme]? {
        let folded = NumberLexicon.foldedScalars(word)
        // Every reading below begins with a piece at the word's start (a table word, glued pieces, a cardinal
        // stem before an ending): a word whose first letter begins none is no number, whatever its ending.
        guard let first = folded.first, pieces.child(of: PieceTree.root, first) != nil else { return nil }
        if let piece = pieces.tableWord(folded) { return [piece] }
        let glued = lexicon.gluesWords ? segmented(folded) : nil
        // A connector joins pieces inside a word; one at either end ("mili": "mil" + "i") makes no number word.
        if let glued, glued.count > 1, glued.first != .connector, glued.last != .connector { return glued }
        if let denominator = denominator(folded) { return [.fraction(denominator)] }
        return ordinal(folded, glued: glued)
    }

    /// A cardinal's value read from its pieces alone ("vingt-cinq" in "vingt-cinquièmes"), or nil.
    func cardinalValue(_ pieces: [NumberMorpheme]) -> Int64? {
        var reading = NumberWordsReading(lexicon: lexicon)
        for piece in pieces where !reading.add(piece) { return nil }
        return reading.kind == .cardinal ? reading.integerValue : nil
    }

    /// "cinquièmes", "quintos", "quinti", "veinticincoavos": the denominator, or nil.
    private func denominator(_ word: Word) -> Int64? {
        for ending in denominatorEndings where word.count > ending.count && word.ends(with: ending, before: word.count) {
            if let pieces = cardinal(Array(word.dropLast(ending.count))), let value = cardinalValue(pieces), value > 2 { return value }
        }
        for (plural, singular) in pluralEndings where word.count > plural.count + 2 && word.ends(with: plural, before: word.count) {
            guard let pieces = ordinal(Array(word.dropLast(plural.count)) + singular) else { continue }
            var reading = NumberWordsReading(lexicon: lexicon)
            for piece in pieces where !reading.add(piece) { return nil }
            if reading.kind == .ordinal, let value = reading.integerValue, value > 2 { return value }
        }
        return nil
    }

    /// An ordinal word's pieces: a table word ("premier", "vigésimo"), or a cardinal stem and an ordinal ending.
    private func ordinal(_ word: Word) -> [NumberMorpheme]? {
        switch pieces.tableWord(word) {
        case .ordinal(let value): return [.ordinal(value)]
        case .ordinalScale(let value): return [.ordinalScale(value)]
        default: break
        }
        return ordinal(word, glued: lexicon.gluesWords ? segmented(word) : nil)
    }

    /// An ordinal that is no table word: glued pieces holding an ordinal, or a cardinal stem and an ending.
    /// `glued` is the word's split into pieces, as ``segmented(_:)`` gives it.
    private func ordinal(_ word: Word, glued: [NumberMorpheme]?) -> [NumberMorpheme]? {
        if let glued, glued.count > 1,
           glued.contains(where: { if case .ordinal = $0 { true } else if case .ordinalScale = $0 { true } else { false } }) {
            return glued
        }
        for ending in ordinalEndings where word.count > ending.count && word.ends(with: ending, before: word.count) {
            let stem = word.count - ending.count
            for repair in stemRepairs where word.ends(with: repair.drop, before: stem) {
                if let pieces = cardinal(Array(word[..<(stem - repair.drop.count)]) + repair.add) { return pieces + [.ordinalMark] }
            }
        }
        return nil
    }

    /// A cardinal's pieces (values, hundreds, scales, connectors inside), or nil.
    private func cardinal(_ word: Word) -> [NumberMorpheme]? {
        let pieces: [NumberMorpheme]
        if let piece = self.pieces.word(word) {
            pieces = [piece]
        } else if lexicon.gluesWords, let glued = segmented(word) {
            pieces = glued
        } else {
            return nil
        }
        guard pieces.last != .connector, pieces.allSatisfy({ piece in
            switch piece {
            case .value, .hundreds, .hundred, .scale, .connector: true
            default: false
            }
        }) else { return nil }
        return pieces
    }

    /// `word` split into table pieces, longest piece first at each point, or nil.
    private func segmented(_ word: Word) -> [NumberMorpheme]? {
        // Most words asked about are no number: those that no piece begins are turned away before any allocation.
        if let first = word.first, pieces.child(of: PieceTree.root, first) == nil { return nil }
        var found: [NumberMorpheme] = []
        // The shallowest depth a split from each point failed at: from there or deeper (fewer pieces left) it fails
        // again, so a point is not searched twice, however the split backtracks.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: word.count + 1) { failed in
            failed.initialize(repeating: .max)
            return split(word, from: 0, into: &found, failed: failed, depth: 0) ? found : nil
        }
    }

    private func split(_ word: Word, from start: Int, into found: inout [NumberMorpheme],
                       failed: UnsafeMutableBufferPointer<Int>, depth: Int) -> Bool {
        if start == word.count { return true }
        // A number word has a few dozen pieces at most.
        guard depth < 24, depth < failed[start] else { return false }
        if split(word, from: start, reaching: PieceTree.root, at: start, into: &found, failed: failed, depth: depth) { return true }
        failed[start] = depth
        return false
    }

    /// Tries the pieces that begin at `start` and pass through `node` (reached at `position`), longest first:
    /// down the tree along the word, then each piece that ends on the way back.
    private func split(_ word: Word, from start: Int, reaching node: Int, at position: Int, into found: inout [NumberMorpheme],
                       failed: UnsafeMutableBufferPointer<Int>, depth: Int) -> Bool {
        if position < word.count, let next = pieces.child(of: node, word[position]),
           split(word, from: start, reaching: next, at: position + 1, into: &found, failed: failed, depth: depth) {
            return true
        }
        guard position > start, let morpheme = pieces.ending(node) else { return false }
        found.append(morpheme)
        if split(word, from: position, into: &found, failed: failed, depth: depth + 1) { return true }
        found.removeLast()
        return false
    }
}

private extension [Unicode.Scalar] {
    /// Whether the scalars before `end` end with `ending`.
    func ends(with ending: [Unicode.Scalar], before end: Int) -> Bool {
        guard end >= ending.count, end <= count else { return false }
        let start = end - ending.count
        for offset in ending.indices where self[start + offset] != ending[offset] { return false }
        return true
    }
}

/// Number pieces as a tree of their scalars: walking a word from a point meets every piece that starts there,
/// without making a string of each candidate length. A node's children lie side by side in one array, sorted by
/// scalar, so a step compares a few scalars rather than hashing one.
private struct PieceTree: Sendable {
    static let root = 0
    /// Node `n`'s children are `childScalars[firstChild[n]..<firstChild[n + 1]]`, leading to `childNodes` there.
    private let firstChild: [Int]
    private let childScalars: [Unicode.Scalar]
    private let childNodes: [Int]
    /// The piece that ends at each node, and whether it is a table word (rather than a glued-only piece).
    private let endings: [NumberMorpheme?]
    private let inTable: [Bool]

    init(table: [String: NumberMorpheme], gluedOnly: [String: NumberMorpheme]) {
        var children: [[Unicode.Scalar: Int]] = [[:]]
        var endings: [NumberMorpheme?] = [nil]
        var inTable = [false]
        func insert(_ piece: String, _ morpheme: NumberMorpheme, fromTable: Bool) {
            var node = Self.root
            for scalar in piece.unicodeScalars {
                if let next = children[node][scalar] {
                    node = next
                } else {
                    children.append([:])
                    endings.append(nil)
                    inTable.append(false)
                    children[node][scalar] = children.count - 1
                    node = children.count - 1
                }
            }
            endings[node] = morpheme
            inTable[node] = fromTable
        }
        for (piece, morpheme) in gluedOnly { insert(piece, morpheme, fromTable: false) }
        for (piece, morpheme) in table { insert(piece, morpheme, fromTable: true) }
        var firstChild: [Int] = [], childScalars: [Unicode.Scalar] = [], childNodes: [Int] = []
        for node in children {
            firstChild.append(childScalars.count)
            for (scalar, next) in node.sorted(by: { $0.key.value < $1.key.value }) {
                childScalars.append(scalar)
                childNodes.append(next)
            }
        }
        firstChild.append(childScalars.count)
        self.firstChild = firstChild
        self.childScalars = childScalars
        self.childNodes = childNodes
        self.endings = endings
        self.inTable = inTable
    }

    /// The node `scalar` leads to from `node`, or nil.
    func child(of node: Int, _ scalar: Unicode.Scalar) -> Int? {
        for index in firstChild[node]..<firstChild[node + 1] where childScalars[index] == scalar { return childNodes[index] }
        return nil
    }

    /// The piece that ends at `node`, or nil.
    func ending(_ node: Int) -> NumberMorpheme? { endings[node] }

    /// The piece `word` is, table or glued-only, or nil.
    func word(_ word: [Unicode.Scalar]) -> NumberMorpheme? { self.node(of: word).flatMap { endings[$0] } }

    /// The table word `word` is, or nil.
    func tableWord(_ word: [Unicode.Scalar]) -> NumberMorpheme? {
        guard let node = node(of: word), inTable[node] else { return nil }
        return endings[node]
    }

    private func node(of word: [Unicode.Scalar]) -> Int? {
        var node = Self.root
        for scalar in word {
            guard let next = child(of: node, scalar) else { return nil }
            node = next
        }
        return node
    }
}

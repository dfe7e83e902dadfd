/// Turns a word into the number pieces of a ``NumberLexicon``: a piece of the table ("vingt"), pieces glued
/// together ("dreihundertvierundzwanzig"), an ordinal by its ending ("cinquième", "zwanzigste"), or a
/// denominator ("cinquièmes", "veinticincoavos"). Nil for a word that is no number. Words are short, so
/// trying every split point of a glued word costs little; a parser asks once per token.
struct NumberWordAnalyzer: Sendable {
    let lexicon: NumberLexicon
    /// The table's pieces by their scalars, for splitting glued words (a table piece wins over a glued-only one).
    private let pieces: PieceTree

    init(_ lexicon: NumberLexicon) {
        self.lexicon = lexicon
        pieces = PieceTree(lexicon.gluedOnly.merging(lexicon.morphemes) { _, table in table })
    }

    /// The pieces of `word` (lower case, as tokens hold it), or nil.
    func morphemes(of word: String) -> [NumberMorpheme]? {
        let folded = NumberLexicon.fold(word)
        if let piece = lexicon.morphemes[folded] { return [piece] }
        // A connector joins pieces inside a word; one at either end ("mili": "mil" + "i") makes no number word.
        if lexicon.gluesWords, let pieces = segmented(Array(folded.unicodeScalars)), pieces.count > 1,
           pieces.first != .connector, pieces.last != .connector {
            return pieces
        }
        if let denominator = denominator(folded) { return [.fraction(denominator)] }
        return ordinal(folded)
    }

    /// A cardinal's value read from its pieces alone ("vingt-cinq" in "vingt-cinquièmes"), or nil.
    func cardinalValue(_ pieces: [NumberMorpheme]) -> Int64? {
        var reading = NumberWordsReading(lexicon: lexicon)
        for piece in pieces where !reading.add(piece) { return nil }
        return reading.kind == .cardinal ? reading.integerValue : nil
    }

    /// "cinquièmes", "quintos", "quinti", "veinticincoavos": the denominator, or nil.
    private func denominator(_ word: String) -> Int64? {
        for ending in lexicon.denominatorEndings where word.hasSuffix(ending) && word.count > ending.count {
            if let pieces = cardinal(String(word.dropLast(ending.count))), let value = cardinalValue(pieces), value > 2 { return value }
        }
        for (plural, singular) in lexicon.pluralEndings where word.hasSuffix(plural) && word.count > plural.count + 2 {
            guard let pieces = ordinal(String(word.dropLast(plural.count)) + singular) else { continue }
            var reading = NumberWordsReading(lexicon: lexicon)
            for piece in pieces where !reading.add(piece) { return nil }
            if reading.kind == .ordinal, let value = reading.integerValue, value > 2 { return value }
        }
        return nil
    }

    /// An ordinal word's pieces: a table word ("premier", "vigésimo"), or a cardinal stem and an ordinal ending.
    private func ordinal(_ word: String) -> [NumberMorpheme]? {
        switch lexicon.morphemes[word] {
        case .ordinal(let value): return [.ordinal(value)]
        case .ordinalScale(let value): return [.ordinalScale(value)]
        default: break
        }
        if lexicon.gluesWords, let pieces = segmented(Array(word.unicodeScalars)), pieces.count > 1,
           pieces.contains(where: { if case .ordinal = $0 { true } else if case .ordinalScale = $0 { true } else { false } }) {
            return pieces
        }
        for ending in lexicon.ordinalEndings where word.hasSuffix(ending) && word.count > ending.count {
            let stem = String(word.dropLast(ending.count))
            for repair in [(drop: "", add: "")] + lexicon.stemRepairs where stem.hasSuffix(repair.drop) {
                if let pieces = cardinal(String(stem.dropLast(repair.drop.count)) + repair.add) { return pieces + [.ordinalMark] }
            }
        }
        return nil
    }

    /// A cardinal's pieces (values, hundreds, scales, connectors inside), or nil.
    private func cardinal(_ word: String) -> [NumberMorpheme]? {
        let pieces: [NumberMorpheme]
        if let piece = lexicon.morphemes[word] ?? lexicon.gluedOnly[word] {
            pieces = [piece]
        } else if lexicon.gluesWords, let glued = segmented(Array(word.unicodeScalars)) {
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
    private func segmented(_ word: [Unicode.Scalar]) -> [NumberMorpheme]? {
        // Most words asked about are no number: those that no piece begins are turned away before any allocation.
        if let first = word.first, !pieces.begins(with: first) { return nil }
        var found: [NumberMorpheme] = []
        // The shallowest depth a split from each point failed at: from there or deeper (fewer pieces left) it fails
        // again, so a point is not searched twice, however the split backtracks.
        var failed = [Int](repeating: Int.max, count: word.count + 1)
        return split(word, from: 0, into: &found, failed: &failed, depth: 0) ? found : nil
    }

    private func split(_ word: [Unicode.Scalar], from start: Int, into found: inout [NumberMorpheme], failed: inout [Int],
                       depth: Int) -> Bool {
        if start == word.count { return true }
        // A number word has a few dozen pieces at most.
        guard depth < 24, depth < failed[start] else { return false }
        for (length, morpheme) in pieces.pieces(of: word, from: start).reversed() {
            found.append(morpheme)
            if split(word, from: start + length, into: &found, failed: &failed, depth: depth + 1) { return true }
            found.removeLast()
        }
        failed[start] = depth
        return false
    }
}

/// Number pieces as a tree of their scalars: walking a word from a point meets every piece that starts there,
/// without making a string of each candidate length.
private struct PieceTree: Sendable {
    private var children: [[Unicode.Scalar: Int]] = [[:]]
    private var endings: [NumberMorpheme?] = [nil]

    init(_ table: [String: NumberMorpheme]) {
        for (piece, morpheme) in table {
            var node = 0
            for scalar in piece.unicodeScalars {
                if let next = children[node][scalar] {
                    node = next
                } else {
                    children.append([:])
                    endings.append(nil)
                    children[node][scalar] = children.count - 1
                    node = children.count - 1
                }
            }
            endings[node] = morpheme
        }
    }

    /// Whether some piece begins with `scalar`.
    func begins(with scalar: Unicode.Scalar) -> Bool { children[0][scalar] != nil }

    /// The pieces that start at `start` in `word`, shortest first, with their lengths in scalars.
    func pieces(of word: [Unicode.Scalar], from start: Int) -> [(length: Int, morpheme: NumberMorpheme)] {
        var found: [(length: Int, morpheme: NumberMorpheme)] = []
        var node = 0, position = start
        while position < word.count, let next = children[node][word[position]] {
            node = next
            position += 1
            if let morpheme = endings[node] { found.append((position - start, morpheme)) }
        }
        return found
    }
}

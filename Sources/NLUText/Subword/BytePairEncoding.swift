/// A BPE model (Hugging Face `models::bpe::BPE` without dropout): a word starts as one symbol per
/// scalar and adjacent symbols are merged by the rank of their pair in the merges list, lowest
/// rank first and leftmost first among equals, until no listed pair is left.
///
///     let bpe = try BytePairEncoding(vocabulary: ["a": 0, "b": 1, "ab": 2], merges: [("a", "b")])
///     bpe.tokenize(Array("abab".unicodeScalars)).map(\.id)   // [2, 2]
public struct BytePairEncoding: Sendable {
    /// Token → id.
    public let vocabulary: [String: Int32]
    /// (left id, right id) packed in an Int64 → (rank, id of the merged token).
    let merges: [Int64: (rank: Int32, id: Int32)]
    /// The id of single scalars missing from the vocabulary; nil drops them (GPT-2's byte-level
    /// vocabularies have all 256 byte scalars).
    let unknownID: Int32?
    /// Consecutive unknown scalars become one unknown token.
    let fusesUnknown: Bool
    /// A word that is itself in the vocabulary is one token, merges or not (`ignore_merges`).
    let ignoresMerges: Bool

    /// Builds the model; every merge's parts and result must be in the vocabulary.
    /// - Throws: ``BertTokenizerError/invalidFile(file:detail:)`` naming the merge.
    public init(vocabulary: [String: Int32], merges: [(String, String)], unknownToken: String? = nil,
                fusesUnknown: Bool = false, ignoresMerges: Bool = false, source: String = "merges") throws {
        self.vocabulary = vocabulary
        var table: [Int64: (rank: Int32, id: Int32)] = [:]
        table.reserveCapacity(merges.count)
        for (rank, (left, right)) in merges.enumerated() {
            guard let leftID = vocabulary[left], let rightID = vocabulary[right], let merged = vocabulary[left + right] else {
                throw BertTokenizerError.invalidFile(
                    file: source, detail: "merge \(rank + 1) (\"\(left)\" \"\(right)\") names a token missing from the vocabulary")
            }
            // A pair listed twice keeps its last rank, as the Rust map built from the list does.
            table[Self.pairKey(leftID, rightID)] = (Int32(rank), merged)
        }
        self.merges = table
        if let unknownToken {
            guard let id = vocabulary[unknownToken] else {
                throw VocabularyError.missingToken(source: source, token: unknownToken, role: "unknown")
            }
            unknownID = id
        } else {
            unknownID = nil
        }
        self.fusesUnknown = fusesUnknown
        self.ignoresMerges = ignoresMerges
    }

    @inline(__always)
    static func pairKey(_ left: Int32, _ right: Int32) -> Int64 { Int64(left) << 32 | Int64(UInt32(bitPattern: right)) }

    /// The tokens of one word: ids and the scalar range each covers.
    public func tokenize(_ word: [Unicode.Scalar]) -> [(id: Int32, range: Range<Int>)] {
        if word.isEmpty { return [] }
        if ignoresMerges, let id = vocabulary[String(String.UnicodeScalarView(word))] {
            return [(id, 0..<word.count)]
        }
        var symbols: [(id: Int32, range: Range<Int>)] = []
        symbols.reserveCapacity(word.count)
        var previousUnknown = false
        for (index, scalar) in word.enumerated() {
            if let id = vocabulary[String(scalar)] {
                symbols.append((id, index..<(index + 1)))
                previousUnknown = false
            } else if let unknownID {
                if fusesUnknown && previousUnknown, let last = symbols.last {
                    symbols[symbols.count - 1] = (unknownID, last.range.lowerBound..<(index + 1))
                } else {
                    symbols.append((unknownID, index..<(index + 1)))
                }
                previousUnknown = true
            }
        }
        return merged(symbols)
    }

    /// `symbols` with the best-ranked adjacent pair (leftmost among equal ranks) merged until none is listed, in the
    /// order the Rust implementation's priority queue merges them (`Word::merge_all`): the symbols form a linked list,
    /// each merge pushes the two pairs it creates, and a queued pair whose symbols have changed since is skipped.
    private func merged(_ symbols: [(id: Int32, range: Range<Int>)]) -> [(id: Int32, range: Range<Int>)] {
        guard symbols.count > 1 else { return symbols }
        var ids = symbols.map(\.id)
        var ends = symbols.map(\.range.upperBound)
        var alive = [Bool](repeating: true, count: symbols.count)
        var previous = Array(-1..<(symbols.count - 1))
        var next = Array(1...symbols.count)   // symbols.count: none
        var queue = MergeQueue(capacity: symbols.count)
        for position in 0..<(symbols.count - 1) {
            if let merge = merges[Self.pairKey(ids[position], ids[position + 1])] {
                queue.push(.init(position: position, rank: merge.rank, id: merge.id))
            }
        }
        while let top = queue.pop() {
            let position = top.position
            guard alive[position], next[position] < symbols.count else { continue }
            let right = next[position]
            // A pair queued before one of its symbols changed: Rust compares the merged id only.
            guard let merge = merges[Self.pairKey(ids[position], ids[right])], merge.id == top.id else { continue }
            ids[position] = top.id
            ends[position] = ends[right]
            alive[right] = false
            next[position] = next[right]
            if next[right] < symbols.count { previous[next[right]] = position }
            if previous[position] >= 0, let merge = merges[Self.pairKey(ids[previous[position]], ids[position])] {
                queue.push(.init(position: previous[position], rank: merge.rank, id: merge.id))
            }
            if next[position] < symbols.count, let merge = merges[Self.pairKey(ids[position], ids[next[position]])] {
                queue.push(.init(position: position, rank: merge.rank, id: merge.id))
            }
        }
        return symbols.indices.filter { alive[$0] }.map { (ids[$0], symbols[$0].range.lowerBound..<ends[$0]) }
    }
}

/// Finds special tokens (`[CLS]`, `[SEP]`, `[MASK]`, ...) in raw text before normalization, so they are
/// never split, as the fast tokenizer's added vocabulary does for tokens with `normalized: false`:
/// leftmost match first, the longest one when several start at the same place.
///
///     let matcher = SpecialTokenMatcher(tokens: [("[SEP]", 102), ("[MASK]", 103)])
///     // "a [MASK] b" -> one match of id 103 at bytes 2..<8
struct SpecialTokenMatcher: Sendable {
    private let ids: [Int32]
    private let automaton: LeftmostLongestMatcher

    init(tokens: [(String, Int32)]) {
        ids = tokens.map(\.1)
        automaton = LeftmostLongestMatcher(tokens.map { $0.0.utf8.map(UInt32.init) })
    }

    var isEmpty: Bool { automaton.isEmpty }

    /// The next match at or after `from` in `bytes`: its byte range and id.
    @inline(__always)
    func nextMatch(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> (range: Range<Int>, id: Int32)? {
        automaton.firstMatch(in: bytes, from: from) { UInt32($0) }.map { ($0.range, ids[$0.pattern]) }
    }
}

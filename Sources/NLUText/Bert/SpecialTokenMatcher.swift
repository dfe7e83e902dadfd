/// Finds special tokens (`[CLS]`, `[SEP]`, `[MASK]`, ...) in raw text before normalization, so they are
/// never split, as the fast tokenizer's added vocabulary does for tokens with `normalized: false`:
/// leftmost match first, the longest one when several start at the same place.
///
///     let matcher = SpecialTokenMatcher(tokens: [("[SEP]", 102), ("[MASK]", 103)])
///     // "a [MASK] b" -> one match of id 103 at bytes 2..<8
struct SpecialTokenMatcher: Sendable {
    private let tokens: [(bytes: [UInt8], id: Int32)]
    /// Whether a byte starts some token: most bytes are rejected with one load.
    private let startsToken: [Bool]

    init(tokens: [(String, Int32)]) {
        // Longest first, so the first match at a position is the longest.
        self.tokens = tokens.map { (bytes: Array($0.0.utf8), id: $0.1) }
            .filter { !$0.bytes.isEmpty }
            .sorted { $0.bytes.count > $1.bytes.count }
        var starts = [Bool](repeating: false, count: 256)
        for token in self.tokens { starts[Int(token.bytes[0])] = true }
        startsToken = starts
    }

    var isEmpty: Bool { tokens.isEmpty }

    /// The next match at or after `from` in `bytes`: its byte range and id.
    @inline(__always)
    func nextMatch(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> (range: Range<Int>, id: Int32)? {
        if tokens.isEmpty { return nil }
        var index = from
        let count = bytes.count
        while index < count {
            if startsToken[Int(bytes[index])] {
                for token in tokens where token.bytes.count <= count - index {
                    var equal = true
                    for offset in 0..<token.bytes.count where bytes[index + offset] != token.bytes[offset] {
                        equal = false
                        break
                    }
                    if equal { return (index..<(index + token.bytes.count), token.id) }
                }
            }
            index += 1
        }
        return nil
    }
}

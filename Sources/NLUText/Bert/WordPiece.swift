/// The third step of the BERT pipeline, identical to the Rust `WordPiece` model: splits one word into
/// the longest vocabulary pieces from left to right, pieces after the first carrying the `##` prefix;
/// a word longer than `maxInputCharactersPerWord` scalars, or one that cannot be split completely,
/// becomes a single unknown token covering the whole word.
///
/// Lookups hash the UTF-8 bytes in place (``TokenTable``), with the running hash of every prefix computed
/// once per piece, and candidates longer than the vocabulary's longest token are never tried; this
/// gives the same pieces as trying every length.
///
///     let vocabulary = try Vocabulary(tokens: ["[UNK]", "un", "##aff", "##able"])
///     let wordPiece = try WordPiece(vocabulary: vocabulary)
///     wordPiece.pieces(of: "unaffable").map(\.id)    // [1, 2, 3]
///     wordPiece.pieces(of: "unaffable").map(\.range) // [0..<2, 2..<5, 5..<9]  (UTF-8 byte ranges)
public struct WordPiece: Sendable {
    /// One piece of a word: its id and its byte range in the word.
    public struct Piece: Sendable, Equatable {
        /// Vocabulary id.
        public var id: Int32
        /// UTF-8 byte range within the word.
        public var range: Range<Int>
    }

    /// Id of the unknown token.
    public let unknownID: Int32
    /// Longest word (in Unicode scalars) that is split; longer words become the unknown token.
    public let maxInputCharactersPerWord: Int
    private let wordStarts: TokenTable
    private let continuations: TokenTable

    /// Makes the model; throws when `unknownToken` is not in the vocabulary.
    public init(vocabulary: Vocabulary, unknownToken: String = "[UNK]", continuingSubwordPrefix: String = "##",
                maxInputCharactersPerWord: Int = 100) throws {
        unknownID = try vocabulary.requireID(for: unknownToken, role: "unknown")
        self.maxInputCharactersPerWord = maxInputCharactersPerWord
        let prefix = Array(continuingSubwordPrefix.utf8)
        wordStarts = TokenTable(vocabulary.tokens.enumerated().map { (key: Array($0.element.utf8), id: Int32($0.offset)) })
        continuations = TokenTable(vocabulary.tokens.enumerated().compactMap { entry -> (key: [UInt8], id: Int32)? in
            let bytes = Array(entry.element.utf8)
            guard bytes.count >= prefix.count, bytes.starts(with: prefix) else { return nil }
            return (key: Array(bytes[prefix.count...]), id: Int32(entry.offset))
        })
    }

    /// The pieces of `word` (already normalized and pre-tokenized).
    public func pieces(of word: String) -> [Piece] {
        var pieces: [Piece] = []
        let bytes = Array(word.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var hashes: [UInt64] = []
            appendPieces(of: buffer, word: 0..<buffer.count, prefixHashes: &hashes) { id, range in
                pieces.append(Piece(id: id, range: range))
            }
        }
        return pieces
    }

    /// Splits `bytes[word]` and calls `body` with each piece's id and byte range (in `bytes`).
    /// `prefixHashes` is scratch space reused across calls.
    @inline(__always)
    func appendPieces(of bytes: UnsafeBufferPointer<UInt8>, word: Range<Int>, prefixHashes: inout [UInt64],
                      _ body: (Int32, Range<Int>) -> Void) {
        guard let base = bytes.baseAddress, !word.isEmpty else { return }
        // Count scalars only when the byte length could exceed the limit.
        if word.count > maxInputCharactersPerWord {
            var scalars = 0
            for index in word where bytes[index] & 0xC0 != 0x80 { scalars += 1 }
            if scalars > maxInputCharactersPerWord {
                body(unknownID, word)
                return
            }
        }
        // First pass: find the pieces without reporting them, because a failure anywhere makes the
        // whole word unknown. Most words are one piece, kept in locals to avoid an array.
        var firstID: Int32 = -1, firstEnd = 0
        var more: [(Int32, Range<Int>)] = []
        var start = word.lowerBound
        while start < word.upperBound {
            let table = start == word.lowerBound ? wordStarts : continuations
            var end = min(word.upperBound, start + table.maxKeyLength)
            while end > start && end < word.upperBound && bytes[end] & 0xC0 == 0x80 { end -= 1 }
            // Running FNV state after each prefix length, so each candidate costs one probe.
            let length = end - start
            if prefixHashes.count < length + 1 { prefixHashes = [UInt64](repeating: 0, count: length + 1) }
            var found: Int32 = -1
            prefixHashes.withUnsafeMutableBufferPointer { states in
                var state = TokenTable.seed
                for offset in 0..<length {
                    state = TokenTable.fold(state, bytes[start + offset])
                    states[offset + 1] = state
                }
                while end > start {
                    let id = table.id(of: base + start, count: end - start, state: states[end - start])
                    if id >= 0 { found = id; break }
                    end -= 1
                    while end > start && bytes[end] & 0xC0 == 0x80 { end -= 1 }
                }
            }
            if found < 0 {
                body(unknownID, word)
                return
            }
            if start == word.lowerBound {
                firstID = found
                firstEnd = end
            } else {
                more.append((found, start..<end))
            }
            start = end
        }
        body(firstID, word.lowerBound..<firstEnd)
        for (id, range) in more { body(id, range) }
    }
}

/// A Unigram language model over subword pieces (SentencePiece's, as Hugging Face
/// `models::unigram::Unigram` runs it): the segmentation of a word with the highest sum of piece
/// log-probabilities (Viterbi over UTF-8 bytes), characters no piece covers scored as the unknown
/// token at `min score − 10` and consecutive unknowns fused into one; with byte fallback an unknown
/// piece becomes its bytes' `<0xXX>` tokens when the vocabulary has them all.
///
///     let model = try UnigramModel(pieces: [("<unk>", 0), ("ab", -1), ("a", -2), ("b", -2)], unknownID: 0)
///     model.tokenize("abb").map(\.id)   // [1, 3]
public struct UnigramModel: Sendable {
    /// Pieces and their log-probabilities, by id.
    public let pieces: [(piece: String, score: Double)]
    /// The unknown piece's id.
    public let unknownID: Int32?
    /// Whether unknown pieces become `<0xXX>` byte tokens.
    public let byteFallback: Bool
    /// The trie of the pieces' UTF-8 bytes: (node << 8 | byte) → child node; a node's piece in `nodePiece`.
    private let children: [Int: Int32]
    private let nodePiece: [Int32]
    private let pieceIDs: [String: Int32]
    private let minScore: Double

    /// Builds the model.
    /// - Throws: ``BertTokenizerError/invalidFile(file:detail:)`` for an empty list or an unknown id out of range.
    public init(pieces: [(String, Double)], unknownID: Int?, byteFallback: Bool = false, source: String = "tokenizer.json") throws {
        guard !pieces.isEmpty else { throw VocabularyError.empty(source: source) }
        if let unknownID, !(0..<pieces.count).contains(unknownID) {
            throw BertTokenizerError.invalidFile(file: source, detail: "model.unk_id \(unknownID) is outside the vocabulary's 0..<\(pieces.count)")
        }
        self.pieces = pieces.map { (piece: $0.0, score: $0.1) }
        self.unknownID = unknownID.map(Int32.init)
        self.byteFallback = byteFallback
        var children: [Int: Int32] = [:]
        var nodePiece: [Int32] = [-1]
        var ids: [String: Int32] = [:]
        var minScore = Double.infinity
        for (id, (piece, score)) in pieces.enumerated() {
            ids[piece] = Int32(id)   // a repeated piece keeps its last id, as the Rust map does
            minScore = min(minScore, score)
            var node = 0
            for byte in piece.utf8 {
                let key = node << 8 | Int(byte)
                if let child = children[key] {
                    node = Int(child)
                } else {
                    let child = Int32(nodePiece.count)
                    nodePiece.append(-1)
                    children[key] = child
                    node = Int(child)
                }
            }
            if node != 0 { nodePiece[node] = Int32(id) }
        }
        for node in nodePiece.indices where nodePiece[node] >= 0 {
            // The trie answers with the piece's id as the Rust map resolves a repeated piece.
            nodePiece[node] = ids[pieces[Int(nodePiece[node])].0] ?? nodePiece[node]
        }
        self.children = children
        self.nodePiece = nodePiece
        pieceIDs = ids
        self.minScore = minScore
    }

    /// The id of `piece`, if it is in the vocabulary.
    public func id(of piece: String) -> Int32? { pieceIDs[piece] }

    /// The best segmentation of `word`: ids and the scalar range of each token (byte-fallback
    /// tokens of one piece share its range).
    public func tokenize(_ word: String) -> [(id: Int32, range: Range<Int>)] {
        let bytes = Array(word.utf8)
        let size = bytes.count
        if size == 0 { return [] }
        let unknownScore = minScore - 10
        // Best path ending at each byte: its score, where its last piece starts, that piece's id.
        var bestScore = [Double](repeating: 0, count: size + 1)
        var bestStart = [Int](repeating: -1, count: size + 1)
        var bestID = [Int32](repeating: -1, count: size + 1)
        var start = 0
        while start < size {
            let scoreHere = bestScore[start]
            let characterLength = Self.utf8Length(bytes[start])
            var hasSingleCharacterPiece = false
            var node = 0
            var end = start
            while end < size, let child = children[node << 8 | Int(bytes[end])] {
                node = Int(child)
                end += 1
                let id = nodePiece[node]
                guard id >= 0 else { continue }
                let candidate = pieces[Int(id)].score + scoreHere
                if bestStart[end] < 0 || candidate > bestScore[end] {
                    bestScore[end] = candidate
                    bestStart[end] = start
                    bestID[end] = id
                }
                if end - start == characterLength { hasSingleCharacterPiece = true }
            }
            let characterEnd = min(start + characterLength, size)
            if !hasSingleCharacterPiece {
                let candidate = unknownScore + scoreHere
                if bestStart[characterEnd] < 0 || candidate > bestScore[characterEnd] {
                    bestScore[characterEnd] = candidate
                    bestStart[characterEnd] = start
                    bestID[characterEnd] = unknownID ?? -1
                }
            }
            start = characterEnd
        }
        // Back from the end; consecutive unknown pieces fuse into one.
        var spans: [(id: Int32, bytes: Range<Int>)] = []
        var end = size
        while end > 0 {
            let begin = max(bestStart[end], 0)
            let id = bestID[end]
            if id == unknownID ?? -1, let last = spans.last, last.id == id {
                spans[spans.count - 1] = (id, begin..<last.bytes.upperBound)
            } else {
                spans.append((id, begin..<end))
            }
            if begin == end { break }
            end = begin
        }
        spans.reverse()
        // Byte offsets → scalar offsets.
        var scalarAt = [Int](repeating: 0, count: size + 1)
        var scalar = 0
        for index in 0..<size {
            scalarAt[index] = scalar
            if bytes[index] & 0xC0 != 0x80 { scalar += 1 }
            scalarAt[index + 1] = scalar
        }
        var tokens: [(id: Int32, range: Range<Int>)] = []
        for span in spans {
            let range = scalarAt[span.bytes.lowerBound]..<scalarAt[span.bytes.upperBound]
            if span.id == unknownID ?? -1 || span.id < 0 {
                if byteFallback {
                    let byteIDs = bytes[span.bytes].map { pieceIDs["<0x" + Self.hex($0) + ">"] }
                    if !byteIDs.contains(nil) {
                        tokens += byteIDs.compactMap { $0.map { ($0, range) } }
                        continue
                    }
                }
                tokens.append((unknownID ?? -1, range))
            } else {
                tokens.append((span.id, range))
            }
        }
        return tokens
    }

    /// The length of the UTF-8 sequence that starts with `lead`.
    static func utf8Length(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}

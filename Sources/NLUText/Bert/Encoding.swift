/// One encoded sequence (one window of a pair encoding), what a BERT model takes as input, with the
/// information to map every token back to the text: the same fields as Hugging Face's `Encoding`.
///
/// Offsets are Unicode-scalar offsets into the original text of the sequence the token came from
/// (as Python counts characters); special tokens and padding have `0..<0`. Convert with
/// `String.scalarIndexRange(_:)` when you need `String.Index`.
///
///     let encoding = tokenizer.encode("Hello world")
///     encoding.tokens   // ["[CLS]", "hello", "world", "[SEP]"]
///     encoding.offsets  // [0..<0, 0..<5, 6..<11, 0..<0]
public struct Encoding: Sendable, Equatable {
    /// Token ids.
    public var ids: [Int32]
    /// Segment ids: 0 for `[CLS]`, the first text and its `[SEP]`; 1 for the second text and the last `[SEP]`.
    public var typeIDs: [Int32]
    /// 1 for real tokens, 0 for padding.
    public var attentionMask: [Int32]
    /// Token strings as in the vocabulary (`##` continuation prefix included).
    public var tokens: [String]
    /// Unicode-scalar range of each token in its original text; `0..<0` for special tokens and padding.
    public var offsets: [Range<Int>]
    /// Which text each token comes from: 0 first, 1 second, nil for special tokens and padding.
    public var sequenceIDs: [Int?]
    /// Index of the pre-tokenized word each token belongs to within its text; nil for special tokens.
    public var wordIDs: [Int?]

    /// Makes an encoding from its parallel arrays (all the same length).
    public init(ids: [Int32], typeIDs: [Int32], attentionMask: [Int32], tokens: [String], offsets: [Range<Int>],
                sequenceIDs: [Int?], wordIDs: [Int?]) {
        self.ids = ids
        self.typeIDs = typeIDs
        self.attentionMask = attentionMask
        self.tokens = tokens
        self.offsets = offsets
        self.sequenceIDs = sequenceIDs
        self.wordIDs = wordIDs
    }

    /// An empty encoding with room for `capacity` tokens.
    init(capacity: Int) {
        self.init(ids: [], typeIDs: [], attentionMask: [], tokens: [], offsets: [], sequenceIDs: [], wordIDs: [])
        reserveCapacity(capacity)
    }

    /// The number of tokens.
    public var count: Int { ids.count }

    mutating func reserveCapacity(_ capacity: Int) {
        ids.reserveCapacity(capacity); typeIDs.reserveCapacity(capacity); attentionMask.reserveCapacity(capacity)
        tokens.reserveCapacity(capacity); offsets.reserveCapacity(capacity)
        sequenceIDs.reserveCapacity(capacity); wordIDs.reserveCapacity(capacity)
    }

    mutating func append(id: Int32, token: String, typeID: Int32, offset: Range<Int>, sequence: Int?, word: Int?,
                         attention: Int32 = 1) {
        ids.append(id)
        typeIDs.append(typeID)
        attentionMask.append(attention)
        tokens.append(token)
        offsets.append(offset)
        sequenceIDs.append(sequence)
        wordIDs.append(word)
    }

    /// This encoding padded on the right to `length` tokens with `padID`/`padToken` (type id 0,
    /// attention 0, offsets `0..<0`, no sequence or word), as the fast tokenizer pads; unchanged when
    /// it is already as long.
    ///
    ///     tokenizer.encode("hi").padded(to: 8, padID: tokenizer.padID).attentionMask // [1, 1, 1, 0, 0, 0, 0, 0]
    public func padded(to length: Int, padID: Int32, padToken: String = "[PAD]") -> Encoding {
        var padded = self
        guard length > count else { return padded }
        padded.reserveCapacity(length)
        for _ in count..<length {
            padded.append(id: padID, token: padToken, typeID: 0, offset: 0..<0, sequence: nil, word: nil, attention: 0)
        }
        return padded
    }

    /// `encodings` padded to the longest of them (padding strategy "longest").
    ///
    ///     Encoding.paddedToLongest(windows, padID: 0)
    public static func paddedToLongest(_ encodings: [Encoding], padID: Int32, padToken: String = "[PAD]") -> [Encoding] {
        let longest = encodings.map(\.count).max() ?? 0
        return encodings.map { $0.padded(to: longest, padID: padID, padToken: padToken) }
    }
}

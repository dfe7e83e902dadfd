import NLUText

/// An utterance as the joint intent + slot model sees it: the words as the rest of NLUKit counts them
/// (``WordTokenizer``, the CRF tagger's words, with Unicode-scalar offsets), the encoder's tokens
/// `[CLS] pieces [SEP]` of the whole text (so the model reads the text as its tokenizer always does),
/// and the position of each word's first piece, which carries the word's tag (JointBERT's alignment;
/// a word's other pieces carry none).
///
/// A word gets no position when no piece starts inside it (a piece that began in the word before
/// covers it) or when its first piece was cut off by `maxLength`: it is not learned, and a prediction
/// continues the previous word's mention over it, or tags it `O`.
///
///     let encoding = JointUtteranceEncoding(text: "book for 4 at 7pm", tokenizer: tokenizer, maxLength: 128)
///     encoding.words.count          // 5
///     encoding.firstPieces          // [1, 2, 3, 4, 5]: "7pm" is "7", "##pm"
public struct JointUtteranceEncoding: Sendable {
    /// `[CLS] pieces [SEP]`, at most `maxLength` tokens.
    public var tokenIDs: [Int32]
    /// The words, in text order.
    public var words: [WordTokenizer.Token]
    /// Each word's Unicode-scalar offsets.
    public var wordOffsets: [Range<Int>]
    /// Each word's first-piece position in ``tokenIDs``, or nil (see above).
    public var firstPieces: [Int?]

    /// Tokenizes `text`; `maxLength` (at least 3) counts `[CLS]` and `[SEP]`.
    public init(text: String, tokenizer: any EncoderTokenizer, maxLength: Int) {
        precondition(maxLength >= 3, "JointUtteranceEncoding: maxLength \(maxLength) leaves no room for a piece")
        words = WordTokenizer().tokens(in: text)
        wordOffsets = text.scalarOffsets(of: words.map(\.range))
        let pieces = tokenizer.tokenize(text)
        let kept = min(pieces.count, maxLength - 2)
        tokenIDs = [tokenizer.clsID] + pieces.ids.prefix(kept) + [tokenizer.sepID]
        var firstPieces = [Int?](repeating: nil, count: words.count)
        // Words and pieces both run in text order: one pass over each.
        var word = 0
        for (index, offsets) in pieces.offsets.prefix(kept).enumerated() {
            let start = offsets.lowerBound
            while word < wordOffsets.count && wordOffsets[word].upperBound <= start { word += 1 }
            guard word < wordOffsets.count else { break }
            if wordOffsets[word].contains(start), firstPieces[word] == nil { firstPieces[word] = index + 1 }
        }
        self.firstPieces = firstPieces
    }

    /// The shapes of the words that have a first piece (the words the slot head reads), in order.
    public var positionedWordShapes: [WordShape] {
        zip(WordShape.shapes(of: words), firstPieces).compactMap { shape, piece in piece == nil ? nil : shape }
    }
}

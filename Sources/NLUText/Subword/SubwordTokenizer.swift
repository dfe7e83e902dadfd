/// A byte-level BPE (GPT-2, RoBERTa) or Unigram (SentencePiece: XLM-R, multilingual MiniLM/E5)
/// tokenizer as Hugging Face `tokenizers` runs a `tokenizer.json`: added tokens found first, then
/// the normalizer, the pre-tokenizer and the model per word, offsets carried back to the original
/// text (Unicode scalars), and `RobertaProcessing`'s offset trimming.
///
///     let tokenizer = try SubwordTokenizer(tokenizerJSON: url)
///     let sequence = tokenizer.tokenize("Hello world")
///     sequence.ids       // [31414, 232]
///     sequence.offsets   // [0..<5, 6..<11]
public struct SubwordTokenizer: EncoderTokenizer {
    /// The model that splits words into tokens.
    public enum Model: Sendable {
        case bpe(BytePairEncoding)
        case unigram(UnigramModel)
    }

    /// The model.
    public let model: Model
    /// The normalizer, if any.
    public let normalizer: SubwordNormalizer?
    /// The pre-tokenizer.
    public let preTokenizer: SubwordPreTokenizer
    /// Token strings by id.
    public let tokens: [String]
    public let clsID: Int32
    public let sepID: Int32
    public let padID: Int32
    /// `RobertaProcessing` / `ByteLevel` offset trimming: whether offsets lose the spaces a token
    /// starts or ends with, and the processor's `add_prefix_space`.
    let trimOffsets: (enabled: Bool, addPrefixSpace: Bool)
    /// Added tokens matched in the raw text (`normalized: false`).
    let rawTokens: AddedTokenSplitter
    /// Added tokens matched after normalization (`normalized: true`; their content normalized).
    let normalizedTokens: AddedTokenSplitter

    public func token(for id: Int32) -> String? { tokens.indices.contains(Int(id)) ? tokens[Int(id)] : nil }

    /// The tokens of `text` (no special tokens added), as `tokenizers` makes them. `text` must be at
    /// most ``TextLengthLimit/maximumUTF8Bytes`` long (a precondition).
    public func tokenize(_ text: String) -> TokenizedSequence {
        TextLengthLimit.require(text)
        var sequence = TokenizedSequence()
        // The text of each token as `tokenizers` keeps it, which offset trimming looks at: an added
        // token's match (with the whitespace it swallowed), an unknown piece's characters, else the vocabulary's string.
        var tokenTexts: [String] = []
        let original = AlignedText(text)
        var word = 0
        for piece in rawTokens.split(original.scalars) {
            switch piece {
            case let .token(id, range):
                sequence.append(id, range, word: word)
                if trimOffsets.enabled { tokenTexts.append(original.slice(range).string) }
                word += 1
            case let .text(range):
                var normalized = original.slice(range)
                normalizer?.normalize(&normalized)
                for part in normalizedTokens.split(normalized.scalars) {
                    switch part {
                    case let .token(id, partRange):
                        sequence.append(id, normalized.originalRange(of: partRange), word: word)
                        if trimOffsets.enabled { tokenTexts.append(normalized.slice(partRange).string) }
                        word += 1
                    case let .text(partRange):
                        let segment = normalized.slice(partRange)
                        let isFirst = segment.starts.first == 0
                        for pretokenized in preTokenizer.words(segment, isFirst: isFirst) {
                            for token in tokenizeWord(pretokenized) {
                                sequence.append(token.id, pretokenized.originalRange(of: token.range), word: word)
                                if trimOffsets.enabled { tokenTexts.append(tokenText(token.id, pretokenized.slice(token.range))) }
                            }
                            word += 1
                        }
                    }
                }
            }
        }
        if trimOffsets.enabled { trim(&sequence, texts: tokenTexts) }
        return sequence
    }

    private func tokenizeWord(_ word: AlignedText) -> [(id: Int32, range: Range<Int>)] {
        switch model {
        case let .bpe(bpe): return bpe.tokenize(word.scalars)
        case let .unigram(unigram): return unigram.tokenize(word.string)
        }
    }

    /// A model token's text: Unigram's unknown piece keeps the characters it covers.
    private func tokenText(_ id: Int32, _ covered: AlignedText) -> String {
        if case let .unigram(unigram) = model, id == unigram.unknownID { return covered.string }
        return token(for: id) ?? covered.string
    }

    /// `process_offsets` of `RobertaProcessing`: a token's leading and trailing spaces ("Ġ" or
    /// whitespace) leave its offsets, except the one space `add_prefix_space` put before the first token.
    private func trim(_ sequence: inout TokenizedSequence, texts: [String]) {
        for index in sequence.offsets.indices where index < texts.count {
            let scalars = Array(texts[index].unicodeScalars)
            func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == ByteLevel.spaceScalar || scalar.properties.isWhitespace }
            var leading = scalars.prefix(while: isSpace).count
            let trailing = scalars.reversed().prefix(while: isSpace).count
            var offsets = sequence.offsets[index]
            if leading > 0 {
                let isFirst = index == 0 || offsets.lowerBound == 0
                if isFirst && trimOffsets.addPrefixSpace && leading == 1 { leading = 0 }
                let start = min(offsets.lowerBound + leading, offsets.upperBound)
                offsets = start..<offsets.upperBound
            }
            if trailing > 0 && offsets.upperBound >= trailing {
                offsets = offsets.lowerBound..<max(offsets.upperBound - trailing, offsets.lowerBound)
            }
            sequence.offsets[index] = offsets
        }
    }
}

extension SubwordTokenizer {
    /// Encodes one text as the model sees it: `<s> tokens </s>` (the post-processor's special
    /// tokens), with token strings, type ids 0 and offsets (`0..<0` for the special tokens), as
    /// `tokenizers`' `encode(text)`.
    ///
    ///     tokenizer.encode("Hello world").tokens   // ["<s>", "Hello", "Ġworld", "</s>"]
    public func encode(_ text: String, addSpecialTokens: Bool = true) -> Encoding {
        let sequence = tokenize(text)
        var encoding = Encoding(capacity: sequence.count + 2)
        func appendSpecial(_ id: Int32) {
            encoding.append(id: id, token: token(for: id) ?? "", typeID: 0, offset: 0..<0, sequence: nil, word: nil)
        }
        if addSpecialTokens { appendSpecial(clsID) }
        for index in 0..<sequence.count {
            let id = sequence.ids[index]
            encoding.append(id: id, token: token(for: id) ?? "", typeID: 0, offset: sequence.offsets[index], sequence: 0,
                            word: sequence.wordIDs[index])
        }
        if addSpecialTokens { appendSpecial(sepID) }
        return encoding
    }
}

/// The BERT tokenizer, identical to Hugging Face's fast `BertTokenizerFast` (Rust `tokenizers`):
/// special-token matching, ``BertNormalizer``, ``BertPreTokenizer``, ``WordPiece``, then
/// `[CLS] … [SEP] (… [SEP])` with type ids, offsets into the original text and overflow windows.
///
///     let tokenizer = try BertTokenizer(modelDirectory: url)
///     let encoding = tokenizer.encode("Hello, world!")
///     encoding.tokens   // ["[CLS]", "hello", ",", "world", "!", "[SEP]"]
///     let windows = try tokenizer.encodePair(question, document, maxLength: 384, stride: 128)
public struct BertTokenizer: Sendable {
    /// The vocabulary (token ↔ id).
    public let vocabulary: Vocabulary
    /// The normalization and special-token options.
    public let options: Options
    /// Id of `[CLS]`.
    public let clsID: Int32
    /// Id of `[SEP]`.
    public let sepID: Int32
    /// Id of `[PAD]`.
    public let padID: Int32
    /// Id of `[UNK]`.
    public let unknownID: Int32

    /// The normalizer step.
    public let normalizer: BertNormalizer
    /// The pre-tokenizer step.
    public let preTokenizer = BertPreTokenizer()
    /// The WordPiece model step.
    public let wordPiece: WordPiece
    private let specialTokenMatcher: SpecialTokenMatcher
    /// Added tokens with `normalized: true`, matched in the normalized text (their content normalized too).
    private let normalizedTokenMatcher: SpecialTokenMatcher

    /// Makes a tokenizer; throws when a required token (`[UNK]`, `[CLS]`, `[SEP]`, `[PAD]` or the ones
    /// `options` names) is missing from the vocabulary or an option is out of range.
    ///
    ///     let tokenizer = try BertTokenizer(vocabulary: try Vocabulary(contentsOf: vocabURL), options: .uncased)
    public init(vocabulary: Vocabulary, options: Options = .uncased) throws {
        guard options.maxInputCharactersPerWord >= 1 else {
            throw BertTokenizerError.invalidOption("maxInputCharactersPerWord must be at least 1, got \(options.maxInputCharactersPerWord)")
        }
        self.vocabulary = vocabulary
        self.options = options
        unknownID = try vocabulary.requireID(for: options.unknownToken, role: "unknown")
        clsID = try vocabulary.requireID(for: options.classifierToken, role: "classifier")
        sepID = try vocabulary.requireID(for: options.separatorToken, role: "separator")
        padID = try vocabulary.requireID(for: options.paddingToken, role: "padding")
        normalizer = BertNormalizer(options: options)
        wordPiece = try WordPiece(vocabulary: vocabulary, unknownToken: options.unknownToken,
                                  continuingSubwordPrefix: options.continuingSubwordPrefix,
                                  maxInputCharactersPerWord: options.maxInputCharactersPerWord)
        let special: [(String, Int32)]
        if let tokens = options.specialTokens {
            special = try tokens.map { ($0, try vocabulary.requireID(for: $0, role: "special")) }
        } else {
            special = [options.paddingToken, options.unknownToken, options.classifierToken, options.separatorToken, "[MASK]"]
                .compactMap { token in vocabulary.id(for: token).map { (token, $0) } }
        }
        specialTokenMatcher = SpecialTokenMatcher(tokens: special)
        let normalizer = self.normalizer
        normalizedTokenMatcher = SpecialTokenMatcher(tokens: try options.normalizedSpecialTokens.map {
            (normalizer.normalize($0).string, try vocabulary.requireID(for: $0, role: "special"))
        })
    }

    /// The tokens of `text` without special tokens added: ids, scalar offsets, word indices. `text`
    /// must be at most ``TextLengthLimit/maximumUTF8Bytes`` long (a precondition).
    ///
    ///     tokenizer.tokenize("unaffable").ids.map { tokenizer.vocabulary.token(for: $0)! } // ["una", "##ffa", "##ble"]
    public func tokenize(_ text: String) -> TokenizedSequence {
        TextLengthLimit.require(text)
        var text = text
        var sequence = TokenizedSequence()
        text.withUTF8 { bytes in tokenize(bytes, into: &sequence) }
        return sequence
    }

    /// Encodes one text: `[CLS] text [SEP]` (or just the text's tokens without special tokens).
    ///
    ///     tokenizer.encode("Hi!").tokens // ["[CLS]", "hi", "!", "[SEP]"]
    public func encode(_ text: String, addSpecialTokens: Bool = true) -> Encoding {
        let sequence = tokenize(text)
        var encoding = Encoding(capacity: sequence.count + 2)
        if addSpecialTokens { appendSpecial(clsID, typeID: 0, to: &encoding) }
        append(sequence, range: 0..<sequence.count, sequenceID: 0, typeID: 0, to: &encoding)
        if addSpecialTokens { appendSpecial(sepID, typeID: 0, to: &encoding) }
        return encoding
    }

    /// Encodes one text truncated to `maxLength` tokens (special tokens included), the rest in overflow
    /// windows that repeat the last `stride` tokens of the previous one, as the fast tokenizer with
    /// `truncation=True, max_length=maxLength, stride=stride, return_overflowing_tokens=True`.
    ///
    ///     let windows = try tokenizer.encode(longText, maxLength: 512, stride: 64)
    public func encode(_ text: String, maxLength: Int, stride: Int = 0) throws -> [Encoding] {
        try TextLengthLimit.check(text)
        let sequence = tokenize(text)
        return try OverflowWindows.ranges(count: sequence.count, maxLength: maxLength, stride: stride).map { window in
            var encoding = Encoding(capacity: window.count + 2)
            appendSpecial(clsID, typeID: 0, to: &encoding)
            append(sequence, range: window, sequenceID: 0, typeID: 0, to: &encoding)
            appendSpecial(sepID, typeID: 0, to: &encoding)
            return encoding
        }
    }

    /// Encodes a pair as `[CLS] first [SEP] second [SEP]`. With `maxLength`, only the second text is
    /// truncated and the rest comes in overflow windows, exactly as the fast tokenizer with
    /// `truncation="only_second", return_overflowing_tokens=True, stride=stride`: each window repeats
    /// the last `stride` tokens of the second text of the previous one. Returns the windows in order.
    /// An empty `second` gives `[CLS] first [SEP]`, as `transformers` does. A tokenizer with the
    /// RoBERTa template (MPNet) does not encode pairs: that throws.
    ///
    ///     let windows = try tokenizer.encodePair("Who?", longDocument, maxLength: 384, stride: 128)
    public func encodePair(_ first: String, _ second: String, maxLength: Int? = nil, stride: Int = 0) throws -> [Encoding] {
        try TextLengthLimit.check(first, name: "the first text")
        try TextLengthLimit.check(second, name: "the second text")
        guard options.template == .bert else {
            throw BertTokenizerError.unsupported(
                file: "tokenizer.json", detail: "pairs of texts with the RobertaProcessing template (<s> A </s></s> B </s>) are not supported")
        }
        if second.isEmpty {
            // `transformers` treats an empty second text as no pair at all (`if text_pair:`), so the
            // fast tokenizer's output is the single encoding `[CLS] first [SEP]`.
            let single = encode(first)
            if let maxLength, single.count > maxLength {
                throw BertTokenizerError.firstSequenceTooLong(firstTokens: single.count - 2, maxLength: maxLength)
            }
            return [single]
        }
        let firstSequence = tokenize(first)
        let secondSequence = tokenize(second)
        let windows = try OverflowWindows.ranges(firstCount: firstSequence.count, secondCount: secondSequence.count,
                                                 maxLength: maxLength, stride: stride)
        return windows.map { window in
            var encoding = Encoding(capacity: firstSequence.count + window.count + 3)
            appendSpecial(clsID, typeID: 0, to: &encoding)
            append(firstSequence, range: 0..<firstSequence.count, sequenceID: 0, typeID: 0, to: &encoding)
            appendSpecial(sepID, typeID: 0, to: &encoding)
            append(secondSequence, range: window, sequenceID: 1, typeID: 1, to: &encoding)
            appendSpecial(sepID, typeID: 1, to: &encoding)
            return encoding
        }
    }

    private func appendSpecial(_ id: Int32, typeID: Int32, to encoding: inout Encoding) {
        encoding.append(id: id, token: vocabulary.tokens[Int(id)], typeID: typeID, offset: 0..<0, sequence: nil, word: nil)
    }

    private func append(_ sequence: TokenizedSequence, range: Range<Int>, sequenceID: Int, typeID: Int32,
                        to encoding: inout Encoding) {
        let tokens = vocabulary.tokens
        for index in range {
            let id = sequence.ids[index]
            encoding.append(id: id, token: tokens[Int(id)], typeID: typeID, offset: sequence.offsets[index],
                            sequence: sequenceID, word: sequence.wordIDs[index])
        }
    }

    // MARK: - The pipeline on UTF-8 bytes

    /// Splits `bytes` on special tokens, then normalizes, pre-tokenizes and WordPiece-splits each
    /// stretch between them. Works on UTF-8 bytes; ASCII text without control characters skips the
    /// normalizer (its scalar offsets are its byte offsets).
    func tokenize(_ bytes: UnsafeBufferPointer<UInt8>, into sequence: inout TokenizedSequence) {
        sequence.ids.reserveCapacity(bytes.count / 4 + 4)
        sequence.offsets.reserveCapacity(bytes.count / 4 + 4)
        sequence.wordIDs.reserveCapacity(bytes.count / 4 + 4)
        var scratch = Scratch()
        var word = 0
        var position = 0, scalarPosition = 0
        while position < bytes.count {
            let match = specialTokenMatcher.nextMatch(in: bytes, from: position)
            let segmentEnd = match?.range.lowerBound ?? bytes.count
            if segmentEnd > position {
                scalarPosition = tokenizeSegment(bytes, position..<segmentEnd, scalarStart: scalarPosition,
                                                 word: &word, into: &sequence, scratch: &scratch)
            }
            guard let match else { break }
            var scalars = 0
            for index in match.range where bytes[index] & 0xC0 != 0x80 { scalars += 1 }
            sequence.append(match.id, scalarPosition..<(scalarPosition + scalars), word: word)
            word += 1
            scalarPosition += scalars
            position = match.range.upperBound
        }
    }

    /// Reusable buffers of one `tokenize` call.
    private struct Scratch {
        var bytes: [UInt8] = []
        var origins: [Int32] = []
        var prefixHashes: [UInt64] = []
    }

    /// Tokenizes `bytes[segment]` (no special tokens inside); returns the scalar offset after it.
    private func tokenizeSegment(_ bytes: UnsafeBufferPointer<UInt8>, _ segment: Range<Int>, scalarStart: Int,
                                 word: inout Int, into sequence: inout TokenizedSequence, scratch: inout Scratch) -> Int {
        // One pass: is the segment plain ASCII (no controls but tab, LF, CR)?
        var plainASCII = true
        for index in segment {
            let byte = bytes[index]
            if byte >= 0x7F || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) {
                plainASCII = false
                break
            }
        }
        if plainASCII {
            // Scalar offsets are byte offsets; tab/LF/CR are whitespace with or without cleaning.
            if normalizer.lowercase {
                scratch.bytes.removeAll(keepingCapacity: true)
                scratch.bytes.reserveCapacity(segment.count)
                for index in segment {
                    let byte = bytes[index]
                    scratch.bytes.append(byte &- 0x41 < 26 ? byte | 0x20 : byte)
                }
                let base = scalarStart
                scratch.bytes.withUnsafeBufferPointer { normalized in
                    splitAddedTokensAndWords(normalized, word: &word, into: &sequence, prefixHashes: &scratch.prefixHashes) { range in
                        (base + range.lowerBound)..<(base + range.upperBound)
                    }
                }
            } else {
                let slice = UnsafeBufferPointer(rebasing: bytes[segment])
                let base = scalarStart
                splitAddedTokensAndWords(slice, word: &word, into: &sequence, prefixHashes: &scratch.prefixHashes) { range in
                    (base + range.lowerBound)..<(base + range.upperBound)
                }
            }
            return scalarStart + segment.count
        }
        // General path: normalize scalar by scalar, keeping each output byte's original scalar.
        scratch.bytes.removeAll(keepingCapacity: true)
        scratch.origins.removeAll(keepingCapacity: true)
        var origin = Int32(scalarStart)
        var stripper = AccentStripper()
        var index = segment.lowerBound
        while index < segment.upperBound {
            let scalar: UInt32, length: Int
            if bytes[index] < 0x80 {
                (scalar, length) = (UInt32(bytes[index]), 1)
            } else {
                (scalar, length) = BertPreTokenizer.decode(bytes, at: index)
            }
            normalizer.append(scalar, origin: origin, stripper: &stripper, to: &scratch.bytes, &scratch.origins)
            origin += 1
            index += length
        }
        normalizer.finish(&stripper, to: &scratch.bytes, &scratch.origins)
        let origins = scratch.origins
        scratch.bytes.withUnsafeBufferPointer { normalized in
            origins.withUnsafeBufferPointer { origins in
                splitAddedTokensAndWords(normalized, word: &word, into: &sequence, prefixHashes: &scratch.prefixHashes) { range in
                    Int(origins[range.lowerBound])..<(Int(origins[range.upperBound - 1]) + 1)
                }
            }
        }
        return Int(origin)
    }

    /// Splits normalized bytes on the added tokens matched after normalization (each one token and
    /// one word), pre-tokenizing and WordPiece-splitting the text between them.
    @inline(__always)
    private func splitAddedTokensAndWords(_ normalized: UnsafeBufferPointer<UInt8>, word: inout Int,
                                          into sequence: inout TokenizedSequence, prefixHashes: inout [UInt64],
                                          originalRange: (Range<Int>) -> Range<Int>) {
        if normalizedTokenMatcher.isEmpty {
            splitWords(normalized, word: &word, into: &sequence, prefixHashes: &prefixHashes, originalRange: originalRange)
            return
        }
        var position = 0
        while position < normalized.count {
            let match = normalizedTokenMatcher.nextMatch(in: normalized, from: position)
            let end = match?.range.lowerBound ?? normalized.count
            if end > position {
                let base = position
                splitWords(UnsafeBufferPointer(rebasing: normalized[position..<end]), word: &word, into: &sequence,
                           prefixHashes: &prefixHashes) { range in
                    originalRange((base + range.lowerBound)..<(base + range.upperBound))
                }
            }
            guard let match else { break }
            sequence.append(match.id, originalRange(match.range), word: word)
            word += 1
            position = match.range.upperBound
        }
    }

    /// Pre-tokenizes normalized bytes and WordPiece-splits each word; `originalRange` maps a normalized
    /// byte range to original scalar offsets.
    @inline(__always)
    private func splitWords(_ normalized: UnsafeBufferPointer<UInt8>, word: inout Int, into sequence: inout TokenizedSequence,
                            prefixHashes: inout [UInt64], originalRange: (Range<Int>) -> Range<Int>) {
        var wordIndex = word
        preTokenizer.forEachWord(in: normalized) { range in
            wordPiece.appendPieces(of: normalized, word: range, prefixHashes: &prefixHashes) { id, pieceRange in
                sequence.append(id, originalRange(pieceRange), word: wordIndex)
            }
            wordIndex += 1
        }
        word = wordIndex
    }
}

import Foundation
import NLUTestSupport
import Testing
@testable import NLUText

/// Each pipeline step alone, on hand-worked examples (values checked with tokenizers 0.22.2).
@Suite struct BertNormalizerTests {
    @Test func uncasedStripsAccentsLowercasesAndKeepsOrigins() {
        let normalized = BertNormalizer(options: .uncased).normalize("Ça Été")
        #expect(normalized.string == "ca ete")
        // Every output byte points at the original scalar it came from.
        #expect(normalized.origins == [0, 1, 2, 3, 4, 5])
        #expect(normalized.originalRange(of: 3..<6) == 3..<6)
    }

    @Test func decomposedAccentIsDroppedAndOffsetsSkipIt() {
        // "e\u{301}" is two scalars; the mark is removed, the letter keeps origin 3.
        let normalized = BertNormalizer(options: .uncased).normalize("cafe\u{301}!")
        #expect(normalized.string == "cafe!")
        #expect(normalized.origins == [0, 1, 2, 3, 5])
    }

    @Test func reorderedMarkTakesThePositionalOrigin() {
        // NFD puts U+1B44 (class 9) before U+0301 (class 230); the Rust alignment is positional, so
        // U+1B44 ends up with the origin of U+0301 (scalar 1). Checked with tokenizers: offsets (0, 2).
        let normalized = BertNormalizer(options: .uncased).normalize("x\u{301}\u{1B44}")
        #expect(normalized.string == "x\u{1B44}")
        #expect(normalized.origins == [0, 1, 1, 1])
        // Without reordering (marks already in order) each keeps its own origin.
        #expect(BertNormalizer(options: .uncased).normalize("x\u{1B44}\u{301}").origins == [0, 1, 1, 1])
        #expect(BertNormalizer(options: .uncased).normalize("x\u{316}\u{1B44}").origins == [0, 1, 1, 1])
        #expect(BertNormalizer(options: .uncased).normalize("\u{E9}\u{1B44}").origins == [0, 1, 1, 1])
    }

    @Test func longRunOfMarksIsOrderedAsTheFastTokenizerOrdersIt() {
        // 40 pairs of U+0301 (class 230, stripped) and U+1B44 (class 9, kept): past the insertion-sorted length.
        // tokenizers 0.22.2 puts the 40 U+1B44 first and gives them the origins 1...40 in turn.
        let normalized = BertNormalizer(options: .uncased).normalize("x" + String(repeating: "\u{301}\u{1B44}", count: 40))
        #expect(normalized.string == "x" + String(repeating: "\u{1B44}", count: 40))
        #expect(normalized.origins == [0] + (1...40).flatMap { [Int32](repeating: Int32($0), count: 3) })
    }

    /// A "Zalgo" word: one letter under a long run of marks whose classes alternate (230, 220), the worst case
    /// for sorting them by insertion (every 220 moves past every 230 before it). 20,000 pairs took seconds and
    /// 500,000 (2 MB of text) hours; the marks are now counted into order.
    @Test func tenTimesTheMarksTakeAboutTenTimesTheWork() {
        let normalizer = BertNormalizer(options: .uncased)
        let texts = [2_000, 20_000].map { "x" + String(repeating: "\u{301}\u{316}", count: $0) + " y" }
        let growth = linearWorkGrowth {
            #expect(normalizer.normalize(texts[0]).string == "x y")
        } large: {
            #expect(normalizer.normalize(texts[1]).string == "x y")
        }
        // Linear work gives a ratio near 10, quadratic 100.
        #expect(growth.ratio < linearWorkBound, "2,000 pairs → 20,000: \(growth)")
    }

    @Test func lowercasingThatGrowsKeepsBothBytesOnTheOriginalCharacter() {
        // With strip_accents off, "İ" lowercases to "i" + U+0307 (3 UTF-8 bytes), all from scalar 0.
        var options = BertTokenizer.Options.uncased
        options.stripAccents = false
        let normalized = BertNormalizer(options: options).normalize("İx")
        #expect(normalized.string == "i\u{307}x")
        #expect(normalized.origins == [0, 0, 0, 1])
    }

    @Test func cleaningDropsControlsAndMapsWhitespace() {
        let normalized = BertNormalizer(options: .cased).normalize("a\u{0}\u{200B}b\tc\u{3000}d\u{FFFD}")
        #expect(normalized.string == "ab c d")
        #expect(normalized.origins == [0, 3, 4, 5, 6, 7])
    }

    @Test func chineseCharactersAreSurroundedBySpaces() {
        #expect(BertNormalizer(options: .cased).normalize("a中b").string == "a 中 b")
        var options = BertTokenizer.Options.cased
        options.handleChineseChars = false
        #expect(BertNormalizer(options: options).normalize("a中b").string == "a中b")
    }

    @Test func casedKeepsEverything() {
        #expect(BertNormalizer(options: .cased).normalize("Ünïcödé").string == "Ünïcödé")
    }
}

@Suite struct BertPreTokenizerTests {
    @Test func splitsOnWhitespaceAndIsolatesPunctuation() {
        let bytes = Array("Hi, you!  ok".utf8)
        #expect(BertPreTokenizer().words(in: bytes) == [0..<2, 2..<3, 4..<7, 7..<8, 10..<12])
    }

    @Test func asciiSymbolsAreBertPunctuation() {
        let text = "a$b+c"
        let words = BertPreTokenizer().words(in: Array(text.utf8)).map { String(decoding: Array(text.utf8)[$0], as: UTF8.self) }
        #expect(words == ["a", "$", "b", "+", "c"])
    }

    @Test func unicodePunctuationAndWhitespace() {
        let text = "«x»\u{2028}y¿"
        let bytes = Array(text.utf8)
        let words = BertPreTokenizer().words(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        #expect(words == ["«", "x", "»", "y", "¿"])
    }
}

@Suite struct WordPieceTests {
    let vocabulary: Vocabulary
    let wordPiece: WordPiece

    init() throws {
        vocabulary = try Vocabulary(tokens: ["[UNK]", "un", "##aff", "##able", "a", "##ff", "é", "##é"])
        wordPiece = try WordPiece(vocabulary: vocabulary, maxInputCharactersPerWord: 10)
    }

    @Test func greedyLongestMatchFirst() {
        #expect(wordPiece.pieces(of: "unaffable") == [.init(id: 1, range: 0..<2), .init(id: 2, range: 2..<5), .init(id: 3, range: 5..<9)])
    }

    @Test func wordThatCannotBeSplitIsOneUnknown() {
        #expect(wordPiece.pieces(of: "unaffablex") == [.init(id: 0, range: 0..<10)])
    }

    @Test func wordLongerThanTheLimitIsOneUnknownCountedInScalars() {
        // 10 scalars (20 bytes) is within the limit; 11 is not.
        #expect(wordPiece.pieces(of: String(repeating: "é", count: 10)).count == 10)
        #expect(wordPiece.pieces(of: String(repeating: "é", count: 11)) == [.init(id: 0, range: 0..<22)])
    }

    @Test func vocabularyLookupIsByteExactNotCanonical() throws {
        // Swift's == treats these as equal; a vocabulary must not.
        let precomposed = "\u{E9}", decomposed = "e\u{301}"
        let vocabulary = try Vocabulary(tokens: ["[UNK]", precomposed, decomposed])
        #expect(vocabulary.id(for: precomposed) == 1)
        #expect(vocabulary.id(for: decomposed) == 2)
    }
}

@Suite struct OverflowWindowTests {
    @Test func windowsRepeatStrideTokens() throws {
        // Second text gets 9 - 3 - 2 = 4 tokens per window, advancing by 4 - 1 = 3.
        #expect(try OverflowWindows.ranges(firstCount: 2, secondCount: 10, maxLength: 9, stride: 1) == [0..<4, 3..<7, 6..<10])
        #expect(try OverflowWindows.ranges(firstCount: 2, secondCount: 4, maxLength: 9, stride: 1) == [0..<4])
        #expect(try OverflowWindows.ranges(firstCount: 2, secondCount: 10, maxLength: nil, stride: 0) == [0..<10])
    }

    @Test func impossibleTruncationIsAnError() {
        #expect(throws: BertTokenizerError.firstSequenceTooLong(firstTokens: 6, maxLength: 9)) {
            try OverflowWindows.ranges(firstCount: 6, secondCount: 10, maxLength: 9, stride: 0)
        }
        #expect(throws: BertTokenizerError.strideTooLarge(stride: 4, windowLength: 4)) {
            try OverflowWindows.ranges(firstCount: 2, secondCount: 10, maxLength: 9, stride: 4)
        }
    }
}

@Suite struct VocabularyErrorTests {
    private func write(_ text: String) throws -> URL {
        let url = TestScratch.file("vocab", extension: "txt")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func lineNumberIsTheID() throws {
        let vocabulary = try Vocabulary(contentsOf: try write("[PAD]\r\n[UNK]\nhello\n"))
        #expect(vocabulary.count == 3)
        #expect(vocabulary.id(for: "hello") == 2)
        #expect(vocabulary.token(for: 1) == "[UNK]")
        #expect(vocabulary.token(for: 3) == nil)
    }

    @Test func duplicatesEmptyLinesAndEmptyFilesAreErrors() throws {
        #expect(throws: VocabularyError.self) { try Vocabulary(contentsOf: try write("a\nb\na\n")) }
        #expect(throws: VocabularyError.self) { try Vocabulary(contentsOf: try write("a\n\nb\n")) }
        #expect(throws: VocabularyError.self) { try Vocabulary(contentsOf: try write("")) }
        do {
            _ = try Vocabulary(contentsOf: try write("a\nb\na\n"))
        } catch {
            #expect("\(error)".contains("line 3: duplicate token \"a\" (first on line 1)"))
        }
    }

    @Test func invalidUTF8AndMissingFilesAreErrors() throws {
        let url = TestScratch.file("vocab", extension: "txt")
        try Data([0x61, 0x0A, 0xFF, 0xFE, 0x0A]).write(to: url)
        #expect(throws: VocabularyError.invalidUTF8(source: url.path)) { try Vocabulary(contentsOf: url) }
        #expect(throws: VocabularyError.self) { try Vocabulary(contentsOf: URL(fileURLWithPath: "/nonexistent/vocab.txt")) }
    }

    @Test func directoryIsNamedAsOne() throws {
        let directory = try TestScratch.folder().path
        #expect(throws: VocabularyError.directory(source: directory)) { try Vocabulary(contentsOf: URL(fileURLWithPath: directory)) }
        #expect(VocabularyError.directory(source: "/m").description == "/m is a directory, not a vocabulary file (expected a vocab.txt, one token per line)")
    }

    @Test func missingUnknownTokenIsAnError() throws {
        let vocabulary = try Vocabulary(tokens: ["[PAD]", "[CLS]", "[SEP]", "hello"])
        #expect(throws: VocabularyError.missingToken(source: "vocabulary", token: "[UNK]", role: "unknown")) {
            try BertTokenizer(vocabulary: vocabulary)
        }
    }

    @Test func unsupportedTokenizerJSONIsAnError() throws {
        let directory = try TestScratch.folder("tok")
        let json = #"{"model": {"type": "BPE", "vocab": {}, "merges": []}, "pre_tokenizer": {"type": "ByteLevel"}}"#
        try Data(json.utf8).write(to: directory.appendingPathComponent("tokenizer.json"))
        #expect(throws: BertTokenizerError.self) { try BertTokenizer(modelDirectory: directory) }
        #expect(throws: BertTokenizerError.noVocabulary(directory: "/nonexistent")) {
            try BertTokenizer(modelDirectory: URL(fileURLWithPath: "/nonexistent"))
        }
    }
}

@Suite struct BertTokenizerBehaviourTests {
    let tokenizer: BertTokenizer

    init() throws {
        let vocabulary = try Vocabulary(tokens: ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "!", "wor", "##ld"])
        tokenizer = try BertTokenizer(vocabulary: vocabulary)
    }

    @Test func encodeAddsSpecialTokensWithEmptyOffsets() {
        let encoding = tokenizer.encode("Hello WORLD!")
        #expect(encoding.tokens == ["[CLS]", "hello", "world", "!", "[SEP]"])
        #expect(encoding.offsets == [0..<0, 0..<5, 6..<11, 11..<12, 0..<0])
        #expect(encoding.wordIDs == [nil, 0, 1, 2, nil])
        #expect(encoding.sequenceIDs == [nil, 0, 0, 0, nil])
    }

    @Test func specialTokensInTextAreNeverSplit() {
        let encoding = tokenizer.encode("hello [MASK]world", addSpecialTokens: false)
        #expect(encoding.tokens == ["hello", "[MASK]", "world"])
        #expect(encoding.offsets == [0..<5, 6..<12, 12..<17])
        #expect(encoding.wordIDs == [0, 1, 2])
    }

    @Test func pairHasTypeIDsAndPadding() throws {
        let windows = try tokenizer.encodePair("hello", "world!")
        #expect(windows.count == 1)
        let padded = windows[0].padded(to: 8, padID: tokenizer.padID)
        #expect(padded.tokens == ["[CLS]", "hello", "[SEP]", "world", "!", "[SEP]", "[PAD]", "[PAD]"])
        #expect(padded.typeIDs == [0, 0, 0, 1, 1, 1, 0, 0])
        #expect(padded.attentionMask == [1, 1, 1, 1, 1, 1, 0, 0])
        #expect(padded.sequenceIDs == [nil, 0, nil, 1, 1, nil, nil, nil])
        #expect(Encoding.paddedToLongest([windows[0], tokenizer.encode("hello")], padID: 0).map(\.count) == [6, 6])
    }

    @Test func offsetsConvertToStringIndices() throws {
        let text = "¡hello wörld!"
        let encoding = tokenizer.encode(text, addSpecialTokens: false)
        let pieces = encoding.offsets.compactMap { text.scalarIndexRange($0).map { String(text[$0]) } }
        #expect(pieces == ["¡", "hello", "wörld", "!"])
    }
}

/// The places where the slow Python `BertTokenizer` differs from the fast one; we follow the fast one.
/// Each text was found by comparing both on every Unicode scalar (scripts/fixtures/tokenizer.py).
@Suite struct BertFastSlowDifferenceTests {
    @Test func wordsFollowTheFastTokenizerWhereTheSlowOneDiffers() throws {
        let differences = try TokenizerFixtures.load([TokenizerFixtures.SlowDifference].self, "slow-differences.json")
        #expect(differences.count == 7)
        let normalizer = BertNormalizer(options: .uncased)
        for difference in differences {
            let normalized = normalizer.normalize(difference.text)
            let words = BertPreTokenizer().words(in: normalized.bytes).map { String(decoding: normalized.bytes[$0], as: UTF8.self) }
            #expect(words == difference.fast, "\(difference.name)")
            #expect(words != difference.slow, "\(difference.name)")
        }
    }
}

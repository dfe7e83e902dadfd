import Testing
@testable import NLUText

@Suite struct WordTokenizerTests {
    private func pieces(_ text: String, includePunctuation: Bool = true) -> [String] {
        WordTokenizer(includePunctuation: includePunctuation).tokens(in: text).map { String($0.text) }
    }

    private func kinds(_ text: String) -> [WordTokenizer.Kind] {
        WordTokenizer().tokens(in: text).map(\.kind)
    }

    @Test func splitsWordsNumbersPunctuationAndSymbols() {
        let tokens = WordTokenizer().tokens(in: "Don't pay $1,000.50!")
        #expect(tokens.map { String($0.text) } == ["Don't", "pay", "$", "1,000.50", "!"])
        #expect(tokens.map(\.kind) == [.word, .word, .symbol, .number, .punctuation])
    }

    @Test func rangesPointIntoTheOriginalString() {
        let text = "  Héllo,\twörld  ‼ "
        for token in WordTokenizer().tokens(in: text) {
            #expect(text[token.range] == token.text)
        }
        let ranges = WordTokenizer().tokens(in: text).map { text.scalarOffsets(of: $0.range) }
        #expect(ranges == [2..<7, 7..<8, 9..<14, 16..<17])
    }

    @Test func apostropheInsideWordStaysInTheWord() {
        #expect(pieces("don't O’Brien rock'n'roll") == ["don't", "O’Brien", "rock'n'roll"])
        #expect(pieces("the students' 'tis") == ["the", "students", "'", "'", "tis"])
        #expect(pieces("it''s") == ["it", "'", "'", "s"])
    }

    @Test func numbersKeepInnerSeparators() {
        #expect(pieces("3.5 1,000 1.000.000,25 ٣٫٥") == ["3.5", "1,000", "1.000.000,25", "٣٫٥"])
        #expect(kinds("3.5 1,000") == [.number, .number])
        // A trailing separator is punctuation, a sign is punctuation or symbol.
        #expect(pieces("42. -7 +8 1,") == ["42", ".", "-", "7", "+", "8", "1", ","])
        #expect(kinds("-7 +8") == [.punctuation, .number, .symbol, .number])
    }

    @Test func lettersAndDigitsMixedAreWords() {
        #expect(pieces("R2D2 3rd mp3") == ["R2D2", "3rd", "mp3"])
        #expect(kinds("R2D2 3rd mp3") == [.word, .word, .word])
        // A letter ends the number part: "v1.2" is "v1" "." "2".
        #expect(pieces("v1.2") == ["v1", ".", "2"])
    }

    @Test func hyphensAndDotsSeparateWords() {
        #expect(pieces("well-known e.g. and/or") == ["well", "-", "known", "e", ".", "g", ".", "and", "/", "or"])
    }

    @Test func lettersOfAnyScriptWithCombiningMarks() {
        let decomposed = "cafe\u{301} nai\u{308}ve"
        #expect(pieces(decomposed) == ["cafe\u{301}", "nai\u{308}ve"])
        #expect(pieces("привет мир") == ["привет", "мир"])
        #expect(pieces("안녕하세요 세계") == ["안녕하세요", "세계"])
        #expect(pieces("שלום, עולם") == ["שלום", ",", "עולם"])
        #expect(pieces("مرحبا بالعالم؟") == ["مرحبا", "بالعالم", "؟"])
        #expect(pieces("नमस्ते दुनिया") == ["नमस्ते", "दुनिया"])
    }

    @Test func hanIdeographsAreOneWordEach() {
        #expect(pieces("我爱北京。") == ["我", "爱", "北", "京", "。"])
        #expect(kinds("我爱") == [.word, .word])
    }

    /// Japanese: kanji, hiragana and katakana are one word per character (a Katakana run too), Latin
    /// words and numbers inside stay whole; the offsets count Unicode scalars of the original text.
    @Test func japaneseIsOneWordPerCharacterWithExactOffsets() {
        let text = "明日iPhone15を2台買いたい！ タワー"
        let tokens = WordTokenizer().tokens(in: text)
        #expect(tokens.map { String($0.text) } == ["明", "日", "iPhone15", "を", "2", "台", "買", "い", "た", "い", "！", "タ", "ワ", "ー"])
        #expect(tokens.map(\.isUnspacedScriptCharacter) == [true, true, false, true, false, true, true, true, true, true, false, true, true, true])
        #expect(text.scalarOffsets(of: tokens.map(\.range)) == [0..<1, 1..<2, 2..<10, 10..<11, 11..<12, 12..<13, 13..<14,
                                                               14..<15, 15..<16, 16..<17, 17..<18, 19..<20, 20..<21, 21..<22])
        for token in tokens { #expect(text[token.range] == token.text) }
    }

    /// A Han character outside the Basic Multilingual Plane is one scalar (two UTF-16 units): the offsets
    /// stay scalar offsets; a combining voiced sound mark stays with its kana.
    @Test func astralIdeographsAndCombiningKanaMarks() {
        let text = "𠮷野家でか\u{3099}"
        let tokens = WordTokenizer().tokens(in: text)
        #expect(tokens.map { String($0.text) } == ["𠮷", "野", "家", "で", "か\u{3099}"])
        #expect(text.scalarOffsets(of: tokens.map(\.range)) == [0..<1, 1..<2, 2..<3, 3..<4, 4..<6])
        #expect(tokens.map { text.utf16.distance(from: text.startIndex, to: $0.range.lowerBound) } == [0, 2, 3, 4, 5])
    }

    /// Thai has no spaces between words either: one word per letter and its marks (no dictionary).
    @Test func thaiIsOneWordPerLetter() {
        #expect(pieces("สวัสดีครับ") == ["ส", "วั", "ส", "ดี", "ค", "รั", "บ"])
        #expect(WordTokenizer().tokens(in: "สวัสดี").allSatisfy { $0.isUnspacedScriptCharacter })
    }

    /// Latin-script text is not marked as unspaced, whatever its letters.
    @Test func spacedScriptsAreNotUnspaced() {
        #expect(!WordTokenizer().tokens(in: "naïve 한국어 привет 3.5").contains { $0.isUnspacedScriptCharacter })
    }

    @Test func emojiSequencesAreSingleSymbols() {
        let family = "👨‍👩‍👧‍👦"
        #expect(pieces("hi 👍🏽\(family)🇫🇷 1️⃣") == ["hi", "👍🏽", family, "🇫🇷", "1️⃣"])
        #expect(kinds("👍🏽 1️⃣") == [.symbol, .symbol])
    }

    @Test func whitespaceControlAndFormatCharactersSeparate() {
        #expect(pieces("a\u{00A0}b\u{2003}c\u{3000}d\r\ne\u{0}f\u{200B}g\u{AD}h") == ["a", "b", "c", "d", "e", "f", "g", "h"])
    }

    @Test func punctuationCanBeLeftOut() {
        #expect(pieces("Hi, you! €5 🙂", includePunctuation: false) == ["Hi", "you", "5"])
    }

    @Test func emptyAndPunctuationOnlyText() {
        #expect(pieces("") == [])
        #expect(pieces("   \n") == [])
        #expect(pieces("?!…") == ["?", "!", "…"])
    }
}

@Suite struct ScalarOffsetTests {
    @Test func scalarRangeRoundTrips() {
        let text = "naïve café 👨‍👩‍👧 end"
        let range = text.scalarIndexRange(6..<10)
        #expect(range.map { String(text[$0]) } == "café")
        // The family emoji is 5 scalars (3 people, 2 joiners).
        let family = text.scalarIndexRange(11..<16)
        #expect(family.map { String(text.unicodeScalars[$0]) } == "👨‍👩‍👧")
        if let family { #expect(text.scalarOffsets(of: family) == 11..<16) }
    }

    /// The one-walk form over many ranges gives each range's offsets, in text order (the tokens
    /// of a text, combining marks and a 5-scalar emoji included) and out of order (a bound before
    /// the previous one walks back), empty ranges included.
    @Test func manyRangesEqualOneAtATime() {
        let text = "naïve cafe\u{301} 👨‍👩‍👧 end, ok"
        let tokens = WordTokenizer().tokens(in: text).map(\.range)
        #expect(tokens.count >= 5)
        #expect(text.scalarOffsets(of: tokens) == tokens.map { text.scalarOffsets(of: $0) })
        let shuffled = [tokens[3], tokens[0], tokens[4], tokens[4], tokens[1], text.endIndex..<text.endIndex,
                        text.startIndex..<text.startIndex, tokens[2]]
        #expect(text.scalarOffsets(of: shuffled) == shuffled.map { text.scalarOffsets(of: $0) })
        #expect(text.scalarOffsets(of: []) == [])
    }

    @Test func outOfBoundsIsNil() {
        #expect("abc".scalarIndexRange(2..<4) == nil)
        #expect("abc".scalarIndexRange(-1..<1) == nil)
        #expect("abc".scalarIndexRange(3..<3) != nil)
    }
}

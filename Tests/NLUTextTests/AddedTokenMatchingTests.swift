import Foundation
import NLUTestSupport
import Testing
@testable import NLUText

/// Added and special tokens are found by a leftmost-longest automaton (``LeftmostLongestMatcher``)
/// instead of trying every token at every position: the same matches as before and as Hugging
/// Face `tokenizers`, in time linear in the text whatever the number of tokens.
@Suite struct AddedTokenMatchingTests {
    struct Fixture: Decodable {
        struct Kind: Decodable {
            var added_tokens: [[String: AnyCodable]]
            var cases: [SubwordTokenizerParityTests.Expected.Case]
        }
        var kinds: [String: Kind]
    }

    /// Just enough of a JSON value to copy `added_tokens` entries into a tokenizer.json.
    struct AnyCodable: Decodable {
        var value: Any
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) { value = bool }
            else if let int = try? container.decode(Int.self) { value = int }
            else { value = try container.decode(String.self) }
        }
    }

    /// Overlapping tokens ("[MASK]" and "[MA"), prefixes of each other ("<ab>", "<ab>cd", "b>c"),
    /// lstrip / rstrip, and normalized ones, added to the BPE and Unigram fixtures
    /// (scripts/fixtures/added_tokens.py): ids and offsets as `tokenizers` 0.22.2 gives them.
    @Test(arguments: ["bpe", "unigram"])
    func overlappingAddedTokensMatchTokenizers(kind: String) throws {
        let fixtureURL = SubwordTokenizerParityTests.directory.appendingPathComponent("added-tokens.json")
        let fixture = try #require(try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: fixtureURL)).kinds[kind])
        let source = SubwordTokenizerParityTests.directory.appendingPathComponent("\(kind)/tokenizer.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        json["added_tokens"] = fixture.added_tokens.map { $0.mapValues(\.value) }
        let url = TestScratch.file("nlukit-added", extension: "json")
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let tokenizer = try SubwordTokenizer(tokenizerJSON: url)
        for item in fixture.cases {
            let sequence = tokenizer.tokenize(item.text)
            #expect(sequence.ids == item.ids, "\(item.text.debugDescription)")
            #expect(sequence.offsets.map { [$0.lowerBound, $0.upperBound] } == item.offsets, "\(item.text.debugDescription)")
        }
    }

    /// What the tokenizers did before the automaton: at each position, every token longest first.
    static func reference(_ patterns: [[UInt32]], _ text: [UInt32], from: Int) -> (range: Range<Int>, pattern: Int)? {
        let order = patterns.indices.filter { !patterns[$0].isEmpty }.sorted { patterns[$0].count > patterns[$1].count }
        for start in from..<max(from, text.count) {
            for index in order where start + patterns[index].count <= text.count
                && text[start..<(start + patterns[index].count)].elementsEqual(patterns[index]) {
                return (start..<(start + patterns[index].count), index)
            }
        }
        return nil
    }

    /// Random token sets over a three-letter alphabet (so tokens overlap, nest and repeat) against
    /// the old search, from every start position.
    @Test func theAutomatonFindsWhatTryingEveryTokenFound() {
        var seed: UInt64 = 0x5EED
        func random(_ bound: Int) -> Int {
            // SplitMix64, so a failure reproduces.
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        for trial in 0..<400 {
            let patterns = (0..<(1 + random(8))).map { _ in (0..<random(6)).map { _ in UInt32(97 + random(3)) } }
            let text = (0..<random(40)).map { _ in UInt32(97 + random(3)) }
            let matcher = LeftmostLongestMatcher(patterns)
            for from in 0...text.count {
                let found = matcher.firstMatch(in: text, from: from) { $0 }
                let expected = Self.reference(patterns, text, from: from)
                #expect(found?.range == expected?.range && found?.pattern == expected?.pattern,
                        "trial \(trial): patterns \(patterns) text \(text) from \(from)")
            }
        }
    }

    /// BERT's special tokens are matched on UTF-8 bytes: overlapping and multi-byte ones too.
    @Test func specialTokensOnBytesTakeTheLongestAtTheLeftmostPlace() {
        let matcher = SpecialTokenMatcher(tokens: [("[MA", 7), ("[MASK]", 4), ("東京", 9), ("東", 8), ("[MASK]", 5)])
        let text = Array("x[MA[MASK] 東京東".utf8)
        var found: [(Range<Int>, Int32)] = []
        text.withUnsafeBufferPointer { bytes in
            var from = 0
            while let match = matcher.nextMatch(in: bytes, from: from) {
                found.append((match.range, match.id))
                from = match.range.upperBound
            }
        }
        #expect(found.map(\.1) == [7, 4, 9, 8])   // the first of two equal tokens wins, as before
        #expect(found.map(\.0) == [1..<4, 4..<10, 11..<17, 17..<20])
    }

    /// 5,000 added tokens over 100,000 scalars: trying every token at every position took minutes
    /// (debug build), work that grew with the number of tokens; the automaton reads the text once, so ten
    /// times the tokens cost about what a tenth of them does.
    @Test func manyAddedTokensOverALongTextTakeLinearTime() {
        func tokens(_ count: Int) -> [AddedTokenSplitter.Token] {
            (0..<count).map { AddedTokenSplitter.Token(content: "<tok\($0)>", id: Int32(1_000 + $0)) }
        }
        let text = Array(String(repeating: "plain words <tok42> and <tok4999> more <tok text ", count: 2_000).unicodeScalars)
        let few = AddedTokenSplitter(tokens(500)), many = AddedTokenSplitter(tokens(5_000))
        #expect(many.split(text).filter { if case .token = $0 { true } else { false } }.count == 4_000)
        // A ratio of CPU times (best of three each), which a busy machine does not move, rather than a time
        // limit: trying every token made it about 10.
        let tokenGrowth = linearWorkGrowth(small: { _ = few.split(text) }, large: { _ = many.split(text) })
        #expect(tokenGrowth.ratio < 4, "500 → 5,000 added tokens: \(tokenGrowth)")

        func special(_ count: Int) -> SpecialTokenMatcher {
            SpecialTokenMatcher(tokens: tokens(count).map { (String(String.UnicodeScalarView($0.content)), $0.id) })
        }
        let fewSpecial = special(500), manySpecial = special(5_000)
        let bytes = Array(String(String.UnicodeScalarView(text)).utf8)
        func matches(_ matcher: SpecialTokenMatcher) -> Int {
            bytes.withUnsafeBufferPointer { buffer in
                var matches = 0, from = 0
                while let match = matcher.nextMatch(in: buffer, from: from) {
                    matches += 1
                    from = match.range.upperBound
                }
                return matches
            }
        }
        #expect(matches(manySpecial) == 4_000)
        let byteGrowth = linearWorkGrowth(small: { _ = matches(fewSpecial) }, large: { _ = matches(manySpecial) })
        #expect(byteGrowth.ratio < 4, "500 → 5,000 special tokens: \(byteGrowth)")
    }
}

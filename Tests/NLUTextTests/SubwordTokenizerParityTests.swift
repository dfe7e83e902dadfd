import Foundation
import Testing
@testable import NLUText

/// Byte-level BPE (RoBERTa's layout) and SentencePiece Unigram (XLM-R's tokenizer.json, with its
/// `Precompiled` nmt_nfkc normalizer; also in an older layout) trained on tiny Shakespeare, against `tokenizers` 0.22.2 on
/// 2,170 texts: 1,500 Shakespeare lines, 500 Snips sentences, 100 long joined lines and 70 edge
/// cases (scripts/fixtures/subword_tokenizers.py). Ids and character offsets must be identical.
@Suite struct SubwordTokenizerParityTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/subword")

    struct Expected: Decodable {
        struct Case: Decodable {
            var text: String
            var ids: [Int32]
            var offsets: [[Int]]
        }
        var with_special_tokens_of_x: [Int32]
        var cases: [Case]
    }

    static func expected(_ name: String) throws -> Expected {
        let url = directory.appendingPathComponent("\(name)/expected.json")
        return try JSONDecoder().decode(Expected.self, from: Data(contentsOf: url))
    }

    /// Texts whose ids or offsets differ, described for the failure message (the first few).
    static func differences(_ tokenizer: any EncoderTokenizer, _ expected: Expected) -> [String] {
        var differences: [String] = []
        for item in expected.cases {
            let sequence = tokenizer.tokenize(item.text)
            let offsets = sequence.offsets.map { [$0.lowerBound, $0.upperBound] }
            if sequence.ids != item.ids || offsets != item.offsets {
                differences.append("\(item.text.debugDescription): ids \(sequence.ids) offsets \(offsets), expected \(item.ids) \(item.offsets)")
            }
        }
        return differences
    }

    static func specialFrame(_ tokenizer: any EncoderTokenizer, _ expected: Expected) -> [Int32] {
        [tokenizer.clsID] + tokenizer.tokenize("x").ids + [tokenizer.sepID]
    }

    /// The byte-level BPE, the Unigram tokenizer.json as transformers 4.57 writes XLM-R's, and the
    /// same Unigram in an older conversion's layout (Replace ``/'', WhitespaceSplit + Metaspace with
    /// prepend_scheme first, RobertaProcessing), each loaded by the model directory's kind.
    @Test(arguments: ["bpe", "unigram", "unigram-legacy"])
    func tokenizerJSONMatchesTokenizersOnEveryText(kind: String) throws {
        let tokenizer = try loadEncoderTokenizer(modelDirectory: Self.directory.appendingPathComponent(kind))
        #expect(tokenizer is SubwordTokenizer)
        let expected = try Self.expected(kind)
        #expect(expected.cases.count > 2000)
        let differences = Self.differences(tokenizer, expected)
        #expect(differences.isEmpty, "\(differences.count) texts differ, e.g. \(differences.prefix(5))")
        #expect(Self.specialFrame(tokenizer, expected) == expected.with_special_tokens_of_x)
    }

    @Test func byteLevelBPEFromVocabAndMergesMatchesTokenizerJSON() throws {
        let directory = Self.directory.appendingPathComponent("bpe")
        let tokenizer = try SubwordTokenizer(vocabJSON: directory.appendingPathComponent("vocab.json"),
                                             merges: directory.appendingPathComponent("merges.txt"))
        let expected = try Self.expected("bpe")
        let differences = Self.differences(tokenizer, expected)
        #expect(differences.isEmpty, "\(differences.count) texts differ, e.g. \(differences.prefix(5))")
        #expect(tokenizer.padID == 1 && tokenizer.clsID == 0 && tokenizer.sepID == 2)
    }
}

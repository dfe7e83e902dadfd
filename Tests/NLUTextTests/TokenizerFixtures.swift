import Foundation
@testable import NLUText

/// The golden files written by scripts/fixtures/tokenizer.py (Hugging Face fast tokenizer 0.22.2).
enum TokenizerFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tokenizer")

    struct GoldenEncoding: Decodable {
        var ids: [Int32]
        var tokens: [String]
        var type_ids: [Int32]
        var offsets: [[Int]]
        var word_ids: [Int?]
        var sequence_ids: [Int?]
        var attention_mask: [Int32]
    }

    struct Config: Decodable {
        var vocab: String
        var do_lower_case: Bool
        var strip_accents: Bool?
        var tokenize_chinese_chars: Bool?
    }

    struct GoldenCase: Decodable {
        var name: String
        var encoding: GoldenEncoding
        var ids_without_special: [Int32]
    }

    struct GoldenFile: Decodable {
        var config: Config
        var cases: [GoldenCase]
    }

    struct PairCase: Decodable {
        var question: Int
        var context: Int
        var max_length: Int
        var stride: Int
        var padded: Bool?
        var windows: [GoldenEncoding]?
        var error: String?
    }

    struct PairFile: Decodable {
        var config: Config
        var questions: [String]
        var contexts: [String]
        var cases: [PairCase]
    }

    struct CorpusText: Decodable {
        var name: String
        var text: String
    }

    struct SlowDifference: Decodable {
        var name: String
        var text: String
        var slow: [String]
        var fast: [String]
    }

    static func load<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func corpus() throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try load([CorpusText].self, "corpus.json").map { ($0.name, $0.text) })
    }

    static func tokenizer(_ config: Config) throws -> BertTokenizer {
        var options = BertTokenizer.Options.uncased
        options.lowercase = config.do_lower_case
        options.stripAccents = config.strip_accents
        options.handleChineseChars = config.tokenize_chinese_chars ?? true
        let vocabulary = try Vocabulary(contentsOf: directory.appendingPathComponent("vocab-\(config.vocab).txt"))
        return try BertTokenizer(vocabulary: vocabulary, options: options)
    }

    /// The first field where `encoding` differs from `golden`, or nil when identical.
    static func difference(_ encoding: Encoding, _ golden: GoldenEncoding) -> String? {
        if encoding.tokens != golden.tokens { return "tokens \(firstDifference(encoding.tokens, golden.tokens))" }
        if encoding.ids != golden.ids { return "ids \(firstDifference(encoding.ids, golden.ids))" }
        let offsets = encoding.offsets.map { [$0.lowerBound, $0.upperBound] }
        if offsets != golden.offsets { return "offsets \(firstDifference(offsets, golden.offsets)) tokens \(golden.tokens)" }
        if encoding.typeIDs != golden.type_ids { return "type ids \(firstDifference(encoding.typeIDs, golden.type_ids))" }
        if encoding.wordIDs != golden.word_ids { return "word ids \(firstDifference(encoding.wordIDs, golden.word_ids))" }
        if encoding.sequenceIDs != golden.sequence_ids { return "sequence ids \(firstDifference(encoding.sequenceIDs, golden.sequence_ids))" }
        if encoding.attentionMask != golden.attention_mask { return "attention mask differs" }
        return nil
    }

    static func firstDifference<T: Equatable>(_ ours: [T], _ theirs: [T]) -> String {
        let index = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ours.count, theirs.count)
        let around = { (array: [T]) in Array(array[max(0, index - 2)..<min(array.count, index + 3)]) }
        return "at \(index) (counts \(ours.count) vs \(theirs.count)): ours \(around(ours)) fast \(around(theirs))"
    }
}

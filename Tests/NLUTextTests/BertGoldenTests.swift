import Foundation
import NLUTestSupport
import Testing
@testable import NLUText

/// Zero differences against Hugging Face's fast tokenizer (tokenizers 0.22.2) on the project's corpus:
/// accents, combining marks, case mappings, CJK, Hangul, emoji/ZWJ, RTL, every kind of whitespace and
/// control character, punctuation of many scripts, numbers, >100-character words, punctuation-only,
/// empty and very long text, plus samples of every Unicode table the Rust tokenizer uses.
@Suite struct BertGoldenTests {
    static let configs = ["uncased", "cased", "uncased-keep-accents-no-cjk", "cased-strip-accents"]

    @Test(arguments: configs)
    func singleTextsMatchTheFastTokenizer(config: String) throws {
        let golden = try TokenizerFixtures.load(TokenizerFixtures.GoldenFile.self, "golden-\(config).json")
        let corpus = try TokenizerFixtures.corpus()
        let tokenizer = try TokenizerFixtures.tokenizer(golden.config)
        var differences: [String] = []
        var tokenCount = 0
        for testCase in golden.cases {
            let text = try #require(corpus[testCase.name])
            let encoding = tokenizer.encode(text)
            tokenCount += encoding.count
            if let difference = TokenizerFixtures.difference(encoding, testCase.encoding) {
                differences.append("\(testCase.name): \(difference)")
            }
            let bare = tokenizer.encode(text, addSpecialTokens: false)
            if bare.ids != testCase.ids_without_special { differences.append("\(testCase.name): ids without special tokens") }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(golden.cases.count) texts differ:\n\(differences.prefix(8).joined(separator: "\n"))")
        #expect(golden.cases.count >= 30 && tokenCount > 5_000)
    }

    @Test(arguments: ["uncased", "cased"])
    func pairWindowsMatchTheFastTokenizer(config: String) throws {
        let golden = try TokenizerFixtures.load(TokenizerFixtures.PairFile.self, "pairs-\(config).json")
        let tokenizer = try TokenizerFixtures.tokenizer(golden.config)
        var differences: [String] = []
        var windowCount = 0, errorCount = 0
        for testCase in golden.cases {
            let label = "q\(testCase.question) c\(testCase.context) max \(testCase.max_length) stride \(testCase.stride)"
            let question = golden.questions[testCase.question], context = golden.contexts[testCase.context]
            let result = Result { try tokenizer.encodePair(question, context, maxLength: testCase.max_length, stride: testCase.stride) }
            switch (result, testCase.windows) {
            case (.success(var windows), let expected?):
                if testCase.padded == true {
                    windows = windows.map { $0.padded(to: testCase.max_length, padID: tokenizer.padID) }
                }
                windowCount += windows.count
                guard windows.count == expected.count else {
                    differences.append("\(label): \(windows.count) windows, fast has \(expected.count)")
                    continue
                }
                for (index, (ours, theirs)) in zip(windows, expected).enumerated() {
                    if let difference = TokenizerFixtures.difference(ours, theirs) {
                        differences.append("\(label) window \(index): \(difference)")
                    }
                }
            case (.failure, nil):
                errorCount += 1   // the fast tokenizer failed too (first text too long, or stride too large)
            case (.success, nil):
                differences.append("\(label): we encode, the fast tokenizer fails with \(testCase.error ?? "?")")
            case (.failure(let error), _?):
                differences.append("\(label): we fail with \(error)")
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(8).joined(separator: "\n"))")
        #expect(windowCount > 300 && errorCount > 5)
    }

    @Test func vocabTxtWithTokenizerConfigLoadsTheCasedTokenizer() throws {
        let directory = try TestScratch.folder("bert-cased")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: TokenizerFixtures.directory.appendingPathComponent("vocab-cased.txt"),
                                         to: directory.appendingPathComponent("vocab.txt"))
        try Data(#"{"do_lower_case": false, "unk_token": {"content": "[UNK]"}}"#.utf8)
            .write(to: directory.appendingPathComponent("tokenizer_config.json"))
        let tokenizer = try BertTokenizer(modelDirectory: directory)
        #expect(!tokenizer.options.lowercase)
        let golden = try TokenizerFixtures.load(TokenizerFixtures.GoldenFile.self, "golden-cased.json")
        let corpus = try TokenizerFixtures.corpus()
        for testCase in golden.cases.prefix(30) {
            let encoding = tokenizer.encode(try #require(corpus[testCase.name]))
            #expect(TokenizerFixtures.difference(encoding, testCase.encoding) == nil, "\(testCase.name)")
        }
    }

    @Test func tokenizerJSONLoadsTheSameTokenizer() throws {
        let golden = try TokenizerFixtures.load(TokenizerFixtures.GoldenFile.self, "golden-uncased.json")
        let corpus = try TokenizerFixtures.corpus()
        let tokenizer = try BertTokenizer(modelDirectory: TokenizerFixtures.directory.appendingPathComponent("uncased"))
        #expect(tokenizer.options.lowercase && tokenizer.clsID == 2 && tokenizer.sepID == 3 && tokenizer.padID == 0)
        for testCase in golden.cases {
            let encoding = tokenizer.encode(try #require(corpus[testCase.name]))
            #expect(TokenizerFixtures.difference(encoding, testCase.encoding) == nil, "\(testCase.name)")
        }
    }
}

@Suite struct BertTruncationGoldenTests {
    struct TruncatedCase: Decodable {
        var name: String
        var max_length: Int
        var stride: Int
        var windows: [TokenizerFixtures.GoldenEncoding]?
        var error: String?
    }

    struct TruncatedFile: Decodable {
        var config: TokenizerFixtures.Config
        var cases: [TruncatedCase]
    }

    @Test func singleTextWindowsMatchTheFastTokenizer() throws {
        let golden = try TokenizerFixtures.load(TruncatedFile.self, "truncated-uncased.json")
        let corpus = try TokenizerFixtures.corpus()
        let tokenizer = try TokenizerFixtures.tokenizer(golden.config)
        var differences: [String] = [], windowCount = 0
        for testCase in golden.cases {
            let label = "\(testCase.name) max \(testCase.max_length) stride \(testCase.stride)"
            let result = Result { try tokenizer.encode(try #require(corpus[testCase.name]), maxLength: testCase.max_length, stride: testCase.stride) }
            switch (result, testCase.windows) {
            case (.success(let windows), let expected?):
                windowCount += windows.count
                if windows.count != expected.count { differences.append("\(label): \(windows.count) windows vs \(expected.count)") }
                for (ours, theirs) in zip(windows, expected) {
                    if let difference = TokenizerFixtures.difference(ours, theirs) { differences.append("\(label): \(difference)") }
                }
            case (.failure, nil): break
            default: differences.append("\(label): one side failed")
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(5))")
        #expect(windowCount > 100 && golden.cases.contains { $0.error != nil })
    }
}

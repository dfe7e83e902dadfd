import Foundation
import NLUTestSupport
import Testing

/// `nlu tokenize` end to end: output checked against the fast tokenizer's goldens, and bad input.
@Suite struct TokenizeCommandTests {
    static let tokenizerFixtures = fixturesDirectory.appendingPathComponent("tokenizer")
    static let vocab = tokenizerFixtures.appendingPathComponent("vocab-uncased.txt").path

    func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let url = TestScratch.file("nlukit-tokenize")
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The fast tokenizer's encoding of a corpus text, as the CLI prints it.
    func golden(_ name: String, file: String = "golden-uncased.json") throws -> (text: String, json: [String: Any]) {
        let corpus = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.tokenizerFixtures.appendingPathComponent("corpus.json"))) as? [[String: Any]]
        let text = try #require(corpus?.first { $0["name"] as? String == name }?["text"] as? String)
        let golden = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.tokenizerFixtures.appendingPathComponent(file))) as? [String: Any]
        let cases = try #require(golden?["cases"] as? [[String: Any]])
        let encoding = try #require(cases.first { $0["name"] as? String == name }?["encoding"] as? [String: Any])
        return (text, encoding)
    }

    @Test func jsonLinesMatchTheFastTokenizer() throws {
        let names = ["ascii_mixed", "accents_decomposed", "emoji", "rtl", "special_tokens"]
        let inputs = try names.map { try golden($0) }
        let result = try runNLU(["tokenize", "--vocab", Self.vocab, "--json"], input: inputs.map(\.text).joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == names.count)
        for (line, input) in zip(lines, inputs) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["tokens"] as? [String] == input.json["tokens"] as? [String])
            #expect(object["ids"] as? [Int] == input.json["ids"] as? [Int])
            #expect(object["type_ids"] as? [Int] == input.json["type_ids"] as? [Int])
            #expect(object["offsets"] as? [[Int]] == input.json["offsets"] as? [[Int]])
        }
    }

    /// Lines that start with U+FEFF (a file's byte-order mark) keep it, as the fast tokenizer does:
    /// no token for it, but every offset counts it (scripts/fixtures/tokenizer_bom.py).
    @Test(arguments: [false, true])
    func lineStartingWithAByteOrderMarkIsTokenizedAsTheFastTokenizer(fromFile: Bool) throws {
        let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.tokenizerFixtures.appendingPathComponent("bom-uncased.json"))) as? [String: Any]
        let cases = try #require(fixture?["cases"] as? [[String: Any]])
        // Stored as scalar values: Foundation's JSON parser drops a string's leading U+FEFF.
        let texts = try cases.map { String(String.UnicodeScalarView(try #require($0["scalars"] as? [Int]).compactMap(Unicode.Scalar.init))) }
        #expect(texts.filter { $0.unicodeScalars.first == "\u{FEFF}" }.count >= 3)
        let input = texts.joined(separator: "\n") + "\n"
        let result: NLURun
        if fromFile {
            let path = try temporaryFile(Array(input.utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            result = try runNLU(["tokenize", "--vocab", Self.vocab, "--json", "--file", path])
        } else {
            result = try runNLU(["tokenize", "--vocab", Self.vocab, "--json"], input: input)
        }
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == cases.count)
        for (line, expected) in zip(lines, cases) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["tokens"] as? [String] == expected["tokens"] as? [String])
            #expect(object["ids"] as? [Int] == expected["ids"] as? [Int])
            #expect(object["offsets"] as? [[Int]] == expected["offsets"] as? [[Int]], "\(expected["scalars"] ?? "")")
        }
    }

    @Test func textOutputForArguments() throws {
        let result = try runNLU(["tokenize", "--vocab", Self.vocab, "Hello, world!"])
        #expect(result.status == 0)
        #expect(result.stdout == "tokens: [CLS] hello , world ! [SEP]\nids:    2 1539 16 1997 5 3\n")
    }

    @Test func pairsGiveOverflowWindowsAsTheFastTokenizer() throws {
        let pairs = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.tokenizerFixtures.appendingPathComponent("pairs-uncased.json"))) as? [String: Any]
        let questions = try #require(pairs?["questions"] as? [String]), contexts = try #require(pairs?["contexts"] as? [String])
        let cases = try #require(pairs?["cases"] as? [[String: Any]])
        // max_length 64 is not padded in the goldens, so the windows compare as printed.
        let testCase = try #require(cases.first { $0["question"] as? Int == 0 && $0["context"] as? Int == 1 && $0["max_length"] as? Int == 64 })
        let expected = try #require(testCase["windows"] as? [[String: Any]])
        let line = String(data: try JSONSerialization.data(withJSONObject: ["question": questions[0], "context": contexts[1]]), encoding: .utf8)!
        let result = try runNLU(["tokenize", "--vocab", Self.vocab, "--pair", "--max-length", "64", "--stride", "0", "--json"], input: line + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let windows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(windows.count == expected.count && windows.count > 1)
        for (ours, theirs) in zip(windows, expected) {
            #expect(ours["ids"] as? [Int] == theirs["ids"] as? [Int])
            #expect(ours["type_ids"] as? [Int] == theirs["type_ids"] as? [Int])
            #expect(ours["offsets"] as? [[Int]] == theirs["offsets"] as? [[Int]])
        }
    }

    @Test func modelDirectoryWithTokenizerJSON() throws {
        let result = try runNLU(["tokenize", "--model", Self.tokenizerFixtures.appendingPathComponent("uncased").path, "--json", "Héllo!"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "{\"tokens\":[\"[CLS]\",\"hello\",\"!\",\"[SEP]\"],\"ids\":[2,1539,5,3],\"type_ids\":[0,0,0,0],\"offsets\":[[0,0],[0,5],[5,6],[0,0]]}\n")
    }

    /// RoBERTa's byte-level BPE and XLM-R's Unigram (scripts/fixtures/subword_tokenizers.py):
    /// `<s> tokens </s>` with the ids and offsets `tokenizers` 0.22.2 gives for the same lines.
    @Test(arguments: ["bpe", "unigram"])
    func subwordModelDirectoriesMatchTokenizers(kind: String) throws {
        let directory = fixturesDirectory.appendingPathComponent("subword/\(kind)")
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("expected.json"))) as? [String: Any]
        let cases = try #require(expected?["cases"] as? [[String: Any]])
        let special = try #require(expected?["with_special_tokens_of_x"] as? [Int])
        let texts = ["café naïve résumé Zürich crème brûlée", "emoji 👍 and 👍🏽 and 👨‍👩‍👧‍👦 family 🇫🇷 flag", "Hello  world", "a <mask> b"]
        let result = try runNLU(["tokenize", "--model", directory.path, "--json"], input: texts.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == texts.count)
        for (text, line) in zip(texts, lines) {
            let reference = try #require(cases.first { $0["text"] as? String == text })
            let output = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let ids = try #require(output["ids"] as? [Int]), offsets = try #require(output["offsets"] as? [[Int]])
            #expect(ids == [special[0]] + (reference["ids"] as? [Int] ?? []) + [special[special.count - 1]], "\(text)")
            #expect(offsets == [[0, 0]] + (reference["offsets"] as? [[Int]] ?? []) + [[0, 0]], "\(text)")
        }
        let pair = try runNLU(["tokenize", "--model", directory.path, "--pair"], input: #"{"question": "a", "context": "b"}"# + "\n")
        #expect(pair.status == 2)
        #expect(pair.stderr.contains("need a WordPiece (BERT) tokenizer"))
        // Found while running, still shown with the subcommand's usage (not the root's "nlu <subcommand>").
        #expect(pair.stderr.contains("Usage: nlu tokenize [") && pair.stderr.contains("See 'nlu tokenize --help'"), "\(pair.stderr)")
    }

    @Test func casedFlagKeepsCase() throws {
        let cased = Self.tokenizerFixtures.appendingPathComponent("vocab-cased.txt").path
        let result = try runNLU(["tokenize", "--vocab", cased, "--cased", "--json", "Paris"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\"tokens\":[\"[CLS]\",\"Paris\",\"[SEP]\"]"))
    }

    @Test func invalidUTF8FileIsARuntimeError() throws {
        let file = try temporaryFile([0x68, 0x69, 0x0A, 0xC3, 0x28, 0x0A])
        let result = try runNLU(["tokenize", "--vocab", Self.vocab, "--file", file])
        #expect(result.status == 1)
        #expect(result.stderr.contains("line 2: not valid UTF-8"))
        #expect(result.stdout.isEmpty)
    }

    /// A line of 2³¹ bytes (a sparse file of NULs: no disk) is refused, naming the line, once its first 256 MiB
    /// are read (the input limit; the tokenizers' own, 2³¹ - 1 bytes, lies behind it); the tokenizer's 32-bit
    /// scalar offsets overflowed on it (SIGILL after 30 s), and reading it took 2 GiB.
    @Test func aLineTooLongForTheTokenizersIsARuntimeError() throws {
        let file = try temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: file) }
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.truncate(atOffset: 1 << 31)
        try handle.close()
        let result = try runNLU(["tokenize", "--vocab", Self.vocab, "--file", file])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(file) line 1: more than 256 MiB; a line may hold at most 256 MiB"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func badVocabulariesAreRuntimeErrors() throws {
        let missing = try runNLU(["tokenize", "--vocab", "/nonexistent/vocab.txt", "hi"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/nonexistent/vocab.txt"))
        let empty = try runNLU(["tokenize", "--vocab", try temporaryFile([]), "hi"])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("the vocabulary is empty"))
        let noUnknown = try runNLU(["tokenize", "--vocab", try temporaryFile(Array("[PAD]\n[CLS]\n[SEP]\nhi\n".utf8)), "hi"])
        #expect(noUnknown.status == 1)
        #expect(noUnknown.stderr.contains("no unknown token \"[UNK]\""))
        let duplicate = try runNLU(["tokenize", "--vocab", try temporaryFile(Array("[UNK]\nhi\nhi\n".utf8)), "hi"])
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("line 3: duplicate token \"hi\""))
        let noModel = try runNLU(["tokenize", "--model", "/nonexistent", "hi"])
        #expect(noModel.status == 1)
    }

    @Test func badPairsAreRuntimeErrors() throws {
        let notJSON = try runNLU(["tokenize", "--vocab", Self.vocab, "--pair"], input: "just text\n")
        #expect(notJSON.status == 1)
        #expect(notJSON.stderr.contains("input 1: expected a JSON object"))
        // Too large for this question (3 tokens leave 4 for the context): known only from the input, exit 1.
        let strideTooLarge = try runNLU(["tokenize", "--vocab", Self.vocab, "--pair", "--max-length", "10", "--stride", "6"],
                                        input: #"{"question": "a b c", "context": "one two three four five six seven"}"# + "\n")
        #expect(strideTooLarge.status == 1)
        #expect(strideTooLarge.stderr.contains("stride 6"))
        // Too large for any pair (a window of 10 holds 7 tokens besides [CLS] [SEP] [SEP]): a usage error before any input is read.
        let neverFits = try runNLU(["tokenize", "--vocab", Self.vocab, "--pair", "--max-length", "10", "--stride", "8"],
                                   input: #"{"question": "a b c", "context": "one two three four five six seven"}"# + "\n")
        #expect(neverFits.status == 2 && neverFits.stderr.contains("--stride (8) must be smaller than the 7 tokens"), "\(neverFits.stderr)")
    }

    /// A model directory given to --vocab (which takes its vocab.txt) is the wrong option: a usage error that says
    /// it is a directory and points to --model.
    @Test func directoryGivenToVocabPointsToModel() throws {
        let directory = fixturesDirectory.appendingPathComponent("subword/bpe").path
        let result = try runNLU(["tokenize", "--vocab", directory, "hello"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("Error: --vocab takes a vocab.txt file, and \(directory) is a directory; for a model directory use --model \(directory)"),
                "\(result.stderr)")
        #expect(result.stderr.contains("Usage: nlu tokenize"))
    }

    @Test func usageErrorsExit2() throws {
        for arguments in [["tokenize", "hi"],
                          ["tokenize", "--vocab", Self.vocab, "--model", "x", "hi"],
                          ["tokenize", "--vocab", Self.vocab, "--cased", "--uncased", "hi"],
                          ["tokenize", "--vocab", Self.vocab, "--stride", "4", "hi"],
                          ["tokenize", "--vocab", Self.vocab, "--max-length", "2", "hi"],
                          ["tokenize", "--vocab", Self.vocab, "--max-length", "nope", "hi"]] {
            let result = try runNLU(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(!result.stderr.isEmpty)
        }
    }

    @Test func helpDescribesInputAndOutput() throws {
        let result = try runNLU(["tokenize", "--help"])
        #expect(result.status == 0)
        for phrase in ["--vocab <file>", "--model <dir>", "--pair", "--max-length <n>", "--stride <n>", "--json", "Unicode scalars"] {
            #expect(result.stdout.contains(phrase), "\(phrase)")
        }
    }
}

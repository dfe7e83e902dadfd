import Foundation
import NLUTestSupport
import Testing

/// End-to-end tests of `nlu qa` on the tiny random fixture checkpoints (scripts/fixtures/qa.py),
/// compared with the reference pipeline's answers recorded in goldens.json.
@Suite struct QACommandTests {
    static let bert = fixturesDirectory.appendingPathComponent("qa/bert-tiny").path
    static let distilbert = fixturesDirectory.appendingPathComponent("qa/distilbert-tiny").path
    static let squad = fixturesDirectory.appendingPathComponent("qa/squad-v2.json").path
    static let fox = "The quick brown fox jumps over the lethargic dog."

    /// The pipeline's answers for (model, question, options) from goldens.json.
    static func golden(model: String, question: String, options: [String: Any]) throws -> [[String: Any]] {
        let data = try Data(contentsOf: fixturesDirectory.appendingPathComponent("qa/goldens.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(root["pipeline"] as? [[String: Any]])
        let match = try #require(cases.first {
            $0["model"] as? String == model && $0["question"] as? String == question
                && Self.sameOptions($0["options"] as? [String: Any] ?? [:], options)
        })
        return try #require(match["answers"] as? [[String: Any]])
    }

    static func sameOptions(_ a: [String: Any], _ b: [String: Any]) -> Bool {
        Set(a.keys) == Set(b.keys) && a.keys.allSatisfy { "\(a[$0] ?? "")" == "\(b[$0] ?? "")" }
    }

    static func answers(_ json: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(object["answers"] as? [[String: Any]])
    }

    static func expectSame(_ actual: [[String: Any]], _ expected: [[String: Any]]) {
        #expect(actual.map { $0["answer"] as? String } == expected.map { $0["answer"] as? String })
        #expect(actual.map { $0["start"] as? Int } == expected.map { $0["start"] as? Int })
        #expect(actual.map { $0["end"] as? Int } == expected.map { $0["end"] as? Int })
        for (a, e) in zip(actual, expected) {
            let score = a["score"] as? Double ?? -1, wanted = e["score"] as? Double ?? 1
            #expect(abs(score - wanted) <= 1e-4 * wanted)
        }
    }

    @Test func askPrintsThePipelinesAnswerAsJSON() throws {
        let run = try runNLU(["qa", "ask", "--model", Self.bert, "--question", "Who jumped over the dog?",
                              "--context", Self.fox, "--top-k", "3", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        Self.expectSame(try Self.answers(run.stdout),
                        try Self.golden(model: "bert-tiny", question: "Who jumped over the dog?", options: ["top_k": 3]))
    }

    @Test func askWithInt8PrecisionGivesF32sBestAnswer() throws {
        let run = try runNLU(["qa", "ask", "--model", Self.bert, "--question", "Who jumped over the dog?",
                              "--context", Self.fox, "--precision", "int8", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let golden = try Self.golden(model: "bert-tiny", question: "Who jumped over the dog?", options: ["top_k": 3])
        let best = try #require(try Self.answers(run.stdout).first)
        #expect(best["answer"] as? String == golden[0]["answer"] as? String)
        #expect(best["start"] as? Int == golden[0]["start"] as? Int)
    }

    @Test func unknownPrecisionIsAUsageError() throws {
        for command in [["qa", "ask", "--question", "Who?", "--context", Self.fox], ["qa", "evaluate", "--squad", Self.squad]] {
            let run = try runNLU(command + ["--model", Self.bert, "--precision", "fp16"])
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("fp16") && run.stderr.contains("int8"), "\(run.stderr)")
        }
    }

    @Test func askReadsTheContextFromStandardInputAndPrintsText() throws {
        let run = try runNLU(["qa", "ask", "--model", Self.distilbert, "--question", "Who jumped over the dog?"], input: Self.fox)
        #expect(run.status == 0, "\(run.stderr)")
        let expected = try Self.golden(model: "distilbert-tiny", question: "Who jumped over the dog?", options: [:])[0]
        let answer = try #require(expected["answer"] as? String)
        let start = try #require(expected["start"] as? Int), end = try #require(expected["end"] as? Int)
        #expect(run.stdout.hasSuffix("\"\(answer)\"  [\(start)..<\(end)]\n"))
    }

    @Test func askReadsAContextFileWithUnicodeOffsetsInScalars() throws {
        let question = "Where is the café?"
        let data = try Data(contentsOf: fixturesDirectory.appendingPathComponent("qa/goldens.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let item = try #require((root["pipeline"] as? [[String: Any]])?.first {
            $0["question"] as? String == question && $0["model"] as? String == "bert-tiny"
                && ($0["options"] as? [String: Any])?["top_k"] as? Int == 4
        })
        let file = TestScratch.file("qa-context", extension: "txt")
        try Data(try #require(item["context"] as? String).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try runNLU(["qa", "ask", "--model", Self.bert, "--question", question, "--context-file", file.path,
                              "--top-k", "4", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        Self.expectSame(try Self.answers(run.stdout), try #require(item["answers"] as? [[String: Any]]))
    }

    @Test func batchAnswersEachLineAndReportsBadLinesByNumber() throws {
        let directory = try TestScratch.folder("qa-batch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.jsonl"), output = directory.appendingPathComponent("out.jsonl")
        let lines = [
            #"{"id": "a", "question": "Who jumped over the dog?", "context": "The quick brown fox jumps over the lethargic dog."}"#,
            #"{"id": 2, "question": "Who jumped over the dog?""#,
            #"{"id": "c", "question": "", "context": "Text."}"#,
            #"{"id": "d", "question": "Who jumped over the dog?", "context": "The quick brown fox jumps over the lethargic dog."}"#,
            #"{"id": "e", "question": "Who?"}"#,
        ]
        try Data(lines.joined(separator: "\n").utf8).write(to: input)
        let run = try runNLU(["qa", "ask", "--model", Self.bert, "--input", input.path, "--output", output.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("line 2: expected a JSON object"))
        #expect(run.stderr.contains("line 3: the question is empty"))
        #expect(run.stderr.contains("line 5: \"context\" missing: expected a JSON object"), "\(run.stderr)")
        #expect(run.stderr.contains("qa: 5/5 lines (3 failed)") && run.stderr.contains("qa: 3 of 5 lines failed"))
        let written = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(written.count == 5)
        let objects = try written.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { "\($0["id"] ?? "-")" } == ["a", "-", "c", "d", "e"])
        #expect(objects[1]["line"] as? Int == 2 && objects[2]["line"] as? Int == 3)
        let expected = try Self.golden(model: "bert-tiny", question: "Who jumped over the dog?", options: [:])
        Self.expectSame(try #require(objects[0]["answers"] as? [[String: Any]]), expected)
        Self.expectSame(try #require(objects[3]["answers"] as? [[String: Any]]), expected)
    }

    @Test func evaluatePrintsTheOfficialSQuADScores() throws {
        let run = try runNLU(["qa", "evaluate", "--model", Self.bert, "--squad", Self.squad, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let data = try Data(contentsOf: fixturesDirectory.appendingPathComponent("qa/goldens.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let golden = try #require((root["squad"] as? [[String: Any]])?.first { $0["model"] as? String == "bert-tiny" })
        #expect(object["count"] as? Int == 6)
        #expect(abs((object["f1"] as? Double ?? -1) - (golden["f1"] as? Double ?? -2)) < 1e-9)
        #expect(abs((object["exact_match"] as? Double ?? -1) - (golden["exact"] as? Double ?? -2)) < 1e-9)
        let text = try runNLU(["qa", "evaluate", "--model", Self.bert, "--squad", Self.squad])
        #expect(text.stdout.hasPrefix("exact match "))
    }

    @Test func missingOrCorruptModelDirectoryIsARuntimeError() throws {
        let missing = try runNLU(["qa", "ask", "--model", "/nonexistent/model", "--question", "Who?", "--context", "Text."])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Error: /nonexistent/model: not found"))
        let directory = TestScratch.file("qa-corrupt")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.bert), to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{\"model_type\": \"bert\",".utf8).write(to: directory.appendingPathComponent("config.json"))
        let corrupt = try runNLU(["qa", "ask", "--model", directory.path, "--question", "Who?", "--context", "Text."])
        #expect(corrupt.status == 1)
        #expect(corrupt.stderr.contains("config.json"))
        try Data(#"{"model_type": "t5"}"#.utf8).write(to: directory.appendingPathComponent("config.json"))
        let unsupported = try runNLU(["qa", "ask", "--model", directory.path, "--question", "Who?", "--context", "Text."])
        #expect(unsupported.status == 1)
        #expect(unsupported.stderr.contains("unsupported model_type \"t5\""))
    }

    @Test func emptyInputsAndBadOptionsAreClearErrors() throws {
        let emptyQuestion = try runNLU(["qa", "ask", "--model", Self.bert, "--question", " ", "--context", "Text."])
        #expect(emptyQuestion.status == 2 && emptyQuestion.stderr.contains("--question is empty"))
        let emptyContext = try runNLU(["qa", "ask", "--model", Self.bert, "--question", "Who?"], input: "\n")
        // An empty input is an input error (exit 1) naming its source, not a usage error.
        #expect(emptyContext.status == 1 && emptyContext.stderr.contains("standard input: the context is empty"))
        let badTopK = try runNLU(["qa", "ask", "--model", Self.bert, "--question", "Who?", "--context", "x", "--top-k", "0"])
        #expect(badTopK.status == 2 && badTopK.stderr.contains("--top-k"))
        let badStride = try runNLU(["qa", "ask", "--model", Self.bert, "--question", "Who?", "--context", "x",
                                    "--max-seq-length", "32", "--doc-stride", "40"])
        #expect(badStride.status == 2 && badStride.stderr.contains("--doc-stride"))
    }

    @Test func questionLongerThanTheWindowIsAClearError() throws {
        let question = Array(repeating: "who", count: 40).joined(separator: " ")
        let run = try runNLU(["qa", "ask", "--model", Self.bert, "--question", question, "--context", Self.fox,
                              "--max-seq-length", "32", "--doc-stride", "8"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("the question is too long for the window"))
        #expect(run.stderr.contains("fill the 32-token window"), "\(run.stderr)")
        #expect(run.stderr.contains("max sequence length (--max-seq-length)") && run.stderr.contains("document stride (--doc-stride)"))
        // A short question in a tiny window: too little room left for the context beyond the stride.
        let tiny = try runNLU(["qa", "ask", "--model", Self.bert, "--question", "q", "--context", "abc", "--max-seq-length", "5"])
        #expect(tiny.status == 1)
        #expect(tiny.stderr.contains("leaves 1 of the 5-token window for the context, and the document stride (--doc-stride) must be smaller than that (it is 2)"),
                "\(tiny.stderr)")
    }

    @Test func helpDescribesTheOptions() throws {
        let run = try runNLU(["qa", "ask", "--help"])
        #expect(run.status == 0)
        for option in ["--model", "--question", "--context-file", "--input", "--output", "--top-k", "--doc-stride",
                       "--max-seq-length", "--max-answer-length", "--max-question-length", "--handle-impossible-answer", "--json"] {
            #expect(run.stdout.contains(option), "\(option)")
        }
    }
}

/// `nlu qa ask --index`: answers over a document index, with document ids and offsets.
@Suite struct QAIndexCommandTests {
    @Test func askOverAnIndexNamesTheDocumentAndOffsets() throws {
        let directory = try TestScratch.folder("nlu-qa-index")
        let db = directory.appendingPathComponent("qa.db").path
        let texts = ["fox": "The quick brown fox jumps over the lethargic dog.",
                     "paris": "Paris is the capital of France and lies on the Seine."]
        let jsonl = texts.sorted { $0.key < $1.key }.map { #"{"id": "\#($0.key)", "text": "\#($0.value)"}"# }.joined(separator: "\n")
        let documents = directory.appendingPathComponent("docs.jsonl")
        try Data(jsonl.utf8).write(to: documents)
        #expect(try runNLU(["index", "create", db, "--model", "hashing:64"]).status == 0)
        #expect(try runNLU(["index", "add", db, documents.path]).status == 0)

        let run = try runNLU(["qa", "ask", "--index", db, "--model", QACommandTests.bert, "--question", "Who jumps over the dog?",
                              "--passages", "1", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let answer = try #require((object?["answers"] as? [[String: Any]])?.first)
        // One passage retrieved: the fox document; the offsets point at the answer in it.
        #expect(answer["document"] as? String == "fox")
        let text = try #require(texts["fox"])
        let start = try #require(answer["start"] as? Int), end = try #require(answer["end"] as? Int)
        #expect(String(String.UnicodeScalarView(Array(text.unicodeScalars)[start..<end])) == answer["answer"] as? String)

        let conflict = try runNLU(["qa", "ask", "--index", db, "--model", QACommandTests.bert, "--question", "Who?", "--context", "x"])
        #expect(conflict.status == 2 && conflict.stderr.contains("--index excludes"))
        let missing = try runNLU(["qa", "ask", "--index", directory.appendingPathComponent("none.db").path, "--model", QACommandTests.bert,
                                  "--question", "Who?"])
        #expect(missing.status == 1 && missing.stderr.contains("no such file"))
    }
}

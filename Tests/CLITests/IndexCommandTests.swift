import Foundation
import GRDB
import NLUTestSupport
import Testing

/// End-to-end tests of `nlu index create|add|delete|info|search`, bad inputs and a killed add included.
@Suite struct IndexCommandTests {
    func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let documents = """
        {"id": "faq-1", "text": "To reset your password, open Settings and choose Security.", "metadata": {"lang": "en"}}
        {"id": "faq-2", "text": "Invoices are emailed on the first day of each month.", "metadata": {"lang": "en"}}

        {"id": "faq-3", "text": "Pour changer le mot de passe, ouvrez les paramètres.", "metadata": {"lang": "fr"}}
        """

    /// A new index with the three FAQ documents and one Markdown note.
    func makeIndex(in directory: URL) throws -> String {
        let db = directory.appendingPathComponent("t.db").path
        let create = try runNLU(["index", "create", db, "--model", "hashing", "--chunk-size", "8", "--overlap", "2"])
        #expect(create.status == 0, "\(create.stderr)")
        // The index named as the DB argument gave it, as `add` names it (README's example shows it so).
        #expect(create.stdout.hasPrefix("created \(db): model hashing (dimension 384, revision 1), chunks of 8 words overlapping by 2"))
        let note = try write("Notes\n\nThe router lives in the basement closet.\n", "notes.md", in: directory)
        let add = try runNLU(["index", "add", db, try write(Self.documents, "docs.jsonl", in: directory), note])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("added 4 documents"))
        #expect(add.stderr.contains("writing documents: 4/4"))
        return db
    }

    @Test func createAddInfoSearchDelete() throws {
        let directory = try TestScratch.folder("nlu-index-cli")
        let db = try makeIndex(in: directory)
        let info = try runNLU(["index", "info", db, "--json"])
        #expect(info.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        // 9, 10, 9 and 8 words in chunks of 8 overlapping by 2: 2 + 2 + 2 + 1 chunks.
        #expect(object?["documents"] as? Int == 4 && object?["chunks"] as? Int == 7)
        #expect(object?["schemaVersion"] as? Int == 2)

        let search = try runNLU(["index", "search", db, "--mode", "keyword", "--k", "1", "--json"], input: "router basement\n\ninvoices\n")
        #expect(search.status == 0, "\(search.stderr)")
        let lines = search.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 2)
        #expect(lines.first??["query"] as? String == "router basement")
        let first = (lines.first??["results"] as? [[String: Any]])?.first
        #expect(first?["document"] as? String == directory.appendingPathComponent("notes.md").path)
        // The note is one chunk; its offsets point into the note's text.
        let note = "Notes\n\nThe router lives in the basement closet.\n"
        let scalars = Array(note.unicodeScalars)
        if let start = first?["start"] as? Int, let end = first?["end"] as? Int, let text = first?["text"] as? String {
            #expect(String(String.UnicodeScalarView(scalars[start..<end])) == text)
            #expect(text.contains("basement"))
        } else {
            Issue.record("no offsets in \(search.stdout)")
        }

        let filtered = try runNLU(["index", "search", db, "mot de passe password", "--filter", "lang=fr", "--mode", "hybrid"])
        #expect(filtered.status == 0, "\(filtered.stderr)")
        #expect(filtered.stdout.contains("faq-3 [0..<") && !filtered.stdout.contains("faq-1"))

        let delete = try runNLU(["index", "delete", db, "faq-2", "nope"])
        #expect(delete.status == 0)
        #expect(delete.stdout.contains("deleted 1 document from") && delete.stderr.contains("no document \"nope\""))
        let after = try runNLU(["index", "search", db, "invoices", "--mode", "keyword"])
        #expect(after.stdout.contains("(no results)"))
    }

    @Test func badInputIsReportedWithoutChangingTheIndex() throws {
        let directory = try TestScratch.folder("nlu-index-cli")
        let db = try makeIndex(in: directory)

        let malformed = try runNLU(["index", "add", db, try write("{\"id\": \"a\", \"text\": \"ok\"}\n{not json\n", "bad.jsonl", in: directory)])
        #expect(malformed.status == 1)
        #expect(malformed.stderr.contains("bad.jsonl line 2: not a JSON object"))

        let duplicate = try runNLU(["index", "add", db, try write("{\"id\": \"a\", \"text\": \"one\"}\n{\"id\": \"a\", \"text\": \"two\"}\n", "dup.jsonl", in: directory)])
        #expect(duplicate.status == 1)
        #expect(duplicate.stderr.contains("dup.jsonl line 2: the id \"a\" was already given at") && duplicate.stderr.contains("dup.jsonl line 1"))

        let empty = try runNLU(["index", "add", db, try write("{\"id\": \"e\", \"text\": \"  \"}\n", "empty.jsonl", in: directory)])
        #expect(empty.status == 1 && empty.stderr.contains("empty.jsonl line 1: the text of \"e\" is empty"))

        for k in ["0", "10001"] {
            let run = try runNLU(["index", "search", db, "router", "--k", k])
            #expect(run.status == 2 && run.stderr.contains("--top-k must be in 1...10000, got \(k)"))
        }
        for (arguments, message) in [(["--rrf-k", "-1"], "--rrf-k (the fusion constant k) must be a number ≥ 0, got -1"),
                                     (["--candidates", "0"], "--candidates (the candidate depth) must be in 1...10000, got 0"),
                                     (["--keyword-weight", "-2"], "--keyword-weight must be a number ≥ 0, got -2"),
                                     (["--keyword-weight", "0", "--vector-weight", "0"], "--keyword-weight and --vector-weight are both 0")] {
            let run = try runNLU(["index", "search", db, "router"] + arguments)
            #expect(run.status == 2 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let badFilter = try runNLU(["index", "search", db, "router", "--filter", "lang"])
        #expect(badFilter.status == 2 && badFilter.stderr.contains("key=value"))

        let notIndex = try runNLU(["index", "info", try write("hello", "plain.txt", in: directory)])
        #expect(notIndex.status == 1 && notIndex.stderr.contains("not an NLUKit index"))
        let exists = try runNLU(["index", "create", db, "--model", "hashing"])
        #expect(exists.status == 1 && exists.stderr.contains("something is already there"))
        let otherModel = try runNLU(["index", "search", db, "router", "--model", "hashing:128"])
        #expect(otherModel.status == 1 && otherModel.stderr.contains("dimension 384") && otherModel.stderr.contains("dimension 128"))

        let info = try runNLU(["index", "info", db, "--json"])
        #expect(info.stdout.contains("\"documents\":4"))
    }

    /// Each says what is wrong in the user's terms: the missing folder, the dangling link, the range
    /// of --model (a usage error, exit 2), the nesting limit, the line of the bad UTF-8.
    @Test func indexErrorsNameTheirCause() throws {
        let directory = try TestScratch.folder("nlu-index-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let missingFolder = try runNLU(["index", "create", "/nonexistent/x.db", "--model", "hashing"])
        #expect(missingFolder.status == 1 && missingFolder.stderr.contains("/nonexistent/x.db: the folder /nonexistent does not exist"),
                "\(missingFolder.stderr)")
        let link = directory.appendingPathComponent("link.db").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.appendingPathComponent("gone/t.db").path)
        let dangling = try runNLU(["index", "create", link, "--model", "hashing"])
        #expect(dangling.status == 1 && dangling.stderr.contains("\(link): a symbolic link to \(directory.path)/gone/t.db, which does not exist (a dangling link)"),
                "\(dangling.stderr)")
        for spec in ["hashing:0", "hashing:8193", "hashing:x"] {
            let run = try runNLU(["index", "create", directory.appendingPathComponent("m.db").path, "--model", spec])
            #expect(run.status == 2 && run.stderr.contains("--model: model \"\(spec)\": expected hashing:DIMENSION with a whole number from 1 to 8192"),
                    "\(spec): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("m.db").path))

        let db = try makeIndex(in: directory)
        let nested = String(repeating: "{\"a\": ", count: 5000) + "1" + String(repeating: "}", count: 5000)
        let deep = try runNLU(["index", "add", db, try write("{\"id\": \"d\", \"text\": \"deep\", \"metadata\": \(nested)}\n", "deep.jsonl", in: directory)])
        #expect(deep.status == 1 && deep.stderr.contains("deep.jsonl line 1: arrays and objects nest 5001 deep; at most 256 levels are accepted"),
                "\(deep.stderr)")
        let badUTF8 = directory.appendingPathComponent("badutf.jsonl")
        try (Data("{\"id\": \"a\", \"text\": \"fine\"}\n{\"id\": \"b\", \"text\": \"".utf8) + Data([0xC3, 0x28]) + Data("\"}\n".utf8)).write(to: badUTF8)
        let utf8 = try runNLU(["index", "add", db, badUTF8.path])
        #expect(utf8.status == 1 && utf8.stderr.contains("badutf.jsonl line 2: not valid UTF-8"), "\(utf8.stderr)")
    }

    /// A query whose vector is zero ("!!!": no term the hashing embedder knows) has no vector results;
    /// the user is told on stderr, and `--json` marks its line. Other queries carry no such mark.
    @Test func aZeroQueryVectorIsReported() throws {
        let directory = try TestScratch.folder("nlu-index-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try makeIndex(in: directory)
        let vector = try runNLU(["index", "search", db, "!!!", "--mode", "vector"])
        #expect(vector.status == 0 && vector.stdout == "(no results)\n")
        #expect(vector.stderr == "note: the query \"!!!\" has a zero vector (no term the model knows), so it has no vector results\n")
        let hybrid = try runNLU(["index", "search", db, "!!!"])
        #expect(hybrid.status == 0 && hybrid.stderr.contains("so it has no vector results; its hybrid results are its keyword results"))
        let keyword = try runNLU(["index", "search", db, "!!!", "--mode", "keyword"])
        #expect(keyword.status == 0 && keyword.stderr.isEmpty)

        let json = try runNLU(["index", "search", db, "--json", "--k", "1"], input: "!!!\nrouter basement\n")
        #expect(json.status == 0 && json.stderr.isEmpty, "\(json.stderr)")
        let lines = json.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 2)
        #expect(lines.first??["zeroQueryVector"] as? Bool == true && (lines.first??["results"] as? [Any])?.isEmpty == true)
        #expect(lines.last??["zeroQueryVector"] == nil && (lines.last??["results"] as? [Any])?.count == 1)

        let answer = try runNLU(["qa", "ask", "--index", db, "--model", QACommandTests.bert, "--question", "!!!", "--json"])
        #expect(answer.status == 0, "\(answer.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any]
        #expect(object?["zeroQueryVector"] as? Bool == true)
        let human = try runNLU(["qa", "ask", "--index", db, "--model", QACommandTests.bert, "--question", "!!!"])
        #expect(human.status == 0 && human.stderr.contains("note: the query \"!!!\" has a zero vector"), "\(human.stderr)")
        let ordinary = try runNLU(["qa", "ask", "--index", db, "--model", QACommandTests.bert, "--question", "Where is the router?", "--json"])
        #expect(ordinary.status == 0 && !ordinary.stdout.contains("zeroQueryVector") && !ordinary.stderr.contains("zero vector"), "\(ordinary.stderr)")
    }

    /// `index add -` reads standard input: JSONL lines, or with --id one plain-text document; with
    /// files in the same transaction. Bad input adds nothing and names standard input.
    @Test func addReadsStandardInput() throws {
        let directory = try TestScratch.folder("nlu-index-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try makeIndex(in: directory)
        let jsonl = try runNLU(["index", "add", db, "-"], input: #"{"id": "stdin-1", "text": "The printer jams on glossy paper.", "metadata": {"lang": "en"}}"# + "\n")
        #expect(jsonl.status == 0 && jsonl.stdout.contains("added 1 document to \(db); it holds 5 documents"), "\(jsonl.stderr)")
        let extra = try write(#"{"id": "file-1", "text": "The scanner sits next to the printer."}"#, "extra.jsonl", in: directory)
        let plain = try runNLU(["index", "add", db, extra, "-", "--id", "stdin-note"], input: "Wi-Fi password:\nit is on the router's label.\n")
        #expect(plain.status == 0 && plain.stdout.contains("added 2 documents"), "\(plain.stderr)")
        let search = try runNLU(["index", "search", db, "router label", "--mode", "keyword", "--k", "1", "--json"])
        #expect(search.stdout.contains(#""document":"stdin-note""#), "\(search.stdout)")
        #expect(try runNLU(["index", "search", db, "glossy", "--mode", "keyword", "--k", "1"]).stdout.contains("stdin-1 [0..<"))

        for (input, message) in [("", "standard input: no document (it is empty); expected JSONL lines"),
                                 ("\n  \n", "standard input: no document (it is empty)"),
                                 (#"{"text": "no id"}"#, #"standard input line 1: "id" must be a non-empty string"#),
                                 ("just some words", "standard input line 1: not a JSON object (expected {\"id\": ..., \"text\": ..., \"metadata\": {...}}); plain text is read as one document when its id is given"),
                                 (#"{"id": "x", "text": 5}"#, #"standard input line 1: "text" must be a string"#),
                                 (#"{"id": "file-1", "text": "again"}"#, #"the id "file-1" was already given at standard input line 1"#)] {
            let run = try runNLU(["index", "add", db, "-", extra], input: input)
            #expect(run.status == 1 && run.stderr.contains(message), "\(input): \(run.stderr)")
        }
        // The hint about plain text is for input that is not JSONL at all, not for a bad JSONL record.
        let badRecord = try runNLU(["index", "add", db, "-"], input: #"{"id": "x", "text": 5}"#)
        #expect(badRecord.status == 1 && !badRecord.stderr.contains("plain text"), "\(badRecord.stderr)")
        let emptyDocument = try runNLU(["index", "add", db, "-", "--id", "x"], input: " \n")
        #expect(emptyDocument.status == 1 && emptyDocument.stderr.contains("standard input: the document is empty"), "\(emptyDocument.stderr)")
        let badUTF8 = try runNLU(["index", "add", db, "-"], input: Data("{\"id\": \"a\", \"text\": \"ok\"}\n".utf8) + Data([0xC3, 0x28]), timeout: 60)
        #expect(badUTF8.status == 1 && badUTF8.stderr.contains("standard input line 2: not valid UTF-8"), "\(badUTF8.stderr)")
        for (arguments, message) in [(["-", "-"], "- (standard input) is given twice"),
                                     ([extra, "--id", "x"], "--id names the document read from standard input: give - among the files"),
                                     (["-", "--id", ""], "--id is empty")] {
            let run = try runNLU(["index", "add", db] + arguments, input: "text")
            #expect(run.status == 2 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        #expect(try runNLU(["index", "info", db, "--json"]).stdout.contains("\"documents\":7"))
    }

    /// Chunk offsets damaged in the file (a hand edit, a bad disk) are an error naming the file, the
    /// chunk and its document, exit 1: never results with offsets that cannot be sliced.
    @Test func damagedChunkOffsetsAreAnErrorNamingTheChunk() throws {
        let directory = try TestScratch.folder("nlu-index-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try makeIndex(in: directory)
        try DatabaseQueue(path: db).write { database in
            try database.execute(sql: "UPDATE chunks SET start = 5000000000, end = -7 WHERE document = (SELECT number FROM documents WHERE id = 'faq-1')")
        }
        for mode in ["keyword", "vector", "hybrid"] {
            let run = try runNLU(["index", "search", db, "reset your password", "--mode", mode, "--json"])
            #expect(run.status == 1 && run.stdout.isEmpty, "\(mode): \(run.stdout)")
            #expect(run.stderr.contains("\(db): the index is damaged: chunk ") && run.stderr.contains(" of \"faq-1\" has the offsets 5000000000..<-7"),
                    "\(mode): \(run.stderr)")
        }
        let answer = try runNLU(["qa", "ask", "--index", db, "--model", QACommandTests.bert, "--question", "How do I reset my password?"])
        #expect(answer.status == 1 && answer.stderr.contains("the index is damaged: chunk"), "\(answer.stderr)")
        // Other documents are still found.
        let other = try runNLU(["index", "search", db, "basement", "--mode", "keyword"])
        #expect(other.status == 0 && other.stdout.contains("notes.md [0..<"), "\(other.stderr)")
    }

    /// A child `nlu index add` killed with SIGKILL inside its write transaction leaves the index as it was.
    @Test func killedAddLeavesTheIndexAsBefore() throws {
        let directory = try TestScratch.folder("nlu-index-cli")
        let db = try makeIndex(in: directory)
        let before = try runNLU(["index", "search", db, "router password invoices", "--json", "--k", "8"])
        let lines = (0..<3000).map { #"{"id": "bulk-\#($0)", "text": "bulk document \#($0) about routers, invoices and passwords in the basement"}"# }
        let bulk = try write(lines.joined(separator: "\n"), "bulk.jsonl", in: directory)

        // Kill the child once it reports that its write transaction has begun.
        let (reason, seen) = try runNLUKilled(["index", "add", db, bulk], once: "writing documents: 0/")
        #expect(reason == .uncaughtSignal, "the add finished before it was killed: \(seen)")

        let info = try runNLU(["index", "info", db, "--json"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("\"documents\":4") && info.stdout.contains("\"chunks\":7"))
        let after = try runNLU(["index", "search", db, "router password invoices", "--json", "--k", "8"])
        #expect(after.stdout == before.stdout)
        // And the index still takes the add in full.
        let retry = try runNLU(["index", "add", db, bulk])
        #expect(retry.status == 0 && retry.stdout.contains("holds 3004 documents"))
    }
}

/// `nlu index` with a real sentence-transformers model directory: the committed tiny MiniLM-shaped
/// fixture, whose embeddings sentence-transformers 5.1.2 computed (Tests/Fixtures/embeddings/expected.json).
@Suite struct IndexSentenceModelTests {
    @Test func vectorScoresAreSentenceTransformersCosines() throws {
        let fixture = fixturesDirectory.appendingPathComponent("embeddings")
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.appendingPathComponent("expected.json"))) as? [String: Any]
        let texts = try #require(expected?["texts"] as? [String])
        let vectors = try #require(expected?["full"] as? [[Double]])
        let directory = try TestScratch.folder("nlu-index-st")
        let db = directory.appendingPathComponent("st.db").path
        // Texts of at most 12 words are one chunk each, so each chunk's vector is the text's.
        let chosen = texts.indices.filter { (1...12).contains(texts[$0].split(separator: " ").count) }
        let jsonl = try chosen.map { index -> String in
            let line = try JSONSerialization.data(withJSONObject: ["id": "t\(index)", "text": texts[index]], options: [.sortedKeys])
            return String(decoding: line, as: UTF8.self)
        }.joined(separator: "\n")
        let documents = directory.appendingPathComponent("texts.jsonl")
        try Data(jsonl.utf8).write(to: documents)
        #expect(try runNLU(["index", "create", db, "--model", fixture.appendingPathComponent("minilm-tiny").path]).status == 0)
        let add = try runNLU(["index", "add", db, documents.path])
        #expect(add.status == 0, "\(add.stderr)")

        let query = chosen[0]
        let run = try runNLU(["index", "search", db, texts[query], "--mode", "vector", "--k", "\(chosen.count)", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let results = try #require(object?["results"] as? [[String: Any]])
        #expect(results.count == chosen.count)
        func cosine(_ a: [Double], _ b: [Double]) -> Double {
            zip(a, b).map(*).reduce(0, +) / (a.map { $0 * $0 }.reduce(0, +) * b.map { $0 * $0 }.reduce(0, +)).squareRoot()
        }
        var previous = Double.infinity
        for result in results {
            let id = try #require(result["document"] as? String)
            let score = try #require(result["score"] as? Double)
            let reference = cosine(vectors[query], vectors[Int(id.dropFirst())!])
            #expect(abs(score - reference) < 1e-4, "\(id): \(score) vs sentence-transformers \(reference)")
            #expect(score <= previous + 1e-12)
            previous = score
        }
        #expect(results.first?["document"] as? String == "t\(query)")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUTestSupport
import Testing

/// End-to-end tests of `nlu embed`, `nlu similarity` and `nlu models list` on the tiny fixture
/// sentence-transformers model, against sentence-transformers' outputs (scripts/fixtures/embeddings.py).
@Suite struct EmbedCommandTests {
    static let model = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path

    struct Expected: Decodable {
        var texts: [String]
        var full: [[Float]]
        var unnormalized: [[Float]]
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: fixturesDirectory.appendingPathComponent("embeddings/expected.json")))
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        let dot = zip(a, b).map(*).reduce(0, +)
        return dot / (a.map { $0 * $0 }.reduce(0, +).squareRoot() * b.map { $0 * $0 }.reduce(0, +).squareRoot())
    }

    /// The non-blank fixture texts (the CLI refuses empty lines) with their reference rows.
    static func nonBlank(_ rows: [[Float]], _ expected: Expected) -> (texts: [String], rows: [[Float]]) {
        let kept = expected.texts.indices.filter { !expected.texts[$0].allSatisfy(\.isWhitespace) }
        return (kept.map { expected.texts[$0] }, kept.map { rows[$0] })
    }

    static func temporaryFile(_ contents: Data) throws -> URL {
        let url = TestScratch.file("nlukit-embed", extension: "txt")
        try contents.write(to: url)
        return url
    }

    @Test func jsonlOfStandardInputMatchesSentenceTransformersInOrder() throws {
        let expected = try Self.expected()
        let (texts, rows) = Self.nonBlank(expected.full, expected)
        let run = try runNLU(["embed", "--model", Self.model, "--batch-size", "4"], input: texts.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == texts.count)
        for (line, (text, row)) in zip(lines, zip(texts, rows)) {
            #expect(line.hasPrefix(#"{"text":"#))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["text"] as? String == text)
            let embedding = try #require(object["embedding"] as? [Double]).map(Float.init)
            #expect(Self.cosine(embedding, row) >= 0.99999)
        }
    }

    @Test func int8PrecisionStaysWithinTheStatedCosine() throws {
        let expected = try Self.expected()
        let (texts, rows) = Self.nonBlank(expected.full, expected)
        let run = try runNLU(["embed", "--model", Self.model, "--precision", "int8"], input: texts.joined(separator: "\n") + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == texts.count)
        for (line, row) in zip(lines, rows) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let embedding = try #require(object["embedding"] as? [Double]).map(Float.init)
            #expect(Self.cosine(embedding, row) >= 0.999)   // docs/int8.md; F32 is within 0.99999
        }
        let bad = try runNLU(["embed", "--model", Self.model, "--precision", "int4"], input: "hello\n")
        #expect(bad.status == 2 && bad.stderr.contains("int4"), "\(bad.stderr)")
    }

    @Test func npyFileHoldsTheMatrixAndTSVTheRows() throws {
        let expected = try Self.expected()
        let (texts, rows) = Self.nonBlank(expected.unnormalized, expected)
        let input = try Self.temporaryFile(Data(texts.joined(separator: "\n").utf8))
        let output = TestScratch.file("nlukit-embed", extension: "npy")
        defer { try? FileManager.default.removeItem(at: input); try? FileManager.default.removeItem(at: output) }
        let run = try runNLU(["embed", "--model", Self.model, "--input", input.path, "--format", "npy", "--no-normalize",
                              "--output", output.path])
        #expect(run.status == 0, "\(run.stderr)")
        let data = try Data(contentsOf: output)
        #expect(data.prefix(8) == Data([0x93]) + Data("NUMPY".utf8) + Data([1, 0]))
        let headerLength = Int(data[8]) | Int(data[9]) << 8
        #expect((10 + headerLength) % 64 == 0)
        let header = String(decoding: data[10..<(10 + headerLength)], as: UTF8.self)
        #expect(header.contains("'descr': '<f4'") && header.contains("'shape': (\(texts.count), 24)"))
        let floats = data[(10 + headerLength)...].withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(floats.count == texts.count * 24)
        for (index, row) in rows.enumerated() {
            #expect(Self.cosine(Array(floats[(index * 24)..<((index + 1) * 24)]), row) >= 0.99999)
        }

        let tsv = try runNLU(["embed", "--model", Self.model, "--format", "tsv", texts[0], texts[1]])
        let tsvRows = tsv.stdout.split(separator: "\n").map { $0.split(separator: "\t").compactMap { Float($0) } }
        #expect(tsvRows.count == 2 && tsvRows.allSatisfy { $0.count == 24 })
        #expect(Self.cosine(tsvRows[1], expected.full[1]) >= 0.99999)
    }

    /// Lines from a stream are embedded a window at a time (the embedder's sort window, 4,096 lines), each
    /// window written before the next is read: the embeddings of a first window arrive while standard input is
    /// still open, so memory stays bounded whatever the line count. A command that read its whole input
    /// first would write nothing until the input ends; the watchdog then stops it and the test fails.
    @Test func aStreamIsEmbeddedWindowByWindowBeforeItEnds() throws {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        try #require(pipe(&input) == 0 && pipe(&output) == 0)
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("nlu")
        process.arguments = ["embed", "--model", Self.model, "--format", "tsv"]
        process.standardInput = FileHandle(fileDescriptor: input[0], closeOnDealloc: false)
        process.standardOutput = FileHandle(fileDescriptor: output[1], closeOnDealloc: false)
        process.standardError = FileHandle.nullDevice
        try process.run()
        close(input[0])
        close(output[1])
        defer { close(output[0]) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300) { if process.isRunning { process.terminate() } }
        // One window of lines (61,440 bytes), written by a thread that blocks SIGPIPE for itself: a child that
        // died early makes the write fail (EPIPE) instead of ending the test process.
        let window = Array(String(repeating: "a line of text\n", count: 4096).utf8)
        let written = LockedCount()
        let inputEnd = input[1]
        let writer = Thread {
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            var offset = 0
            while offset < window.count {
                let count = window[offset...].withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                offset += count
            }
            written.set(offset)
        }
        writer.start()
        func readRows(until wanted: Int) -> Int {
            var rows = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while rows < wanted {
                let count = buffer.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                rows += buffer[..<count].filter { $0 == UInt8(ascii: "\n") }.count
            }
            return rows
        }
        // The writer flushes every 64 KiB: most of the window's 4,096 rows (about 250 bytes each) are out.
        let beforeTheEnd = readRows(until: 2048)
        #expect(beforeTheEnd >= 2048, "rows written before standard input ended: \(beforeTheEnd)")
        while written.value == nil { usleep(10_000) }   // the writer is done (it has written everything by now)
        #expect(written.value == window.count)
        close(input[1])
        let afterTheEnd = readRows(until: Int.max)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(beforeTheEnd + afterTheEnd == 4096)
    }

    @Test func queryRanksLinesByCosineWithTheReference() throws {
        let expected = try Self.expected()
        let (texts, rows) = Self.nonBlank(expected.full, expected)
        let input = try Self.temporaryFile(Data(texts.joined(separator: "\n").utf8))
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try runNLU(["embed", "--model", Self.model, "--query", texts[2], "--input", input.path, "--top", "3", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let results = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let scores = rows.map { Self.cosine(rows[2], $0) }   // the query is texts[2]
        let wanted = scores.indices.sorted { scores[$0] > scores[$1] }.prefix(3)
        #expect(results.map { $0["line"] as? Int } == wanted.map { $0 + 1 })
        #expect(results.map { $0["text"] as? String } == wanted.map { texts[$0] })
        for (result, index) in zip(results, wanted) {
            #expect(abs(Float(result["score"] as? Double ?? 9) - scores[index]) <= 1e-5)
        }
    }

    @Test func similarityPrintsTheReferenceCosine() throws {
        let expected = try Self.expected()
        let run = try runNLU(["similarity", "--model", Self.model, "--json", expected.texts[0], expected.texts[1]])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(abs(Float(object["similarity"] as? Double ?? 9) - Self.cosine(expected.full[0], expected.full[1])) <= 1e-5)
    }

    @Test func emptyLineAndInvalidUTF8AreNamedByLine() throws {
        let empty = try runNLU(["embed", "--model", Self.model], input: "one\n\nthree\n")
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("standard input line 2: empty"))
        let file = try Self.temporaryFile(Data("fine\nalso fine\n".utf8) + Data([0xFF, 0xFE, 0x0A]))
        defer { try? FileManager.default.removeItem(at: file) }
        let invalid = try runNLU(["embed", "--model", Self.model, "--input", file.path])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("\(file.path) line 3: not valid UTF-8"))
        #expect(invalid.stdout.isEmpty)
    }

    @Test func usageErrorsExitWithTwo() throws {
        for arguments in [["embed", "--model", Self.model, "--batch-size", "0", "x"],
                          ["embed", "--model", Self.model, "--query", " ", "x"],
                          ["embed", "--model", Self.model, "--input", "f", "x"],
                          ["embed", "--model", Self.model, "--top", "2", "x"],                          // --top without --query
                          ["embed", "--model", Self.model, "--query", "q", "--format", "tsv", "x"],     // --format with a ranking
                          ["similarity", "--model", Self.model, "only one"]] {
            let run = try runNLU(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
        }
    }

    /// `--normalize` with `--no-normalize` contradicts itself: a usage error naming both (the last
    /// one used to win silently). Either flag alone, or one given twice, still runs.
    @Test func normalizeAndNoNormalizeTogetherAreAUsageError() throws {
        for arguments in [["embed", "--model", Self.model, "--normalize", "--no-normalize", "x"],
                          ["similarity", "--model", Self.model, "--no-normalize", "a", "b", "--normalize"]] {
            let run = try runNLU(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("'--normalize'") && run.stderr.contains("'--no-normalize'"), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        let twice = try runNLU(["similarity", "--model", Self.model, "--no-normalize", "--no-normalize", "a", "b"])
        #expect(twice.status == 0, "\(twice.stderr)")
        let one = try runNLU(["embed", "--model", Self.model, "--no-normalize", "x"])
        #expect(one.status == 0, "\(one.stderr)")
    }

    /// A question-answering checkpoint where a sentence encoder is expected: the error says what it is.
    @Test func aQACheckpointIsNamedAsOne() throws {
        let run = try runNLU(["similarity", "--model", fixturesDirectory.appendingPathComponent("qa/distilbert-tiny").path, "a", "b"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("'qa_outputs.") && run.stderr.contains("a QA checkpoint, not a sentence encoder"), "\(run.stderr)")
    }

    @Test func hubIdsResolveThroughTheHuggingFaceCache() throws {
        let cache = try makeHubCache(holding: "acme/tiny-embedder", at: Self.model)
        defer { try? FileManager.default.removeItem(at: cache) }
        let commit = hubCacheCommit
        let environment = ["HF_HUB_CACHE": cache.path]

        let expected = try Self.expected()
        let found = try runNLU(["similarity", "--model", "acme/tiny-embedder", "--json", expected.texts[0], expected.texts[1]],
                               environment: environment)
        #expect(found.status == 0, "\(found.stderr)")

        let missing = try runNLU(["embed", "--model", "acme/other", "x"], environment: environment)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("acme/other: not a local directory, and not in the Hugging Face cache (\(cache.path))"))
        #expect(missing.stderr.contains("nlu models download acme/other"))

        let list = try runNLU(["models", "list", "--json"], environment: environment)
        #expect(list.status == 0)
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
        #expect(entry["id"] as? String == "acme/tiny-embedder")
        #expect(entry["snapshots"] as? [String] == [commit])
        #expect((entry["directory"] as? String)?.hasSuffix("snapshots/\(commit)") == true)
    }
}

/// A count one thread sets and another reads.
private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int?
    var value: Int? { lock.withLock { stored } }
    func set(_ value: Int) { lock.withLock { stored = value } }
}

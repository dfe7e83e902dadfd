#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUCore
import NLUTestSupport
import Testing

/// `kill -9` at seeded random moments of every command that writes: afterwards the destination
/// holds the old content or the complete new one, never a mix. SIGKILL leaves no chance to clean
/// up, so a `NAME.tmp-PID-*` temporary may stay behind; the next write to the same destination
/// removes it (checked after a complete run). SQLite indexes rely on SQLite's own journal.
@Suite(.serialized) struct KillCommandTests {
    static let sample = IntentsCommandTests.sample
    static let corpus = SafeOutputCommandTests.corpus
    static let qa = QACommandTests.bert
    static let embedder = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path
    static let lm = fixturesDirectory.appendingPathComponent("lm/lstm-1.nlumodel").path

    /// Starts `nlu arguments`, kills it with SIGKILL after `delay` seconds (if still running), and waits.
    @discardableResult
    func killed(_ arguments: [String], after delay: TimeInterval) throws -> Bool {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("nlu")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        usleep(useconds_t(delay * 1_000_000))
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return wasRunning
    }

    /// The regular files under `url` (a file or a package folder), by relative path.
    func contents(_ url: URL) throws -> [String: Data] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [:] }
        guard isDirectory.boolValue else { return ["": try Data(contentsOf: url)] }
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
            result[name] = try Data(contentsOf: url.appendingPathComponent(name))
        }
        return result
    }

    /// `files` with each manifest's measured durations and speeds blanked, for comparing: two complete runs of the
    /// same training write the same weights but not the same seconds, and on a fast machine a run can finish
    /// before the kill.
    static func comparable(_ files: [String: Data]) -> [String: Data] {
        files.mapValues { withoutTimings($0) }
    }

    static func withoutTimings(_ manifest: Data) -> Data {
        guard var text = String(data: manifest, encoding: .utf8) else { return manifest }
        for key in ["seconds", "tokensPerSecond", "trainingSeconds", "secondsPerEpoch"] {
            text = text.replacingOccurrences(of: #"(\\?"\#(key)\\?"\s*:\s*)[-+0-9.eE]+"#, with: "$1#",
                                             options: .regularExpression)
        }
        return Data(text.utf8)
    }

    func temporaries(beside url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(url.lastPathComponent + ".tmp-") }
    }

    /// One writer under test: the command that writes `destination`, and how long a run about takes.
    struct Writer {
        var name: String
        var arguments: [String]
        var destination: URL
        var duration: TimeInterval
    }

    /// Kills each writer three times at seeded delays; after each kill the destination is the old
    /// content or the new (what an uninterrupted run writes); then an uninterrupted run leaves no temporary.
    func check(_ writer: Writer, seed: UInt64) throws {
        let old = try contents(writer.destination)
        // What an uninterrupted run writes, on a copy of the destination's folder layout.
        #expect(try runNLU(writer.arguments).status == 0, "\(writer.name): the uninterrupted run fails")
        let new = try contents(writer.destination)
        #expect(new != old, "\(writer.name): the run should change the destination")
        var generator = SplitMix64(seed: seed)
        for attempt in 0..<3 {
            try restore(old, at: writer.destination)
            let delay = Double.random(in: 0.02...writer.duration, using: &generator)
            try killed(writer.arguments, after: delay)
            let after = try contents(writer.destination)
            #expect(Self.comparable(after) == Self.comparable(old) || Self.comparable(after) == Self.comparable(new),
                    "\(writer.name) killed after \(String(format: "%.2f", delay)) s (attempt \(attempt)): neither the old nor the new content (\(after.keys.sorted()))")
        }
        #expect(try runNLU(writer.arguments).status == 0)
        #expect(try temporaries(beside: writer.destination).isEmpty, "\(writer.name): temporaries left after a complete run")
    }

    /// Puts `files` back at `url` (the "old" state before each kill).
    func restore(_ files: [String: Data], at url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        if files.isEmpty { return }
        if let data = files[""] { try data.write(to: url); return }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        for (name, data) in files { try data.write(to: url.appendingPathComponent(name)) }
    }

    @Test func killedTrainingKeepsTheOldModelOrTheNewOne() throws {
        let work = try TestScratch.folder("nlu-kill")
        defer { try? FileManager.default.removeItem(at: work) }
        let intents = work.appendingPathComponent("intents.nlumodel")
        #expect(try runNLU(["intents", "train", Self.sample, "-o", intents.path, "--epochs", "1", "--hidden", "4"]).status == 0)
        try check(Writer(name: "intents train", arguments: ["intents", "train", Self.sample, "-o", intents.path, "--epochs", "3", "--hidden", "16"],
                         destination: intents, duration: 1.5), seed: 1)
        let lm = work.appendingPathComponent("lm.nlumodel")
        #expect(try runNLU(["lm", "train", Self.corpus, "-o", lm.path] + SafeOutputCommandTests.tinyLM).status == 0)
        try check(Writer(name: "lm train", arguments: ["lm", "train", Self.corpus, "-o", lm.path, "--epochs", "3", "--hidden", "16",
                                                      "--embedding", "8", "--layers", "1", "--sequence-length", "8"],
                         destination: lm, duration: 1.5), seed: 2)
        // Checkpoints of an interrupted run sit beside the model (resumable); a complete run removes them.
        #expect(!FileManager.default.fileExists(atPath: lm.path + ".partial"))
    }

    @Test func killedFileWritersKeepTheOldFileOrTheNewOne() throws {
        let work = try TestScratch.folder("nlu-kill")
        defer { try? FileManager.default.removeItem(at: work) }
        func file(_ name: String, _ text: String) throws -> URL {
            let url = work.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url
        }
        let questions = try file("questions.jsonl", String(repeating: #"{"id": 1, "question": "Who jumped?", "context": "The quick brown fox jumps over the lethargic dog."}"# + "\n", count: 40))
        let texts = try file("texts.txt", String(repeating: "a short text to embed\nand another one\n", count: 40))
        let writers = [
            // The old dataset is one an earlier import wrote: `-o` replaces nothing else.
            Writer(name: "intents import", arguments: ["intents", "import", Self.sample, "-o",
                                                       try file("dataset.json", #"{"format": "nlukit-intents", "version": 1, "intents": []}"#).path],
                   destination: work.appendingPathComponent("dataset.json"), duration: 0.4),
            // Each old file is one the same command wrote (its record shape): --output replaces nothing else.
            Writer(name: "qa ask --output", arguments: ["qa", "ask", "--model", Self.qa, "--input", questions.path, "--output",
                                                        try file("answers.jsonl", #"{"id": 0, "answers": []}"# + "\n").path],
                   destination: work.appendingPathComponent("answers.jsonl"), duration: 0.8),
            Writer(name: "embed --output", arguments: ["embed", "--model", Self.embedder, "--input", texts.path, "--output",
                                                      try file("vectors.jsonl", #"{"text": "old", "embedding": [0.5, 0.25]}"# + "\n").path],
                   destination: work.appendingPathComponent("vectors.jsonl"), duration: 0.8),
            Writer(name: "lm predict --state-out", arguments: ["lm", "predict", "--model", Self.lm, "--state-out",
                                                              try file("state.json", #"{"shape": [1], "values": [0]}"#).path, "the", "cat"],
                   destination: work.appendingPathComponent("state.json"), duration: 0.3),
        ]
        for (index, writer) in writers.enumerated() { try check(writer, seed: UInt64(10 + index)) }
    }

    @Test func killedIndexWritesKeepAnIndexThatOpensWithTheOldOrNewDocuments() throws {
        let work = try TestScratch.folder("nlu-kill")
        defer { try? FileManager.default.removeItem(at: work) }
        let documents = work.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        for index in 0..<30 {
            try Data("Document \(index): the keeper of lighthouse \(index) walks north along the cape every evening.".utf8)
                .write(to: documents.appendingPathComponent("doc\(index).txt"))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: documents.path).sorted().map { documents.appendingPathComponent($0).path }
        func documentCount(_ index: URL) throws -> Int? {
            let run = try runNLU(["index", "info", index.path, "--json"])
            guard run.status == 0, let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] else { return nil }
            return object["documents"] as? Int
        }
        var generator = SplitMix64(seed: 20)
        for attempt in 0..<3 {
            // create: nothing, or a complete (empty) index; a stray temporary is swept by the next create beside it.
            let created = work.appendingPathComponent("created.db")
            try? FileManager.default.removeItem(at: created)
            try killed(["index", "create", created.path, "--model", Self.embedder], after: Double.random(in: 0.02...0.5, using: &generator))
            if FileManager.default.fileExists(atPath: created.path) { #expect(try documentCount(created) == 0) }
            // add and delete: SQLite transactions; the index opens with the old or the new documents.
            let index = work.appendingPathComponent("index-\(attempt).db")
            #expect(try runNLU(["index", "create", index.path, "--model", Self.embedder]).status == 0)
            #expect(try runNLU(["index", "add", index.path] + files.prefix(10)).status == 0)
            try killed(["index", "add", index.path] + files.dropFirst(10), after: Double.random(in: 0.05...1.5, using: &generator))
            let afterAdd = try documentCount(index)
            #expect(afterAdd == 10 || afterAdd == 30, "index add killed (attempt \(attempt)): \(String(describing: afterAdd)) documents")
            try killed(["index", "delete", index.path, files[0], files[1]], after: Double.random(in: 0.02...0.4, using: &generator))
            let afterDelete = try documentCount(index)
            #expect(afterDelete.map { [afterAdd, (afterAdd ?? 0) - 2].contains($0) } == true,
                    "index delete killed (attempt \(attempt)): \(String(describing: afterDelete)) documents")
        }
        let last = work.appendingPathComponent("created.db")
        try? FileManager.default.removeItem(at: last)
        #expect(try runNLU(["index", "create", last.path, "--model", Self.embedder]).status == 0)
        let strays = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { $0.contains(".tmp-") }
        #expect(strays.isEmpty, "temporaries of killed creates are swept by the next create: \(strays)")
    }
}

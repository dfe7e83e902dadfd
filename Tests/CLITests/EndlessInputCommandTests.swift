#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUTestSupport
import Testing

/// Every reader of a file or stream, given an endless one, fails within seconds and well under 1 GB of
/// memory, with an error naming the input and the limit. Each run is a child `nlu` under a memory limit
/// (`ulimit -v`), so that a reader that reads without a bound fails by running out of memory rather than
/// taking the test machine's gigabytes; before the bound, `/dev/zero` grew every one of them past 8 GB in
/// about 10 s.
@Suite(.serialized) struct EndlessInputCommandTests {
    static let qaModel = fixturesDirectory.appendingPathComponent("qa/bert-tiny").path
    static let embeddingModel = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path
    static let vocabulary = fixturesDirectory.appendingPathComponent("tokenizer/vocab-uncased.txt").path
    static let coreMLModel = fixturesDirectory.appendingPathComponent("coreml/dense_classifier.mlmodel").path
    static let dialogue = fixturesDirectory.appendingPathComponent("dialogue/watson-car-dashboard/car_workspace.json").path

    /// The commands, each reading `/dev/zero` as its input (whole, or as lines, one of which never ends).
    static let commands: [[String]] = [
        ["intents", "import", "/dev/zero", "-o", "OUT/dataset.json"],
        ["intents", "train", "/dev/zero", "-o", "OUT/model.nlumodel"],
        ["intents", "evaluate", "/dev/zero", "--folds", "2"],
        ["lm", "train", "/dev/zero", "-o", "OUT/lm.nlumodel"],
        ["lm", "perplexity", "--model", "OUT/lm.nlumodel", "/dev/zero"],
        ["tokenize", "--vocab", vocabulary, "--file", "/dev/zero"],
        ["entities", "extract", "--file", "/dev/zero"],
        ["qa", "ask", "--model", qaModel, "--question", "who?", "--context-file", "/dev/zero"],
        ["qa", "ask", "--model", qaModel, "--input", "/dev/zero"],
        ["qa", "evaluate", "--model", qaModel, "--squad", "/dev/zero"],
        ["embed", "--model", embeddingModel, "--input", "/dev/zero"],
        ["coreml", "predict", coreMLModel, "--input", "@/dev/zero"],
        // A model read from a stream (a pipe, a FIFO, a device) instead of a file.
        ["coreml", "info", "/dev/zero"],
        // A document named like one (`index add` takes .jsonl, .txt and .md files) that is a link to /dev/zero.
        ["index", "add", "OUT/index.db", "OUT/zero.txt"],
        // Scripted conversations: a transcript, and Rasa test stories (a .yml link to /dev/zero).
        ["dialogue", "chat", dialogue, "--test", "/dev/zero"],
        ["dialogue", "chat", dialogue, "--test", "OUT/zero.yml"],
        // The benchmarks' own tool reads its inputs the same way (BenchmarkInput).
        ["nlu-bench", "embeddings", "--model", embeddingModel, "--input", "/dev/zero", "--vectors", "OUT/vectors.bin"],
    ]

    /// Runs `nlu arguments` (`nlu-bench` when that is the first argument) under a limit of `megabytes` of address space (the Swift runtime, the binary and the
    /// threads' stacks take about 400 MB of it before any input), killed after `timeout` seconds.
    func runUnderMemoryLimit(_ arguments: [String], megabytes: Int, timeout: TimeInterval) throws -> BoundedRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let (tool, rest) = arguments.first == "nlu-bench" ? ("nlu-bench", Array(arguments.dropFirst())) : ("nlu", arguments)
        process.arguments = ["-c", "ulimit -v \(megabytes * 1024) && exec \"$0\" \"$@\"",
                             productsDirectory.appendingPathComponent(tool).path] + rest
        // One thread: the kernels' pool would reserve stacks and buffers the limit is not about.
        process.environment = ProcessInfo.processInfo.environment.merging(["NLUKIT_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"]) { $1 }
        let files = try StandardFiles(input: Data())
        defer { files.remove() }
        process.standardInput = try FileHandle(forReadingFrom: files.input)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: files.error)
        try process.run()
        let timedOut = LockedFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            if process.isRunning { timedOut.set(); kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return BoundedRun(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                          timedOut: timedOut.value, stderr: String(decoding: try Data(contentsOf: files.error), as: UTF8.self))
    }

    @Test(arguments: commands)
    func anEndlessInputFailsFastWithinTheMemoryLimit(command: [String]) throws {
        let folder = try TestScratch.folder("nlu-endless")
        defer { try? FileManager.default.removeItem(at: folder) }
        if command.contains("OUT/lm.nlumodel"), command[1] == "perplexity" {
            let trained = try runNLU(["lm", "train", fixturesDirectory.appendingPathComponent("../../Samples/lm/garden.txt").path,
                                      "-o", folder.appendingPathComponent("lm.nlumodel").path, "--epochs", "1", "--hidden", "8",
                                      "--embedding", "8", "--layers", "1"])
            try #require(trained.status == 0, "\(trained.stderr)")
        }
        if command.contains("OUT/index.db") {
            try #require(try runNLU(["index", "create", folder.appendingPathComponent("index.db").path, "--model", "hashing"]).status == 0)
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.txt").path, withDestinationPath: "/dev/zero")
        }
        if command.contains("OUT/zero.yml") {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.yml").path, withDestinationPath: "/dev/zero")
        }
        let arguments = command.map { $0.replacingOccurrences(of: "OUT/", with: folder.path + "/") }
        let run = try runUnderMemoryLimit(arguments, megabytes: 1_400, timeout: 60)
        #expect(!run.timedOut && !run.signaled, "\(command): \(run.stderr)")
        #expect(run.status == 1, "\(command): \(run.stderr)")
        // How to raise the limit, in the program's own terms: `nlu`'s option, `nlu-bench`'s variable (it has no option).
        let bench = command.first == "nlu-bench"
        #expect((run.stderr.contains("/dev/zero") || run.stderr.contains("zero.txt") || run.stderr.contains("zero.yml")) && run.stderr.contains("256 MiB")
                    && run.stderr.contains(bench ? "with NLUKIT_MAX_INPUT_SIZE" : "with --max-input-size") && !(bench && run.stderr.contains("--max-input-size")),
                "\(command): \(run.stderr)")
    }

    /// The limit moves with the option and the variable; a size that is no size is a usage error.
    @Test func theLimitIsSetByOptionOrEnvironment() throws {
        let folder = try TestScratch.folder("nlu-limit")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("lines.txt")
        try Data((String(repeating: "x", count: 3_000) + "\nshort line\n").utf8).write(to: text)

        let refused = try runNLU(["tokenize", "--vocab", Self.vocabulary, "--file", text.path, "--max-input-size", "2K"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(text.path) line 1: more than 2 KiB; a line may hold at most 2 KiB"), "\(refused.stderr)")
        let byVariable = try runNLU(["entities", "extract", "--file", text.path], environment: ["NLUKIT_MAX_INPUT_SIZE": "2K"])
        #expect(byVariable.status == 1 && byVariable.stderr.contains("line 1: more than 2 KiB"), "\(byVariable.stderr)")
        let raised = try runNLU(["tokenize", "--vocab", Self.vocabulary, "--file", text.path, "--max-input-size", "4K"])
        #expect(raised.status == 0, "\(raised.stderr)")

        let whole = try runNLU(["qa", "ask", "--model", Self.qaModel, "--question", "who?", "--context-file", text.path,
                                "--max-input-size", "1K"])
        #expect(whole.status == 1)
        #expect(whole.stderr.contains("\(text.path): 2.9 KiB (3012 bytes); an input is read whole up to 1 KiB"), "\(whole.stderr)")

        for bad in ["0", "12Q", "-5M", "65G", "1"] {
            let usage = try runNLU(["tokenize", "--vocab", Self.vocabulary, "--max-input-size", bad, "hello"])
            #expect(usage.status == 2 && usage.stderr.contains("--max-input-size"), "\(bad): \(usage.stderr)")
        }
        let badVariable = try runNLU(["tokenize", "--vocab", Self.vocabulary, "hello"], environment: ["NLUKIT_MAX_INPUT_SIZE": "lots"])
        #expect(badVariable.status == 2 && badVariable.stderr.contains("NLUKIT_MAX_INPUT_SIZE"), "\(badVariable.stderr)")
    }

    /// Line-oriented commands that answer line by line stream: a long input of short lines is answered in full,
    /// past the whole-input limit, one line held at a time.
    @Test func answeringLineByLineStreamsPastTheWholeInputLimit() throws {
        let folder = try TestScratch.folder("nlu-stream")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("lines.txt")
        try Data(String(repeating: "pay 5 dollars\n", count: 500).utf8).write(to: text)  // 7,000 bytes
        let run = try runNLU(["entities", "extract", "--types", "currency", "--json", "--file", text.path, "--max-input-size", "2K"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 500)
        // embed streams too (a window of lines at a time), npy included: its header's row count comes from a first pass.
        for format in ["jsonl", "npy"] {
            let output = folder.appendingPathComponent("embeddings.\(format)")
            let embedded = try runNLU(["embed", "--model", Self.embeddingModel, "--input", text.path, "--max-input-size", "2K",
                                       "--format", format, "-o", output.path])
            #expect(embedded.status == 0, "\(format): \(embedded.stderr)")
            let written = try Data(contentsOf: output)
            if format == "npy" {
                #expect(String(decoding: written.prefix(128), as: UTF8.self).contains("'shape': (500, 24)"))
                #expect(written.count == 128 + 500 * 24 * 4)
            } else {
                #expect(written.split(separator: UInt8(ascii: "\n")).count == 500)
            }
        }
    }
}

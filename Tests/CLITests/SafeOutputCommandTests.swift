#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUTestSupport
import Testing

/// `nlu` never destroys what it did not write, and never loses its output silently.
@Suite struct SafeOutputCommandTests {
    static let sample = IntentsCommandTests.sample
    static let corpus = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/lm/garden.txt").path
    static let tinyLM = ["--epochs", "1", "--hidden", "8", "--embedding", "4", "--layers", "1", "--sequence-length", "8"]

    @Test func trainingRefusesAFolderAFileOrItsOwnInput() throws {
        let directory = try TestScratch.folder("nlu-safe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("v")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try Data("x\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        for command in [["intents", "train", Self.sample, "--epochs", "1"], ["lm", "train", Self.corpus] + Self.tinyLM] {
            let run = try runNLU(command + ["-o", folder.path])
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.stderr.contains("holds a folder that is not a model package (1 entry: notes.txt)"), "\(run.stderr)")
            #expect(try String(contentsOf: folder.appendingPathComponent("notes.txt"), encoding: .utf8) == "x\n")
            let empty = try runNLU(command + ["-o", ""])
            #expect(empty.status == 2 && empty.stderr.contains("--output is empty"), "\(empty.stderr)")
        }
        let dataset = directory.appendingPathComponent("ds.json")
        try FileManager.default.copyItem(atPath: Self.sample, toPath: dataset.path)
        let corpus = directory.appendingPathComponent("c.txt")
        try FileManager.default.copyItem(atPath: Self.corpus, toPath: corpus.path)
        for (command, input) in [(["intents", "train"], dataset), (["lm", "train"], corpus)] {
            let before = try Data(contentsOf: input)
            let run = try runNLU(command + [input.path, "-o", input.path])
            #expect(run.status == 1 && run.stderr.contains("is also an input"), "\(run.stderr)")
            #expect(try Data(contentsOf: input) == before)
        }
    }

    /// A folder that is missing or cannot be written was found only when the model was saved, after
    /// all the training. Now it is refused before any: the run prints no epoch. (/proc stands in for a
    /// read-only mount: even root cannot create a file there.)
    @Test func anOutputFolderThatCannotBeWrittenIsRefusedBeforeTraining() throws {
        let missing = TestScratch.file("nlu-missing").appendingPathComponent("m.nlumodel").path
        var outputs = [(missing, "does not exist")]
        #if os(Linux)
        outputs.append(("/proc/nlu-m.nlumodel", "cannot write in the folder /proc"))
        #endif
        for (output, reason) in outputs {
            for command in [["intents", "train", Self.sample, "--epochs", "50"], ["lm", "train", Self.corpus] + Self.tinyLM] {
                let run = try runNLU(command + ["-o", output])
                #expect(run.status == 1 && run.stderr.contains(reason) && !run.stderr.lowercased().contains("epoch"), "\(command): \(run.stderr)")
            }
        }
    }

    @Test func aModelOfAnotherKindNeedsForceAndADivergingRunKeepsTheOldModel() throws {
        let directory = try TestScratch.folder("nlu-safe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("m.nlumodel").path
        #expect(try runNLU(["intents", "train", Self.sample, "-o", model, "--epochs", "2", "--hidden", "16"]).status == 0)
        let weights = try Data(contentsOf: URL(fileURLWithPath: model).appendingPathComponent("weights.safetensors"))

        let diverged = try runNLU(["intents", "train", Self.sample, "-o", model, "--epochs", "2", "--learning-rate", "1e30"])
        #expect(diverged.status == 1 && diverged.stderr.contains("training diverged"), "\(diverged.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: model).appendingPathComponent("weights.safetensors")) == weights)

        let refused = try runNLU(["lm", "train", Self.corpus, "-o", model] + Self.tinyLM)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("kind 'intent-classifier', not 'language-model'") && refused.stderr.contains("--force"))
        let forced = try runNLU(["lm", "train", Self.corpus, "-o", model, "--force"] + Self.tinyLM)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try runNLU(["lm", "generate", "--model", model, "--max-tokens", "3"]).status == 0)
    }

    @Test func importWritesThroughALinkAndNamesAMissingFolder() throws {
        let directory = try TestScratch.folder("nlu-safe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.json")
        let run = try runNLU(["intents", "import", Self.sample, "-o", link.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == "real.json")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("real.json").path))

        let missing = try runNLU(["intents", "import", Self.sample, "-o", directory.appendingPathComponent("no/x.json").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("the folder \(directory.appendingPathComponent("no").path) does not exist"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("NSCocoaErrorDomain"))
    }

    /// Runs `nlu` with its standard output on `output` (a device or a pipe's write end).
    /// Standard input comes from the file `input`: a pipe could break when `nlu` stops reading early.
    func run(_ arguments: [String], stdout output: FileHandle, input: URL, closeReader: (() -> Void)? = nil) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("nlu")
        process.arguments = arguments
        let stderr = Pipe()
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = output
        process.standardError = stderr
        try process.run()
        closeReader?()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    @Test func aFullDiskIsAnErrorAndAClosedPipeEndsQuietly() throws {
        let directory = try TestScratch.folder("nlu-safe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("m.nlumodel").path
        #expect(try runNLU(["intents", "train", Self.sample, "-o", model, "--epochs", "1", "--hidden", "16"]).status == 0)
        let lines = directory.appendingPathComponent("lines.txt")
        try Data(String(repeating: "turn on the lights\n", count: 20_000).utf8).write(to: lines)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let (status, message) = try run(["intents", "predict", "--model", model], stdout: full, input: lines)
        #expect(status == 1 && message.contains("cannot write standard output: No space left on device"), "\(message)")

        let pipe = Pipe()
        let (closedStatus, closedMessage) = try run(["intents", "predict", "--model", model], stdout: pipe.fileHandleForWriting,
                                                    input: lines) { try? pipe.fileHandleForReading.close() }
        #expect(closedStatus == 0 && closedMessage.isEmpty, "\(closedStatus) \(closedMessage)")
    }

    @Test func embeddingCommandsReportAFullDisk() throws {
        let directory = try TestScratch.folder("nlu-safe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path
        let lines = directory.appendingPathComponent("lines.txt")
        try Data("hello\nworld\n".utf8).write(to: lines)
        for arguments in [["similarity", "--model", model, "a b", "a c"],
                          ["embed", "--model", model, "--format", "npy", "--input", lines.path],
                          ["embed", "--model", model, "--input", lines.path]] {
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            let (status, message) = try run(arguments, stdout: full, input: lines)
            #expect(status == 1 && message.contains("cannot write standard output: No space left on device"),
                    "\(arguments): \(status) \(message)")
        }
    }

    @Test func sigtermDuringLanguageModelTrainingLeavesTheOldModelAndNoTemporary() throws {
        let directory = try TestScratch.folder("nlu-safe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("m.nlumodel")
        #expect(try runNLU(["lm", "train", Self.corpus, "-o", model.path] + Self.tinyLM).status == 0)
        let weights = try Data(contentsOf: model.appendingPathComponent("weights.safetensors"))
        // Epochs of a few milliseconds: checkpoints are saved all the time, so signals land mid-save too.
        for delay in [0.4, 0.8, 1.2, 1.6] {
            let process = Process()
            process.executableURL = productsDirectory.appendingPathComponent("nlu")
            process.arguments = ["lm", "train", Self.corpus, "-o", model.path, "--epochs", "100000", "--hidden", "8",
                                 "--embedding", "4", "--layers", "1", "--sequence-length", "8"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            process.terminate()
            process.waitUntilExit()
            let status = process.terminationStatus
            #expect(process.terminationReason == .uncaughtSignal ? status == SIGTERM : status == 128 + SIGTERM, "\(status)")
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!names.contains { $0.contains(".tmp-") }, "\(names)")
            #expect(try Data(contentsOf: model.appendingPathComponent("weights.safetensors")) == weights)
        }
    }
}

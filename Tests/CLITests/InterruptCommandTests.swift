#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// Ctrl-C (SIGINT) during training says what was kept and how to go on: `intents train` stops after its epoch
/// and saves the best epoch so far (it lost every epoch before); `lm train` ends at once and names the checkpoint
/// and `--resume`.
@Suite struct InterruptCommandTests {
    /// Starts `nlu arguments`, reads its standard error until it holds `marker`, sends SIGINT, and waits (at most
    /// 60 s) for the end: how it ended and everything it wrote on standard error.
    func interrupt(_ arguments: [String], once marker: String) throws -> (status: Int32, signaled: Bool, stderr: String) {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("nlu")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = ""
        while !seen.contains(marker) {
            let data = errors.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        kill(process.processIdentifier, SIGINT)
        let killer = DispatchWorkItem { kill(process.processIdentifier, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
        seen += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        killer.cancel()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal, seen)
    }

    @Test func intentsTrainSavesTheBestEpochSoFar() throws {
        let folder = try makeWorkDirectory("nlu-interrupt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("car.nlumodel").path
        // Far more epochs than it would take, and no early stop: only the interrupt ends it.
        let run = try interrupt(["intents", "train", IntentsCommandTests.sample, "-o", model, "--epochs", "100000",
                                 "--patience", "100000"], once: "epoch 3:")
        #expect(!run.signaled && run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("stopping: the best epoch so far will be saved to \(model) (interrupt again to stop at once)"),
                "\(run.stderr)")
        #expect(run.stderr.contains("Error: interrupted after epoch ") && run.stderr.contains("\(model) holds the best epoch so far"),
                "\(run.stderr)")
        let predicted = try runNLU(["intents", "predict", "--model", model, "--json", "turn the radio on"])
        #expect(predicted.status == 0 && predicted.stdout.contains("\"turn_on\""), "\(predicted.stderr)")
    }

    @Test func lmTrainNamesTheCheckpointAndResume() throws {
        let folder = try makeWorkDirectory("nlu-interrupt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("garden.nlumodel").path
        let run = try interrupt(["lm", "train", LanguageModelCommandTests.corpus, "-o", model, "--epochs", "100000",
                                 "--layers", "1", "--hidden", "16", "--embedding", "8", "--batch-size", "8",
                                 "--sequence-length", "10"], once: "checkpoint saved")
        #expect(run.signaled && run.status == SIGINT, "\(run.stderr)")
        #expect(run.stderr.contains("interrupted: \(model) holds the epochs done so far; continue with the same command and --resume -o \(model)"),
                "\(run.stderr)")
        let resumed = try runNLU(["lm", "train", LanguageModelCommandTests.corpus, "-o", model, "--resume", "--epochs", "10",
                                  "--batch-size", "8", "--sequence-length", "10"])
        #expect(resumed.status == 0 && resumed.stderr.contains("resuming after epoch"), "\(resumed.stderr)")
    }
}

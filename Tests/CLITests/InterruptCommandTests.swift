#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUTestSupport
import Testing

/// Ctrl-C (SIGINT) during training says what was kept and how to go on: `intents train` stops after its epoch
/// and saves the best epoch so far (it lost every epoch before); `lm train` ends at once and names the checkpoint
/// and `--resume`.
@Suite struct InterruptCommandTests {
    /// Runs `nlu arguments` and sends SIGINT once its standard error holds `marker`.
    func interrupt(_ arguments: [String], once marker: String) throws -> (status: Int32, signaled: Bool, stderr: String) {
        let run = try runNLUSignalled(arguments, once: marker, with: SIGINT)
        return (run.status, run.reason == .uncaughtSignal, run.stderr)
    }

    @Test func intentsTrainSavesTheBestEpochSoFar() throws {
        let folder = try TestScratch.folder("nlu-interrupt")
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
        let folder = try TestScratch.folder("nlu-interrupt")
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

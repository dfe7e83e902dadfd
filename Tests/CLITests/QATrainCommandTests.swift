import Foundation
import NLUTestSupport
import Testing

/// `nlu qa train` end to end on the tiny random checkpoint `qa/bert-tiny` and the generated SQuAD 2.0 file
/// `qa/squad-train.json` (scripts/fixtures/qa_finetune.py), with windows of 32 tokens: a few steps, then
/// the result answers through `qa ask` and `qa evaluate`.
@Suite struct QATrainCommandTests {
    static let bert = fixturesDirectory.appendingPathComponent("qa/bert-tiny").path
    static let squad = fixturesDirectory.appendingPathComponent("qa/squad-train.json").path
    static let window = ["--max-length", "32", "--doc-stride", "10"]

    static func train(_ output: String, _ extra: [String] = []) throws -> NLURun {
        try runNLU(["qa", "train", "--squad", squad, "--model", bert, "-o", output, "--batch-size", "32", "--epochs", "1"] + window + extra)
    }

    @Test func trainsThenAsksAndEvaluatesTheResult() throws {
        let work = try TestScratch.folder("nlu-qa-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        let run = try Self.train(output, ["--json", "--learning-rate", "1e-3"])
        #expect(run.status == 0, "\(run.stderr)")
        // The two answers that are not at their answer_start are named, as run_qa's warning would.
        #expect(run.stderr.contains("warning: skipped 2 questions") && run.stderr.contains("mismatch-1, mismatch-2"), "\(run.stderr)")
        #expect(run.stderr.contains("training on 26 questions (1 without answer), 203 windows"), "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(summary["steps"] as? Int == 7 && summary["windows"] as? Int == 203)
        #expect(summary["skipped"] as? [String] == ["mismatch-1", "mismatch-2"])

        let ask = try runNLU(["qa", "ask", "--model", output, "--question", "who met the scientist?",
                              "--context", "the queen met the scientist in the office of the president.", "--json"])
        #expect(ask.status == 0 && ask.stdout.contains("\"answers\""), "\(ask.stderr)")
        let evaluate = try runNLU(["qa", "evaluate", "--model", output, "--squad", Self.squad, "--json"])
        #expect(evaluate.status == 0, "\(evaluate.stderr)")
        let scores = try #require(try JSONSerialization.jsonObject(with: Data(evaluate.stdout.utf8)) as? [String: Any])
        #expect(scores["count"] as? Int == 28)

        // Training again over the folder it wrote replaces it.
        let again = try Self.train(output, ["--seed", "7"])
        #expect(again.status == 0 && again.stdout.hasPrefix("saved \(output): 7 steps on 203 windows"), "\(again.stdout) \(again.stderr)")
    }

    /// --validation-file: the questions answered and scored after the epoch (a line on stderr, the scores in the
    /// JSON summary); a broken validation file is an error naming it, before anything is written; both files on
    /// standard input is a usage error.
    @Test func validationFileIsScoredAfterEachEpoch() throws {
        let work = try TestScratch.folder("nlu-qa-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        let run = try Self.train(output, ["--validation-file", Self.squad, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("validation: 28 questions of ") && run.stderr.contains("epoch 1 validation: exact match ")
                && run.stderr.contains(" over 28 questions"), "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let validation = try #require(summary["validation"] as? [String: Any], "\(run.stdout)")
        #expect(validation["epoch"] as? Int == 1 && validation["questions"] as? Int == 28 && validation["f1"] is Double, "\(validation)")

        let broken = work.appendingPathComponent("broken.json")
        try Data("{\"version\": \"v2.0\", \"data\": [".utf8).write(to: broken)
        let refused = try Self.train(work.appendingPathComponent("other").path, ["--validation-file", broken.path])
        #expect(refused.status == 1 && refused.stderr.contains("broken.json"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("other").path))
        let stdin = try runNLU(["qa", "train", "--squad", "-", "--model", Self.bert, "-o", output, "--validation-file", "-"])
        #expect(stdin.status == 2 && stdin.stderr.contains("both read standard input"), "\(stdin.stderr)")
    }

    /// --keep-best f1 writes the epoch with the best F1 on --validation-file (marked "*", named in the summary);
    /// --early-stopping 1 ends the run after the first epoch that does not improve. Out of place: usage errors.
    @Test func keepBestWritesTheBestEpoch() throws {
        let work = try TestScratch.folder("nlu-qa-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        let run = try runNLU(["qa", "train", "--squad", Self.squad, "--model", Self.bert, "-o", output, "--batch-size", "32", "--epochs", "4",
                              "--learning-rate", "1e-2", "--validation-file", Self.squad, "--keep-best", "f1", "--early-stopping", "1", "--json"]
                             + Self.window)
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let kept = try #require(summary["kept_epoch"] as? Int, "\(run.stdout)"), trained = try #require(summary["trained_epochs"] as? Int)
        #expect(trained == kept + 1 && (summary["validation"] as? [String: Any])?["epoch"] as? Int == kept, "\(run.stdout)")
        #expect(run.stderr.contains(" over 28 questions *\n")
                && run.stderr.contains("early stopping: 1 epoch without a better f1 since epoch \(kept); the run ends here"), "\(run.stderr)")
        let evaluate = try runNLU(["qa", "evaluate", "--model", output, "--squad", Self.squad, "--json", "--max-seq-length", "32", "--doc-stride", "10"])
        let scores = try #require(try JSONSerialization.jsonObject(with: Data(evaluate.stdout.utf8)) as? [String: Any], "\(evaluate.stderr)")
        #expect(scores["f1"] as? Double == (summary["validation"] as? [String: Any])?["f1"] as? Double, "\(scores) against \(summary)")

        for (flags, message) in [(["--keep-best", "f1"], "--keep-best needs --validation-file FILE"),
                                 (["--validation-file", Self.squad, "--early-stopping", "2"], "--early-stopping needs --keep-best SCORE"),
                                 (["--validation-file", Self.squad, "--keep-best", "f1", "--early-stopping", "0"],
                                  "--early-stopping is 0: it must be between 1 and 1000 epochs"),
                                 (["--validation-file", Self.squad, "--keep-best", "accuracy"], "--keep-best")] {
            let refused = try Self.train(work.appendingPathComponent("x").path, flags)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(flags): \(refused.stderr)")
        }
    }

    @Test func strictRefusesTheFileNamingTheQuestions() throws {
        let work = try TestScratch.folder("nlu-qa-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        let run = try Self.train(output, ["--strict"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("squad-train.json: 2 answers' text is not the context's at answer_start (questions 'mismatch-1', 'mismatch-2')"),
                "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func badOptionsAreUsageErrorsNamingTheFlag() throws {
        let never = TestScratch.file("never").path
        let stride = try runNLU(["qa", "train", "--squad", Self.squad, "--model", Self.bert, "-o", never, "--max-length", "32", "--doc-stride", "32"])
        #expect(stride.status == 2 && stride.stderr.contains("--doc-stride is 32"), "\(stride.stderr)")
        let rate = try runNLU(["qa", "train", "--squad", Self.squad, "--model", Self.bert, "-o", never, "--learning-rate", "1e30"])
        #expect(rate.status == 2 && rate.stderr.contains("--learning-rate"), "\(rate.stderr)")
        let positions = try runNLU(["qa", "train", "--squad", Self.squad, "--model", Self.bert, "-o", never, "--max-length", "600"])
        #expect(positions.status == 2 && positions.stderr.contains("--max-length is 600: it must be at most the checkpoint's 512 positions"),
                "\(positions.stderr)")
    }

    @Test func aVersion1QuestionWithoutAnswerIsAnErrorNamingIt() throws {
        let work = try TestScratch.folder("nlu-qa-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("v1.json")
        try Data(#"{"version": "1.1", "data": [{"paragraphs": [{"context": "the fox", "qas": [{"id": "q7", "question": "who?", "answers": []}]}]}]}"#.utf8)
            .write(to: file)
        let run = try runNLU(["qa", "train", "--squad", file.path, "--model", Self.bert, "-o", work.appendingPathComponent("out").path])
        #expect(run.status == 1 && run.stderr.contains("v1.json: question 'q7' has no answer"), "\(run.stderr)")
    }

    /// A folder holding anything but an earlier save is refused before training, and kept.
    @Test func aFolderOfOtherFilesIsRefusedAndKept() throws {
        let work = try TestScratch.folder("nlu-qa-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let notes = work.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: notes)
        let run = try Self.train(work.path)
        #expect(run.status == 1 && !run.stderr.contains("training on"), "\(run.stderr)")
        #expect(FileManager.default.contents(atPath: notes.path) == Data("keep".utf8))
    }

    /// Ctrl-C during training ends the run and leaves the earlier checkpoint at -o byte for byte (the run
    /// with another seed would have written other weights).
    @Test func interruptLeavesTheOldOutputWhole() throws {
        let work = try TestScratch.folder("nlu-qa-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        #expect(try Self.train(output).status == 0)
        let weights = work.appendingPathComponent("tuned/model.safetensors").path
        let before = FileManager.default.contents(atPath: weights)
        let run = try runNLUSignalled(["qa", "train", "--squad", Self.squad, "--model", Self.bert, "-o", output, "--epochs", "300",
                                       "--seed", "9"] + Self.window, once: "step 1/", with: SIGINT)
        #expect(run.reason == .uncaughtSignal || run.status != 0)
        #expect(run.stderr.contains("interrupted: nothing was saved"), "\(run.stderr)")
        #expect(FileManager.default.contents(atPath: weights) == before)
        let entries = try FileManager.default.contentsOfDirectory(atPath: work.path)
        #expect(entries == ["tuned"], "temporaries left: \(entries)")
    }
}

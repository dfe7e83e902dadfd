import Foundation
import NLUTestSupport
import Testing

/// End-to-end tests of `nlu embed train` on the tiny sentence-transformers fixture (sentence-tiny:
/// the minilm-tiny encoder, mean pooling, Normalize): the folder it writes loads in `nlu embed`, bad
/// input is refused by name, an interrupted run keeps its checkpoint and `--resume` finishes it.
@Suite struct EmbedTrainCommandTests {
    static let model = fixturesDirectory.appendingPathComponent("training/sentence-tiny").path
    static let words = ["art", "book", "bridge", "castle", "city", "dog", "door", "forest", "fox", "friend", "game", "girl",
                        "farmer", "father", "doctor", "captain", "car", "child", "company", "country"]

    /// `count` anchor/positive pairs of distinct texts from the fixture's vocabulary.
    static func pairsFile(count: Int, in folder: URL) throws -> String {
        var lines: [String] = []
        for index in 0..<count {
            let a = words[index % words.count], b = words[(index * 7 + 3) % words.count]
            lines.append(#"{"anchor": "the \#(a) and the \#(b) \#(index)", "positive": "a \#(b) by a \#(a) \#(index)"}"#)
        }
        let url = folder.appendingPathComponent("pairs-\(count).jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    @Test func trainsAModelThatEmbedLoads() throws {
        let work = try TestScratch.folder("nlukit-embed-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        let run = try runNLU(["embed", "train", Self.model, "--pairs", try Self.pairsFile(count: 24, in: work), "-o", output,
                              "--epochs", "2", "--batch-size", "8", "--learning-rate", "1e-3"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("training on 24 examples with MultipleNegativesRankingLoss, 6 steps"), "\(run.stderr)")
        #expect(run.stderr.contains("epoch 2/2  step 6/6  loss "), "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Saved \(output): 6 steps"), "\(run.stdout)")
        for file in ["modules.json", "1_Pooling/config.json", "config.json", "model.safetensors", "tokenizer.json"] {
            #expect(FileManager.default.fileExists(atPath: output + "/" + file), "\(file)")
        }
        // The finished model carries no resume state.
        #expect(!FileManager.default.fileExists(atPath: output + "/nlu_training_state.json"))
        let before = try runNLU(["embed", "--model", Self.model, "the dog and the fox"])
        let after = try runNLU(["embed", "--model", output, "the dog and the fox"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout != before.stdout)

        // Training again over it replaces it; --json prints a line per step and epoch.
        let again = try runNLU(["embed", "train", Self.model, "--pairs", try Self.pairsFile(count: 24, in: work), "-o", output,
                                "--batch-size", "8", "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let lines = again.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.filter { $0["event"] as? String == "step" }.count == 3)
        #expect(lines.last?["event"] as? String == "saved")
        #expect(!FileManager.default.fileExists(atPath: output + ".partial"))
    }

    /// --validation-file: a line per epoch (accuracy@1 and MRR@10 for anchor/positive pairs, Spearman and
    /// Pearson for scored pairs), a JSON line with --json and the last scores in the saved line; a broken
    /// validation line is an error naming the file and line, before training.
    @Test func validationFileIsScoredAfterEachEpoch() throws {
        let work = try TestScratch.folder("nlukit-embed-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        let pairs = try Self.pairsFile(count: 24, in: work)
        let ranked = try runNLU(["embed", "train", Self.model, "--pairs", pairs, "-o", output, "--epochs", "2", "--batch-size", "8",
                                 "--validation-file", try Self.pairsFile(count: 10, in: work)])
        #expect(ranked.status == 0, "\(ranked.stderr)")
        for epoch in 1...2 {
            #expect(ranked.stderr.contains("epoch \(epoch) validation: accuracy@1 ") && ranked.stderr.contains(" over 10 anchors"), "\(ranked.stderr)")
        }
        let scored = work.appendingPathComponent("sts.jsonl")
        try Data(Self.words.prefix(6).enumerated().map { index, word in
            #"{"sentence1": "the \#(word)", "sentence2": "a \#(Self.words[index + 6])", "score": \#(Double(index) / 5)}"#
        }.joined(separator: "\n").utf8).write(to: scored)
        let json = try runNLU(["embed", "train", Self.model, "--pairs", pairs, "-o", output, "--batch-size", "8", "--validation-file", scored.path,
                               "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let lines = json.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let validation = try #require(lines.first { $0["event"] as? String == "validation" }?["validation"] as? [String: Any])
        #expect(validation["pairs"] as? Int == 6 && validation["spearman"] is Double && validation["accuracyAt1"] == nil, "\(validation)")
        #expect(lines.last?["validation"] is [String: Any], "\(json.stdout)")

        let broken = work.appendingPathComponent("broken.jsonl")
        try Data(#"{"anchor": "a", "positive": "b"}\#n{"anchor": "c"}\#n"#.utf8).write(to: broken)
        let refused = try runNLU(["embed", "train", Self.model, "--pairs", pairs, "-o", work.appendingPathComponent("other").path,
                                  "--validation-file", broken.path])
        #expect(refused.status == 1 && refused.stderr.contains("broken.jsonl line 2"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("other").path))
    }

    /// --keep-best SCORE writes the epoch with the best score (marked "*", named in the saved line) and
    /// --early-stopping N ends the run N epochs after it; a score of the other pair shape is an error naming
    /// the file; the flags out of place are usage errors.
    @Test func keepBestWritesTheBestEpoch() throws {
        let work = try TestScratch.folder("nlukit-embed-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        let pairs = try Self.pairsFile(count: 24, in: work)
        let scored = work.appendingPathComponent("sts.jsonl")
        try Data(Self.words.prefix(6).enumerated().map { index, word in
            #"{"sentence1": "the \#(word)", "sentence2": "a \#(Self.words[index + 6])", "score": \#(Double(index % 3) / 2)}"#
        }.joined(separator: "\n").utf8).write(to: scored)
        let common = ["embed", "train", Self.model, "--pairs", pairs, "-o", output, "--epochs", "4", "--batch-size", "8", "--learning-rate", "1e-3",
                      "--validation-file", scored.path, "--keep-best", "spearman", "--early-stopping", "1"]
        let json = try runNLU(common + ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let lines = json.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let saved = try #require(lines.last)
        let kept = try #require(saved["keptEpoch"] as? Int, "\(json.stdout)"), trained = try #require(saved["trainedEpochs"] as? Int)
        #expect(trained == kept + 1 || (trained == 4 && kept == 4), "kept \(kept) of \(trained)")
        #expect((saved["validation"] as? [String: Any])?["epoch"] as? Int == kept && (saved["validation"] as? [String: Any])?["isBest"] as? Bool == true)
        let text = try runNLU(common)
        #expect(text.status == 0 && text.stdout.contains("kept epoch \(kept) of \(trained) trained, best spearman on the validation file: "),
                "\(text.stdout) \(text.stderr)")
        #expect(text.stderr.contains(" pairs *\n"), "\(text.stderr)")

        let ranked = try runNLU(["embed", "train", Self.model, "--pairs", pairs, "-o", work.appendingPathComponent("r").path,
                                 "--validation-file", scored.path, "--keep-best", "accuracy-at-1"])
        #expect(ranked.status == 1 && ranked.stderr.contains("sts.jsonl") && ranked.stderr.contains("anchor/positive"), "\(ranked.stderr)")
        for (flags, message) in [(["--keep-best", "spearman"], "--keep-best needs --validation-file FILE or --validation-split F"),
                                 (["--validation-file", scored.path, "--early-stopping", "2"], "--early-stopping needs --keep-best SCORE"),
                                 (["--validation-file", scored.path, "--keep-best", "spearman", "--early-stopping", "0"],
                                  "--early-stopping is 0: it must be between 1 and 1000 epochs")] {
            let refused = try runNLU(["embed", "train", Self.model, "--pairs", pairs, "-o", work.appendingPathComponent("x").path] + flags)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(flags): \(refused.stderr)")
        }
    }

    /// --validation-split F: that share of the pairs is held out of training and scored after each epoch, as a
    /// validation file of their shape would be; with a validation file or out of range, a usage error.
    @Test func validationSplitHoldsOutAShareOfThePairs() throws {
        let work = try TestScratch.folder("nlukit-embed-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        let pairs = try Self.pairsFile(count: 24, in: work)
        let run = try runNLU(["embed", "train", Self.model, "--pairs", pairs, "-o", output, "--epochs", "2", "--batch-size", "8",
                              "--validation-split", "0.25", "--keep-best", "mrr-at-10"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("validation: 6 of the 24 pairs held out (--validation-split 0.25), scored after each epoch")
                && run.stderr.contains("training on 18 examples with MultipleNegativesRankingLoss, 6 steps")
                && run.stderr.contains("epoch 2 validation: accuracy@1 ") && run.stderr.contains(" over 6 anchors"), "\(run.stderr)")
        #expect(run.stdout.contains("best mrr-at-10 on the held-out pairs: "), "\(run.stdout)")
        for (flags, message) in [(["--validation-split", "0.2", "--validation-file", pairs], "give one"),
                                 (["--validation-split", "0.6"], "--validation-split is 0.6: it must be above 0 and at most 0.5")] {
            let refused = try runNLU(["embed", "train", Self.model, "--pairs", pairs, "-o", work.appendingPathComponent("x").path] + flags)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(flags): \(refused.stderr)")
        }
        let one = work.appendingPathComponent("one.jsonl")
        try Data(#"{"sentence1": "a", "sentence2": "b", "score": 0.5}"#.utf8).write(to: one)
        let tooFew = try runNLU(["embed", "train", Self.model, "--pairs", one.path, "-o", work.appendingPathComponent("y").path,
                                 "--validation-split", "0.5"])
        #expect(tooFew.status == 1 && tooFew.stderr.contains("one.jsonl: --validation-split 0.5 of 1 pair"), "\(tooFew.stderr)")
    }

    @Test func badInputIsRefusedByName() throws {
        let work = try TestScratch.folder("nlukit-embed-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("out").path
        let broken = work.appendingPathComponent("broken.jsonl")
        try Data("{\"anchor\": \"a dog\", \"positive\": \"the dog\"}\n{\"anchor\": \"a cat\", \"positive\": \n".utf8).write(to: broken)
        let brokenRun = try runNLU(["embed", "train", Self.model, "--pairs", broken.path, "-o", output])
        #expect(brokenRun.status == 1 && brokenRun.stderr.contains("broken.jsonl line 2"), "\(brokenRun.stderr)")

        let one = try runNLU(["embed", "train", Self.model, "--pairs", try Self.pairsFile(count: 1, in: work), "-o", output])
        #expect(one.status == 1 && one.stderr.contains("needs at least 2 examples in a batch"), "\(one.stderr)")

        for rate in ["0", "nan", "1e30"] {
            let run = try runNLU(["embed", "train", Self.model, "--pairs", try Self.pairsFile(count: 4, in: work), "-o", output,
                                  "--learning-rate", rate])
            #expect(run.status == 2 && run.stderr.contains("--learning-rate"), "\(rate): \(run.stderr)")
        }
        let cosine = try runNLU(["embed", "train", Self.model, "--pairs", try Self.pairsFile(count: 4, in: work), "-o", output, "--loss", "cosine"])
        #expect(cosine.status == 1 && cosine.stderr.contains("the cosine loss takes scored pairs"), "\(cosine.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        // A folder nlu did not write is left alone.
        let notes = work.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: notes.appendingPathComponent("todo.txt"))
        let refused = try runNLU(["embed", "train", Self.model, "--pairs", try Self.pairsFile(count: 4, in: work), "-o", notes.path])
        #expect(refused.status == 1 && refused.stderr.contains("not a fine-tuned model NLUKit saved"), "\(refused.stderr)")
        #expect(try String(contentsOf: notes.appendingPathComponent("todo.txt"), encoding: .utf8) == "mine")

        // Nothing to resume in a finished model.
        let finished = work.appendingPathComponent("finished").path
        #expect(try runNLU(["embed", "train", Self.model, "--pairs", try Self.pairsFile(count: 4, in: work), "-o", finished]).status == 0)
        let resume = try runNLU(["embed", "train", Self.model, "--pairs", try Self.pairsFile(count: 4, in: work), "-o", finished, "--resume"])
        #expect(resume.status == 1 && resume.stderr.contains("holds no checkpoint"), "\(resume.stderr)")
    }

    /// Ctrl-C after the first epoch: the checkpoint stays whole and the message says how to continue;
    /// --resume finishes the run, and refuses other pairs or another model.
    @Test func interruptedRunResumesFromItsCheckpoint() throws {
        let work = try TestScratch.folder("nlukit-embed-train")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("tuned").path
        let pairs = try Self.pairsFile(count: 64, in: work)
        let command = ["embed", "train", Self.model, "--pairs", pairs, "-o", output, "--epochs", "200", "--batch-size", "8"]
        let interrupted = try runNLUSignalled(command, once: "epoch 1 done", with: SIGINT)
        #expect(interrupted.status != 0)
        #expect(interrupted.stderr.contains("continue with the same command, --resume and -o \(output)"), "\(interrupted.stderr)")
        #expect(FileManager.default.fileExists(atPath: output + "/nlu_training_state.json"))
        #expect(try runNLU(["embed", "--model", output, "the dog"]).status == 0)

        let otherPairs = try runNLU(["embed", "train", Self.model, "--pairs", try Self.pairsFile(count: 63, in: work), "-o", output,
                                     "--epochs", "200", "--batch-size", "8", "--resume"])
        #expect(otherPairs.status == 1 && otherPairs.stderr.contains("trained on other pairs"), "\(otherPairs.stderr)")
        let otherModel = work.appendingPathComponent("other-model")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.model), to: otherModel)
        var config = try String(contentsOf: otherModel.appendingPathComponent("config.json"), encoding: .utf8)
        config = config.replacingOccurrences(of: "\"hidden_act\"", with: " \"hidden_act\"")
        try Data(config.utf8).write(to: otherModel.appendingPathComponent("config.json"))
        let otherModelRun = try runNLU(["embed", "train", otherModel.path, "--pairs", pairs, "-o", output, "--epochs", "200",
                                        "--batch-size", "8", "--resume"])
        #expect(otherModelRun.status == 1 && otherModelRun.stderr.contains("trained from another model"), "\(otherModelRun.stderr)")
        let otherSettings = try runNLU(command + ["--resume", "--seed", "7"])
        #expect(otherSettings.status == 1 && otherSettings.stderr.contains("settings.seed: 42 in the checkpoint, 7 in this run"), "\(otherSettings.stderr)")

        let resumed = try runNLU(command + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("; resuming after epoch"), "\(resumed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output + "/nlu_training_state.json"))
    }
}

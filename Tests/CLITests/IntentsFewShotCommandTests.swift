import Foundation
import NLUTestSupport
import Testing

/// `nlu intents train --fine-tune MODEL --few-shot` and `--calibration-split`: few-shot training in
/// SetFit's way chosen by the default rule on a small dataset, its calibrated package used by predict
/// (f32 and int8) and evaluate (out-of-scope recall and AUROC), and the flags' bad uses refused.
@Suite struct IntentsFewShotCommandTests {
    static let tinyEncoder = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path

    /// Six intents of the car dashboard sample, eight utterances each, and eight of its counterexamples,
    /// as an NLUKit dataset in `work` (`examples` and `counterexamples` pick other ones, into `name`).
    static func fewShotDataset(in work: URL, examples: Range<Int> = 0..<8, counterexamples kept: Range<Int> = 0..<8,
                               name: String = "few.json") throws -> String {
        let sample = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Samples/intents/car-dashboard.json")
        let workspace = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sample)) as? [String: Any])
        let intents = try #require(workspace["intents"] as? [[String: Any]]).prefix(6).map { intent -> [String: Any] in
            let all = intent["examples"] as? [[String: Any]] ?? []
            let examples = all[min(examples.lowerBound, all.count) ..< min(examples.upperBound, all.count)]
            return ["name": intent["intent"] ?? "", "utterances": examples.map { ["text": $0["text"] ?? ""] }]
        }
        let allCounterexamples = workspace["counterexamples"] as? [[String: Any]] ?? []
        let counterexamples = allCounterexamples[min(kept.lowerBound, allCounterexamples.count) ..< min(kept.upperBound, allCounterexamples.count)]
            .map { ["text": $0["text"] ?? ""] }
        let dataset: [String: Any] = ["format": "nlukit-intents", "version": 1, "intents": intents, "counterexamples": counterexamples]
        let path = work.appendingPathComponent(name)
        try JSONSerialization.data(withJSONObject: dataset).write(to: path)
        return path.path
    }

    @Test func fewShotIsTheDefaultForSmallDataAndItsCalibratedPackageIsUsed() throws {
        let work = try TestScratch.folder("nlu-intents-fs")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try Self.fewShotDataset(in: work)
        let model = work.appendingPathComponent("few.nlumodel").path
        let train = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--setfit-iterations", "3",
                                "--learning-rate", "5e-3", "--calibration-split", "0.25", "--no-entities", "--json"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stderr.contains("few-shot training (SetFit)"), "\(train.stderr)")
        #expect(train.stderr.contains("\"stage\":\"contrastive\"") && train.stderr.contains("\"stage\":\"head-selection\"")
                && train.stderr.contains("\"stage\":\"head\""), "\(train.stderr)")
        // The summary counts the encoder's optimizer steps, not the head's fits or iterations.
        let lastContrastive = try #require(train.stderr.split(separator: "\n").last { $0.contains("\"stage\":\"contrastive\"") })
        let encoderSteps = (try JSONSerialization.jsonObject(with: Data(lastContrastive.utf8)) as? [String: Any])?["steps"] as? Int
        let summary = try JSONSerialization.jsonObject(with: Data(train.stdout.utf8)) as? [String: Any]
        #expect(encoderSteps != nil && summary?["steps"] as? Int == encoderSteps, "\(train.stdout)")
        #expect(train.stderr.contains("calibrated on 14 held-out utterances"), "\(train.stderr)")   // 6 × 2 + 2 counterexamples
        // The contrastive stage's epoch was checkpointed; the checkpoint goes once the package is saved.
        #expect(train.stderr.contains("checkpoint saved after epoch 1"), "\(train.stderr)")
        #expect(!FileManager.default.fileExists(atPath: model + ".checkpoint"))
        #expect(train.stdout.contains("\"fewShot\":true") && train.stdout.contains("\"temperature\":"), "\(train.stdout)")
        let manifest = try String(contentsOfFile: model + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"fewShot\"") && manifest.contains("\"temperature\"") && manifest.contains("\"normalized\"")
                && manifest.contains("\"bagOfWords\" : true"))

        for precision in ["f32", "int8"] {
            let predict = try runNLU(["intents", "predict", "-m", model, "--precision", precision, "--json", "turn the radio on"])
            #expect(predict.status == 0, "\(predict.stderr)")
            #expect(predict.stdout.contains("\"confidence\""))
        }
        let evaluate = try runNLU(["intents", "evaluate", "-m", model, data, "--json"])
        #expect(evaluate.status == 0, "\(evaluate.stderr)")
        #expect(evaluate.stdout.contains("\"outOfScopeAUROC\"") && evaluate.stdout.contains("\"outOfScopeRecall\""), "\(evaluate.stdout)")
        let table = try runNLU(["intents", "evaluate", "-m", model, data])
        #expect(table.stdout.contains("AUROC:"), "\(table.stdout)")
    }

    /// --calibration-file: the confidences calibrated on another file's utterances, the training data whole.
    @Test func calibrationFileCalibratesOnItsUtterances() throws {
        let work = try TestScratch.folder("nlu-intents-cal")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try Self.fewShotDataset(in: work)
        let development = try Self.fewShotDataset(in: work, examples: 8..<10, counterexamples: 8..<11, name: "dev.json")
        let model = work.appendingPathComponent("few.nlumodel").path
        let train = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--setfit-iterations", "3",
                                "--learning-rate", "5e-3", "--calibration-file", development, "--no-entities", "--json"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stderr.contains("calibration: 12 utterances and 3 counterexamples from \(development)"), "\(train.stderr)")
        #expect(train.stderr.contains("on 6 intents, 48 utterances, 8 counterexamples"), "\(train.stderr)")   // nothing held out
        #expect(train.stderr.contains("calibrated on 15 held-out utterances"), "\(train.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(train.stdout.utf8)) as? [String: Any])
        #expect(summary["temperature"] is Double && summary["threshold"] is Double, "\(train.stdout)")
        let manifest = try String(contentsOfFile: model + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"temperature\""), "\(manifest)")

        let both = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--calibration-split", "0.25",
                               "--calibration-file", development])
        #expect(both.status == 2 && both.stderr.contains("give one"), "\(both.stderr)")
        let withoutFineTune = try runNLU(["intents", "train", data, "-o", model, "--calibration-file", development])
        #expect(withoutFineTune.status == 2 && withoutFineTune.stderr.contains("--calibration-file") && withoutFineTune.stderr.contains("apply to --fine-tune"),
                "\(withoutFineTune.stderr)")
        let missing = work.appendingPathComponent("missing.json").path
        let absent = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--calibration-file", missing])
        #expect(absent.status == 1 && absent.stderr.contains(missing), "\(absent.stderr)")
        let strangers = work.appendingPathComponent("strangers.json")
        try Data(#"{"format": "nlukit-intents", "intents": [{"name": "greet", "utterances": [{"text": "hello"}]}]}"#.utf8).write(to: strangers)
        let unrelated = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--calibration-file", strangers.path])
        #expect(unrelated.status == 1 && unrelated.stderr.contains(strangers.path) && unrelated.stderr.contains("greet"), "\(unrelated.stderr)")
        // The refused runs left the first package as it was.
        #expect(try String(contentsOfFile: model + "/manifest.json", encoding: .utf8) == manifest)
    }

    /// --few-shot with held-out utterances: a head fitted after each contrastive epoch scores them, and
    /// --keep-best keeps the best epoch's encoder (the package's head is that epoch's).
    @Test func fewShotScoresEachEpochAndKeepsTheBest() throws {
        let work = try TestScratch.folder("nlu-intents-fs-val")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try Self.fewShotDataset(in: work)
        let model = work.appendingPathComponent("few.nlumodel").path
        let train = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--few-shot", "--setfit-iterations", "3",
                                "--learning-rate", "5e-3", "--epochs", "2", "--validation-split", "0.25", "--keep-best", "loss", "--no-entities"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stderr.contains("validation: 14 utterances held out of the training data"), "\(train.stderr)")   // 6 × 2 + 2
        #expect(train.stderr.contains("epoch 1/2 validation: intents ") && train.stderr.contains("epoch 2/2 validation: intents ")
                && train.stderr.contains(" *\n"), "\(train.stderr)")
        #expect(train.stdout.contains("kept epoch "), "\(train.stdout)")
        let slots = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--few-shot",
                                "--validation-split", "0.25", "--keep-best", "slot-f1"])
        #expect(slots.status == 2 && slots.stderr.contains("slot score of --tagger transformer"), "\(slots.stderr)")
    }

    @Test func badUsesAreRefused() throws {
        let work = try TestScratch.folder("nlu-intents-fs")
        defer { try? FileManager.default.removeItem(at: work) }
        let data = try Self.fewShotDataset(in: work)
        let model = work.appendingPathComponent("m.nlumodel").path
        let withoutFineTune = try runNLU(["intents", "train", data, "-o", model, "--few-shot"])
        #expect(withoutFineTune.status == 2 && withoutFineTune.stderr.contains("apply to --fine-tune"), "\(withoutFineTune.stderr)")
        let split = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--calibration-split", "0.9"])
        #expect(split.status == 2 && split.stderr.contains("--calibration-split"), "\(split.stderr)")
        let iterations = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--few-shot", "--setfit-iterations", "0"])
        #expect(iterations.status == 2 && iterations.stderr.contains("--setfit-iterations"), "\(iterations.stderr)")
        let headC = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--few-shot", "--setfit-head-c", "0"])
        #expect(headC.status == 2 && headC.stderr.contains("--setfit-head-c"), "\(headC.stderr)")
        let headCWithoutFewShot = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--no-few-shot",
                                              "--setfit-head-c", "10"])
        #expect(headCWithoutFewShot.status == 2 && headCWithoutFewShot.stderr.contains("does not apply"), "\(headCWithoutFewShot.stderr)")
        let wordsWithoutFewShot = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--no-few-shot",
                                              "--no-setfit-bag-of-words"])
        #expect(wordsWithoutFewShot.status == 2 && wordsWithoutFewShot.stderr.contains("do not apply"), "\(wordsWithoutFewShot.stderr)")
        let wordsAlone = try runNLU(["intents", "train", data, "-o", model, "--setfit-bag-of-words"])
        #expect(wordsAlone.status == 2 && wordsAlone.stderr.contains("apply to --fine-tune"), "\(wordsAlone.stderr)")
        // --head-learning-rate and --label-smoothing: the softmax head's, ranged by the library, refused where they
        // would be ignored (each: the flags after the dataset, and what the usage error must say).
        let fineTune = ["--fine-tune", Self.tinyEncoder]
        let headFlags: [([String], String)] = [
            (fineTune + ["--no-few-shot", "--head-learning-rate", "0"], "--head-learning-rate is 0.0"),
            (fineTune + ["--few-shot", "--head-learning-rate", "1e-3"], "does not apply to --few-shot"),
            (["--head-learning-rate", "1e-3"], "apply to --fine-tune"),
            (fineTune + ["--no-few-shot", "--label-smoothing", "1"], "--label-smoothing is 1.0"),
            (fineTune + ["--few-shot", "--label-smoothing", "0.1"], "does not apply to --few-shot"),
            (["--label-smoothing", "0.1"], "apply to --fine-tune"),
            (fineTune + ["--tagger", "transformer", "--label-smoothing", "0.1"], "softmax intent head"),
        ]
        for (flags, message) in headFlags {
            let run = try runNLU(["intents", "train", data, "-o", model] + flags)
            #expect(run.status == 2 && run.stderr.contains(message), "\(flags): \(run.stderr)")
        }
        // --resume with no checkpoint: refused, saying how to start.
        let resume = try runNLU(["intents", "train", data, "-o", model, "--fine-tune", Self.tinyEncoder, "--few-shot", "--resume"])
        #expect(resume.status == 1 && resume.stderr.contains("without --resume"), "\(resume.stderr)")

        let single = work.appendingPathComponent("one.json")
        try Data(#"{"format": "nlukit-intents", "intents": [{"name": "greet", "utterances": [{"text": "hello"}, {"text": "hi"}]}]}"#.utf8).write(to: single)
        let one = try runNLU(["intents", "train", single.path, "-o", model, "--fine-tune", Self.tinyEncoder, "--few-shot"])
        #expect(one.status == 1 && one.stderr.contains("greet"), "\(one.stderr)")
        #expect(!FileManager.default.fileExists(atPath: model))
    }
}

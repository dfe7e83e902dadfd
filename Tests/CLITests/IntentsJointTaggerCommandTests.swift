import Foundation
import NLUTestSupport
import Testing

/// `nlu intents train --fine-tune MODEL --tagger transformer`: the joint intent + slot model trained,
/// saved as an intents package that predict (F32 and INT8) and evaluate use like any other, and its
/// bad inputs refused with messages that say what to change.
@Suite struct IntentsJointTaggerCommandTests {
    static let sample = IntentsFineTuneCommandTests.sample
    static let tinyEncoder = IntentsFineTuneCommandTests.tinyEncoder

    func write(_ json: String, to url: URL) throws -> String {
        try Data(json.utf8).write(to: url)
        return url.path
    }

    @Test func jointPackageIsUsedByPredictAndEvaluate() throws {
        let work = try TestScratch.folder("nlu-joint")
        defer { try? FileManager.default.removeItem(at: work) }
        let model = work.appendingPathComponent("car.nlumodel").path
        let train = try runNLU(["intents", "train", Self.sample, "-o", model, "--fine-tune", Self.tinyEncoder, "--tagger", "transformer",
                                "--transformer-crf", "--slot-loss-weight", "0.5", "--epochs", "2", "--learning-rate", "1e-2",
                                "--batch-size", "16", "--json"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout.contains("\"tagger\":\"transformer\"") && train.stdout.contains("\"slotLabels\":5"), "\(train.stdout)")
        #expect(train.stderr.contains("\"epoch\":1,\"epochs\":2,") && train.stderr.contains("checkpoint saved after epoch 2"), "\(train.stderr)")
        // The checkpoint goes once the package is saved; the package holds the encoder and the slot head with its CRF layer.
        #expect(!FileManager.default.fileExists(atPath: model + ".checkpoint"))
        let manifest = try String(contentsOfFile: model + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"transformerTagger\"") && manifest.contains("--tagger transformer"), "\(manifest)")
        #expect(manifest.contains("\"slotLossCoefficient\" : 0.5"), "the weight the run trained with: \(manifest)")
        let weights = try String(decoding: Data(contentsOf: URL(fileURLWithPath: model + "/weights.safetensors")).prefix(4096), as: UTF8.self)
        #expect(weights.contains("tagger.slot_classifier.weight") && weights.contains("tagger.crf.transitions"))

        for precision in ["f32", "int8"] {
            let predict = try runNLU(["intents", "predict", "-m", model, "--precision", precision, "--json", "call mom"])
            #expect(predict.status == 0, "\(predict.stderr)")
            #expect(predict.stdout.contains("\"intent\"") && predict.stdout.contains("\"entities\""), "\(predict.stdout)")
        }
        let evaluate = try runNLU(["intents", "evaluate", "-m", model, Self.sample, "--json"])
        #expect(evaluate.status == 0, "\(evaluate.stderr)")
        #expect(evaluate.stdout.contains("\"perEntity\"") && evaluate.stdout.contains("\"appliance\""), "\(evaluate.stdout)")

        // --resume with no checkpoint left: refused, saying how to start.
        let resume = try runNLU(["intents", "train", Self.sample, "-o", model, "--fine-tune", Self.tinyEncoder, "--tagger", "transformer",
                                 "--epochs", "2", "--resume"])
        #expect(resume.status == 1)
        #expect(resume.stderr.contains("without --resume"), "\(resume.stderr)")
    }

    /// --validation-file: after each epoch a line with the held-out intents' accuracy and loss and the slots' F1
    /// (stderr; a JSON line with --json, and the last epoch's scores in the summary); an intent the training data
    /// lacks counts wrong, named in a line; an empty file is an error naming it, and the flag without --fine-tune a
    /// usage error saying what to do instead.
    @Test func validationFileIsScoredAfterEachEpoch() throws {
        let work = try TestScratch.folder("nlu-joint")
        defer { try? FileManager.default.removeItem(at: work) }
        let model = work.appendingPathComponent("car.nlumodel").path
        let common = ["intents", "train", Self.sample, "-o", model, "--fine-tune", Self.tinyEncoder, "--epochs", "2", "--learning-rate", "1e-2",
                      "--batch-size", "16", "--validation-file", Self.sample]
        let text = try runNLU(common + ["--tagger", "transformer"])
        #expect(text.status == 0, "\(text.stderr)")
        for epoch in 1...2 {
            #expect(text.stderr.contains("epoch \(epoch)/2 validation: intents ") && text.stderr.contains(" of 399, loss "), "\(text.stderr)")
        }
        #expect(text.stderr.contains(", slots F1 ") && text.stderr.contains("every slot right")
                && text.stderr.contains(" %, frames right "), "\(text.stderr)")
        let json = try runNLU(common + ["--no-few-shot", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.contains(#"{"epoch":2,"validation":{"#) && !json.stderr.contains("slots"), "\(json.stderr)")
        #expect(json.stdout.contains(#""validation":{"#) && json.stdout.contains(#""utterances":399"#), "\(json.stdout)")

        let other = try write(#"""
            {"format": "nlukit-intents", "intents": [{"name": "unheard_of", "utterances": [{"text": "hello there"}]}]}
            """#, to: work.appendingPathComponent("other.json"))
        let unknown = try runNLU(["intents", "train", Self.sample, "-o", work.appendingPathComponent("u.nlumodel").path, "--fine-tune",
                                  Self.tinyEncoder, "--no-few-shot", "--epochs", "1", "--validation-file", other])
        #expect(unknown.status == 0, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("1 utterance has an intent the training data lacks (unheard_of): counted wrong")
                && unknown.stderr.contains("epoch 1/1 validation: intents 0.00 % of 1\n"), "\(unknown.stderr)")
        let empty = try write(#"{"format": "nlukit-intents", "intents": []}"#, to: work.appendingPathComponent("empty.json"))
        let nothing = try runNLU(["intents", "train", Self.sample, "-o", work.appendingPathComponent("e.nlumodel").path, "--fine-tune",
                                  Self.tinyEncoder, "--no-few-shot", "--validation-file", empty])
        #expect(nothing.status == 1 && nothing.stderr.contains("empty.json"), "\(nothing.stderr)")
        let alone = try runNLU(["intents", "train", Self.sample, "-o", model, "--validation-file", Self.sample])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--validation-file, --keep-best and --early-stopping apply to --fine-tune MODEL"), "\(alone.stderr)")
    }

    /// --keep-best SCORE keeps the epoch with the best score on --validation-file (marked "*" in its line, named
    /// in the summary) and --early-stopping N ends the run N epochs after it; the held-out file gives every
    /// intent's examples the next intent's name, so that the best epoch is an early one. Out of place: usage errors.
    @Test func keepBestKeepsTheBestEpochAndEarlyStoppingEndsTheRun() throws {
        let work = try TestScratch.folder("nlu-keep-best")
        defer { try? FileManager.default.removeItem(at: work) }
        var sample = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.sample))) as? [String: Any])
        var intents = try #require(sample["intents"] as? [[String: Any]])
        let names = intents.compactMap { $0["intent"] as? String }
        for index in intents.indices { intents[index]["intent"] = names[(index + 1) % names.count] }
        sample["intents"] = intents
        let misnamed = work.appendingPathComponent("misnamed.json")
        try JSONSerialization.data(withJSONObject: sample).write(to: misnamed)
        let model = work.appendingPathComponent("car.nlumodel").path
        let common = ["intents", "train", Self.sample, "-o", model, "--fine-tune", Self.tinyEncoder, "--no-few-shot", "--epochs", "4",
                      "--learning-rate", "5e-3", "--batch-size", "16", "--validation-file", misnamed.path, "--keep-best", "loss", "--early-stopping", "1"]
        let json = try runNLU(common + ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let kept = try #require(summary["keptEpoch"] as? Int), trained = try #require(summary["trainedEpochs"] as? Int)
        #expect(trained == kept + 1 && trained < 4, "\(json.stdout)")
        #expect((summary["validation"] as? [String: Any])?["epoch"] as? Int == kept && json.stderr.contains(#""isBest":true"#))

        let text = try runNLU(common)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stderr.contains("epoch \(kept)/4 validation: intents ") && text.stderr.contains(" *\n"), "\(text.stderr)")
        #expect(text.stderr.contains("early stopping: 1 epoch without a better loss since epoch \(kept); the run ends here"), "\(text.stderr)")
        #expect(text.stdout.contains("kept epoch \(kept) of \(trained) trained, best loss on the validation file: ")
                && text.stdout.contains(", \(trained) of 4 epochs, "), "\(text.stdout)")
        let evaluate = try runNLU(["intents", "evaluate", "-m", model, misnamed.path, "--json"])
        #expect(evaluate.status == 0, "\(evaluate.stderr)")

        let base = ["intents", "train", Self.sample, "-o", work.appendingPathComponent("x.nlumodel").path, "--fine-tune", Self.tinyEncoder]
        for (flags, message) in [(["--keep-best", "loss"], "--keep-best needs --validation-file FILE or --validation-split F"),
                                 (["--validation-file", Self.sample, "--keep-best", "slot-f1", "--no-few-shot"], "slot score of --tagger transformer"),
                                 (["--validation-file", Self.sample, "--early-stopping", "2"], "--early-stopping needs --keep-best SCORE"),
                                 (["--validation-file", Self.sample, "--keep-best", "loss", "--early-stopping", "0", "--no-few-shot"],
                                  "--early-stopping is 0: it must be between 1 and 1000 epochs"),
                                 (["--validation-file", Self.sample, "--keep-best", "f2"], "--keep-best")] {
            let refused = try runNLU(base + flags)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(flags): \(refused.stderr)")
        }
        let unknown = try write(#"""
            {"format": "nlukit-intents", "intents": [{"name": "unheard_of", "utterances": [{"text": "hello there"}]}]}
            """#, to: work.appendingPathComponent("unknown.json"))
        let noLoss = try runNLU(base + ["--no-few-shot", "--epochs", "1", "--validation-file", unknown, "--keep-best", "loss"])
        #expect(noLoss.status == 1 && noLoss.stderr.contains("unknown.json: --keep-best loss needs validation utterances of intents"),
                "\(noLoss.stderr)")
        let alone = try runNLU(["intents", "train", Self.sample, "-o", model, "--keep-best", "accuracy"])
        #expect(alone.status == 2 && alone.stderr.contains("--keep-best and --early-stopping apply to --fine-tune MODEL"), "\(alone.stderr)")
    }

    /// --validation-split F: that share of each intent is held out of the training data and scored after each epoch,
    /// as a validation file would be (and --keep-best picks the epoch on it); with a validation file or out of range
    /// it is a usage error.
    @Test func validationSplitHoldsOutAShareOfTheTrainingData() throws {
        let work = try TestScratch.folder("nlu-validation-split")
        defer { try? FileManager.default.removeItem(at: work) }
        let model = work.appendingPathComponent("car.nlumodel").path
        let common = ["intents", "train", Self.sample, "-o", model, "--fine-tune", Self.tinyEncoder, "--no-few-shot", "--epochs", "2",
                      "--learning-rate", "1e-2", "--batch-size", "16", "--validation-split", "0.2", "--keep-best", "accuracy"]
        let json = try runNLU(common + ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let held = try #require(json.stderr.firstMatch(of: /validation: (\d+) utterances held out of the training data \(--validation-split 0.2\)/))
        let heldOut = try #require(Int(held.1))
        let trained = try #require(json.stderr.firstMatch(of: /fine-tuning \S+ on \d+ intents, (\d+) utterances, (\d+) counterexamples/))
        // The sample's 375 utterances and 24 counterexamples: a fifth of each intent (rounded down) and of the counterexamples.
        #expect(heldOut > 60 && heldOut < 80 && (Int(trained.1) ?? 0) + (Int(trained.2) ?? 0) + heldOut == 399, "\(json.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((summary["validation"] as? [String: Any])?["utterances"] as? Int == heldOut, "\(json.stdout)")
        #expect(summary["keptEpoch"] is Int, "\(json.stdout)")
        let text = try runNLU(common)
        #expect(text.status == 0 && text.stdout.contains("best accuracy on the held-out utterances: "), "\(text.stdout)")

        let base = ["intents", "train", Self.sample, "-o", work.appendingPathComponent("x.nlumodel").path, "--fine-tune", Self.tinyEncoder]
        for (flags, message) in [(["--validation-split", "0.2", "--validation-file", Self.sample], "give one"),
                                 (["--validation-split", "0.7"], "--validation-split is 0.7: with --fine-tune it must be above 0 and at most 0.5"),
                                 (["--validation-split", "0"], "above 0"),
                                 (["--patience", "2"], "--keep-best SCORE --early-stopping N"),
                                 (["--hidden", "64"], "--hidden sets the bag-of-words network; a --fine-tune model's features are its encoder's"),
                                 (["--word-ngrams", "1-3", "--min-df", "2", "--no-stemming", "--class-weighting", "none"],
                                  "--class-weighting, --word-ngrams, --min-df, --no-stemming set the bag-of-words network")] {
            let refused = try runNLU(base + flags)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(flags): \(refused.stderr)")
        }
        // One utterance an intent: each keeps its one to train on, so nothing is held out.
        let single = work.appendingPathComponent("single.csv")
        try "intent,text\ngreet,hello there\nbye,see you later\n".write(to: single, atomically: true, encoding: .utf8)
        let empty = try runNLU(["intents", "train", single.path, "-o", work.appendingPathComponent("y.nlumodel").path, "--fine-tune", Self.tinyEncoder,
                                "--no-few-shot", "--validation-split", "0.5"])
        #expect(empty.status == 1 && empty.stderr.contains("--validation-split 0.5 holds out no utterance of \(single.path)"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("y.nlumodel").path))
    }

    @Test func flagsOutOfPlaceAreUsageErrorsThatSayWhatToAdd() throws {
        let work = try TestScratch.folder("nlu-joint")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("m.nlumodel").path
        let alone = try runNLU(["intents", "train", Self.sample, "-o", output, "--tagger", "transformer"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--tagger transformer") && alone.stderr.contains("add --fine-tune MODEL"), "\(alone.stderr)")
        let crf = try runNLU(["intents", "train", Self.sample, "-o", output, "--fine-tune", Self.tinyEncoder, "--transformer-crf"])
        #expect(crf.status == 2)
        #expect(crf.stderr.contains("apply to --tagger transformer"), "\(crf.stderr)")
        let weight = try runNLU(["intents", "train", Self.sample, "-o", output, "--fine-tune", Self.tinyEncoder, "--slot-loss-weight", "2"])
        #expect(weight.status == 2)
        #expect(weight.stderr.contains("--slot-loss-weight applies to --tagger transformer"), "\(weight.stderr)")
        let heavy = try runNLU(["intents", "train", Self.sample, "-o", output, "--fine-tune", Self.tinyEncoder, "--tagger", "transformer",
                                "--slot-loss-weight", "101"])
        #expect(heavy.status == 2)
        #expect(heavy.stderr.contains("--slot-loss-weight is 101.0: it must be between 0 and 100"), "\(heavy.stderr)")
        let shapes = try runNLU(["intents", "train", Self.sample, "-o", output, "--fine-tune", Self.tinyEncoder, "--no-word-shapes"])
        #expect(shapes.status == 2)
        #expect(shapes.stderr.contains("--word-shapes and --no-word-shapes apply to --tagger transformer"), "\(shapes.stderr)")
        let noEntities = try runNLU(["intents", "train", Self.sample, "-o", output, "--fine-tune", Self.tinyEncoder,
                                     "--tagger", "transformer", "--no-entities"])
        #expect(noEntities.status == 2)
        #expect(noEntities.stderr.contains("--no-entities"), "\(noEntities.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let folds = try runNLU(["intents", "evaluate", Self.sample, "--folds", "3", "--tagger", "transformer"])
        #expect(folds.status == 2)
        #expect(folds.stderr.contains("--folds does not train the transformer tagger") && folds.stderr.contains("--model M.nlumodel"),
                "\(folds.stderr)")
    }

    @Test func datasetsTheJointModelCannotLearnFromAreRefusedNamingTheProblem() throws {
        let work = try TestScratch.folder("nlu-joint")
        defer { try? FileManager.default.removeItem(at: work) }
        let output = work.appendingPathComponent("m.nlumodel").path
        let plain = try write(#"""
            {"format": "nlukit-intents", "intents": [
              {"name": "greet", "utterances": [{"text": "hello there"}, {"text": "hi"}]},
              {"name": "bye", "utterances": [{"text": "goodbye"}, {"text": "see you"}]}]}
            """#, to: work.appendingPathComponent("plain.json"))
        let none = try runNLU(["intents", "train", plain, "-o", output, "--fine-tune", Self.tinyEncoder, "--tagger", "transformer"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("plain.json") && none.stderr.contains("no utterance has an entity annotation"), "\(none.stderr)")

        let overlapping = try write(#"""
            {"format": "nlukit-intents", "intents": [
              {"name": "book", "utterances": [{"text": "book in new york", "entities": [
                {"start": 8, "end": 16, "entity": "city"}, {"start": 12, "end": 16, "entity": "place"}]}]},
              {"name": "bye", "utterances": [{"text": "goodbye"}]}]}
            """#, to: work.appendingPathComponent("overlap.json"))
        let overlap = try runNLU(["intents", "train", overlapping, "-o", output, "--fine-tune", Self.tinyEncoder, "--tagger", "transformer"])
        #expect(overlap.status == 1)
        #expect(overlap.stderr.contains("book in new york") && overlap.stderr.contains("overlaps"), "\(overlap.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

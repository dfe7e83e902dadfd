import Foundation
import NLUTestSupport
import Testing

/// `nlu intents train --fine-tune MODEL`: the encoder fine-tuned with the intent head, saved as a
/// package that predict and evaluate load like any other (at f32 and int8), and bad settings refused.
@Suite struct IntentsFineTuneCommandTests {
    static let sample = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/intents/car-dashboard.json").path
    static let tinyEncoder = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path

    @Test func fineTunedPackageIsUsedByPredictAndEvaluate() throws {
        let work = try TestScratch.folder("nlu-intents-ft")
        defer { try? FileManager.default.removeItem(at: work) }
        let model = work.appendingPathComponent("car.nlumodel").path
        let train = try runNLU(["intents", "train", Self.sample, "-o", model, "--fine-tune", Self.tinyEncoder, "--epochs", "2",
                                "--learning-rate", "5e-3", "--batch-size", "16", "--json"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout.contains("\"fineTuned\":\"\(URL(fileURLWithPath: Self.tinyEncoder).standardizedFileURL.path)\""))
        // --json: one JSON progress line per reported step on stderr.
        #expect(train.stderr.contains("\"epoch\":1,\"epochs\":2,") && train.stderr.contains("\"step\":1,"), "\(train.stderr)")
        #expect(FileManager.default.fileExists(atPath: model + "/encoder/config.json"))

        let predict = try runNLU(["intents", "predict", "-m", model, "--json", "turn the radio on"])
        #expect(predict.status == 0, "\(predict.stderr)")
        #expect(predict.stdout.contains("\"intent\""))
        let int8 = try runNLU(["intents", "predict", "-m", model, "--precision", "int8", "--json", "turn the radio on"])
        #expect(int8.status == 0, "\(int8.stderr)")

        let evaluate = try runNLU(["intents", "evaluate", "-m", model, Self.sample, "--json"])
        #expect(evaluate.status == 0, "\(evaluate.stderr)")
        #expect(evaluate.stdout.contains("\"accuracy\""))

        // Trained again over it: the package (encoder folder included) is replaced; --label-smoothing is recorded
        // with the other fine-tuning options.
        let again = try runNLU(["intents", "train", Self.sample, "-o", model, "--fine-tune", Self.tinyEncoder, "--epochs", "1",
                                "--learning-rate", "5e-3", "--no-entities", "--label-smoothing", "0.1"])
        #expect(again.status == 0, "\(again.stderr)")
        let manifest = try String(contentsOfFile: model + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"labelSmoothing\" : 0.1"), "\(manifest)")
    }

    @Test(arguments: ["0", "nan", "1e30"])
    func learningRateOutOfRangeIsAUsageError(rate: String) throws {
        let work = try TestScratch.folder("nlu-intents-ft")
        defer { try? FileManager.default.removeItem(at: work) }
        let run = try runNLU(["intents", "train", Self.sample, "-o", work.appendingPathComponent("m.nlumodel").path,
                              "--fine-tune", Self.tinyEncoder, "--learning-rate", rate])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--learning-rate"), "\(run.stderr)")
    }

    @Test func oneIntentAndAModelWithoutEncoderWeightsAreRefusedAndTheOldPackageKept() throws {
        let work = try TestScratch.folder("nlu-intents-ft")
        defer { try? FileManager.default.removeItem(at: work) }
        let model = work.appendingPathComponent("m.nlumodel")
        let first = try runNLU(["intents", "train", Self.sample, "-o", model.path, "--epochs", "2", "--hidden", "8", "--no-entities"])
        #expect(first.status == 0, "\(first.stderr)")
        let before = try Data(contentsOf: model.appendingPathComponent("weights.safetensors"))

        let single = work.appendingPathComponent("one.json")
        try Data(#"{"format": "nlukit-intents", "intents": [{"name": "greet", "utterances": [{"text": "hello"}, {"text": "hi"}]}]}"#.utf8).write(to: single)
        let one = try runNLU(["intents", "train", single.path, "-o", model.path, "--fine-tune", Self.tinyEncoder])
        #expect(one.status == 1)
        #expect(one.stderr.contains("greet"), "\(one.stderr)")

        // An encoder whose weights lack a layer: the missing tensor is named.
        let broken = work.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        for file in ["config.json", "vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"] {
            try FileManager.default.copyItem(atPath: Self.tinyEncoder + "/" + file, toPath: broken.appendingPathComponent(file).path)
        }
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: broken.appendingPathComponent("config.json"))) as? [String: Any]
        var bigger = config ?? [:]
        bigger["num_hidden_layers"] = ((config?["num_hidden_layers"] as? Int) ?? 2) + 1
        try JSONSerialization.data(withJSONObject: bigger).write(to: broken.appendingPathComponent("config.json"))
        try FileManager.default.copyItem(atPath: Self.tinyEncoder + "/model.safetensors", toPath: broken.appendingPathComponent("model.safetensors").path)
        let missing = try runNLU(["intents", "train", Self.sample, "-o", model.path, "--fine-tune", broken.path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("encoder.layer.2"), "\(missing.stderr)")

        #expect(try Data(contentsOf: model.appendingPathComponent("weights.safetensors")) == before)
    }
}

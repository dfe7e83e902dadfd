import Foundation
import NLUTestSupport
import Testing

/// `nlu lm train|generate|predict|perplexity` end to end, including bad inputs.
@Suite struct LanguageModelCommandTests {
    static let model = fixturesDirectory.appendingPathComponent("lm/lstm-2.nlumodel").path
    static let corpus = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/lm/garden.txt").path

    @Test func trainWritesAPackageThatGeneratesAndMeasures() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("garden.nlumodel").path
        let train = try runNLU(["lm", "train", Self.corpus, "-o", output, "--layers", "1", "--hidden", "16", "--embedding", "8",
                                "--epochs", "1", "--batch-size", "8", "--sequence-length", "10", "--cell", "gru"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout.hasPrefix("Saved \(output): 1-layer gru, word level, vocabulary 92, 1 epoch(s), validation perplexity"))
        #expect(train.stderr.contains("epoch 1 done"))
        #expect(train.stderr.contains("checkpoint saved"))
        let perplexity = try runNLU(["lm", "perplexity", "--model", output, Self.corpus, "--json"])
        #expect(perplexity.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(perplexity.stdout.utf8)) as? [String: Any]
        #expect((report?["tokens"] as? Int) == 4897)
        #expect(((report?["perplexity"] as? Double) ?? 0) > 1)
        let resumed = try runNLU(["lm", "train", Self.corpus, "-o", output, "--epochs", "2", "--resume", "--batch-size", "8",
                                  "--sequence-length", "10"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming after epoch 1"))
        #expect(resumed.stdout.contains("2 epoch(s)"))
        // Architecture options that differ from the checkpoint's are refused, naming each, not silently ignored;
        // the same values as the checkpoint's are fine.
        let reshaped = try runNLU(["lm", "train", Self.corpus, "-o", output, "--epochs", "3", "--resume", "--layers", "2",
                                   "--hidden", "16", "--cell", "lstm"])
        #expect(reshaped.status == 1)
        #expect(reshaped.stderr.contains("continues with its own architecture, and this run asks for cell lstm (the checkpoint has gru), "
                                         + "layers 2 (the checkpoint has 1): leave those options out"), "\(reshaped.stderr)")
        let same = try runNLU(["lm", "train", Self.corpus, "-o", output, "--epochs", "3", "--resume", "--layers", "1",
                               "--hidden", "16", "--batch-size", "8", "--sequence-length", "10"])
        #expect(same.status == 0, "\(same.stderr)")
    }

    @Test func generateIsReproducibleWithASeedAndStreamsText() throws {
        let arguments = ["lm", "generate", "--model", Self.model, "--prompt", "The cat", "--max-tokens", "8", "--seed", "5",
                         "--top-k", "5", "--temperature", "0.9"]
        let first = try runNLU(arguments), second = try runNLU(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == second.stdout)
        #expect(first.stdout.hasPrefix("The cat"))
        let json = try runNLU(arguments + ["--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["promptTokens"] as? [String]) == ["the", "cat"])
        // The streamed text is the prompt followed by the generated continuation.
        #expect(first.stdout == "The cat" + ((object?["text"] as? String) ?? "?") + "\n")
    }

    @Test func predictPrintsOneJSONObjectPerStep() throws {
        let result = try runNLU(["lm", "predict", "--model", Self.model, "--top", "3", "--json", "the", "cat", "sat"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("{\"input\":\"the\",\"next\":[{\"token\":"))
        let step = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        let next = step?["next"] as? [[String: Any]]
        #expect(step?["input"] as? String == "cat")
        #expect(next?.count == 3)
        let probabilities = next?.compactMap { $0["probability"] as? Double } ?? []
        #expect(probabilities == probabilities.sorted(by: >))
        let plain = try runNLU(["lm", "predict", "--model", Self.model, "the"])
        #expect(plain.stdout.hasPrefix("the → "))
    }

    @Test func predictCarriesStateAcrossRunsThroughStateFiles() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.json").path
        let whole = try runNLU(["lm", "predict", "--model", Self.model, "--json", "the", "cat"])
        let first = try runNLU(["lm", "predict", "--model", Self.model, "--json", "--state-out", state, "the"])
        let second = try runNLU(["lm", "predict", "--model", Self.model, "--json", "--state-in", state, "cat"])
        #expect(first.status == 0 && second.status == 0)
        #expect(whole.stdout == first.stdout + second.stdout)
    }

    @Test func emptyCorpusIsAClearError() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.txt")
        try "\n\n".write(to: empty, atomically: true, encoding: .utf8)
        let result = try runNLU(["lm", "train", empty.path, "-o", directory.appendingPathComponent("m.nlumodel").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Error: the corpus has no text to train on (\(empty.path))"))
    }

    @Test func promptOfOnlyUnknownWordsIsAClearError() throws {
        let result = try runNLU(["lm", "generate", "--model", Self.model, "--prompt", "zebra quokka"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Error: every token of the prompt \"zebra quokka\" is outside the model's vocabulary"))
    }

    @Test func stateOfTheWrongShapeIsAClearError() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.json")
        try #"{"shape": [1, 2, 8], "values": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}"#.write(to: state, atomically: true, encoding: .utf8)
        let result = try runNLU(["lm", "predict", "--model", Self.model, "--state-in", state.path, "the"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("state tensor has shape [1, 2, 8], expected [2, 2, 8]"))
        try "[1, 2]".write(to: state, atomically: true, encoding: .utf8)
        let garbage = try runNLU(["lm", "predict", "--model", Self.model, "--state-in", state.path, "the"])
        #expect(garbage.status == 1)
        #expect(garbage.stderr.contains("expected {\"shape\""))
        try #"{"shape": [4611686018427387904, 4], "values": [1]}"#.write(to: state, atomically: true, encoding: .utf8)
        let hostile = try runNLU(["lm", "predict", "--model", Self.model, "--state-in", state.path, "the"])
        #expect(hostile.status == 1)
        #expect(hostile.stderr.contains("does not hold 1 values"))
    }

    @Test func weightsNotMatchingTheConfigurationNameTheTensor() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("bad.nlumodel")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.model), to: package)
        let manifest = package.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "\"embeddingSize\": 6", with: "\"embeddingSize\": 7")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let result = try runNLU(["lm", "generate", "--model", package.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("tensor 'embedding.weight' has shape [14, 6], expected [14, 7]"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let dropout = try runNLU(["lm", "train", Self.corpus, "-o", TestScratch.file("never", extension: "nlumodel").path, "--dropout", "1.5"])
        #expect(dropout.status == 2)
        #expect(dropout.stderr.contains("--dropout must be in [0, 1)"))
        let topP = try runNLU(["lm", "generate", "--model", Self.model, "--top-p", "0"])
        #expect(topP.status == 2)
        #expect(topP.stderr.contains("--top-p"))
        let noTokens = try runNLU(["lm", "predict", "--model", Self.model])
        #expect(noTokens.status == 2)
        let missing = try runNLU(["lm", "perplexity", "--model", "/nonexistent.nlumodel", Self.corpus])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/nonexistent.nlumodel"))
    }
}

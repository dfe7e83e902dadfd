import Foundation
import NLUTestSupport
import Testing

/// `nlu intents train --embeddings MODEL`: the sentence embedding joins the bag of words, the package
/// records the model, and predict/evaluate load it again — or say why they cannot.
@Suite struct IntentsEmbeddingsCommandTests {
    static let sample = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/intents/car-dashboard.json").path
    static let tinyEmbedder = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny")

    /// A private copy of the tiny embedder (the tests change and remove it) and a work folder.
    func setUp() throws -> (work: URL, embedder: URL) {
        let work = try TestScratch.folder("nlu-intents-emb")
        let embedder = work.appendingPathComponent("embedder")
        try FileManager.default.copyItem(at: Self.tinyEmbedder, to: embedder)
        return (work, embedder)
    }

    @Test func trainRecordsTheEmbedderAndPredictLoadsIt() throws {
        let (work, embedder) = try setUp()
        defer { try? FileManager.default.removeItem(at: work) }
        let model = work.appendingPathComponent("car.nlumodel").path
        let train = try runNLU(["intents", "train", Self.sample, "-o", model, "--epochs", "4", "--hidden", "32",
                                "--no-entities", "--embeddings", embedder.path, "--json"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout.contains("\"sentenceEmbeddings\":{"))
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: model).appendingPathComponent("manifest.json"))) as? [String: Any]
        let recorded = (manifest?["config"] as? [String: Any])?["sentenceEmbeddings"] as? [String: Any]
        #expect(recorded?["model"] as? String == embedder.standardizedFileURL.path)
        #expect((recorded?["revision"] as? String)?.hasPrefix("sha256:") == true)
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.tinyEmbedder.appendingPathComponent("2_Dense/config.json"))) as? [String: Any]
        #expect(recorded?["dimension"] as? Int == expected?["out_features"] as? Int)

        let predict = try runNLU(["intents", "predict", "-m", model, "--json", "turn the radio on"])
        #expect(predict.status == 0, "\(predict.stderr)")
        #expect(predict.stdout.contains("\"intent\""))

        // The embedder changed under the same path: refused, naming both.
        let pooling = embedder.appendingPathComponent("config.json")
        var config = try String(contentsOf: pooling, encoding: .utf8)
        config = config.replacingOccurrences(of: "}", with: ", \"_changed\": true}")
        try Data(config.utf8).write(to: pooling)
        let changed = try runNLU(["intents", "predict", "-m", model, "turn the radio on"])
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("trained with the sentence embeddings of \(embedder.standardizedFileURL.path)"))
        #expect(changed.stderr.contains("has other files"))

        // The embedder is gone: refused, saying which model is missing.
        try FileManager.default.removeItem(at: embedder)
        let missing = try runNLU(["intents", "evaluate", "-m", model, Self.sample])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("not found"))
    }

    @Test func encoderTaggerTrainsOnTheEmbeddersWordVectorsAndPredictsEntities() throws {
        let (work, embedder) = try setUp()
        defer { try? FileManager.default.removeItem(at: work) }
        let model = work.appendingPathComponent("car.nlumodel").path
        let train = try runNLU(["intents", "train", Self.sample, "-o", model, "--epochs", "4", "--hidden", "32",
                                "--crf-iterations", "40", "--embeddings", embedder.path, "--tagger", "encoder", "--json"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout.contains("\"tagger\":\"encoder\""))
        #expect(train.stderr.contains("slot tagger: word vectors from \(embedder.standardizedFileURL.path) in "))
        #expect(train.stderr.contains("slot tagger: word clusters (k = 64) in "))
        let predict = try runNLU(["intents", "predict", "-m", model, "--json", "turn on the fog lights"])
        #expect(predict.status == 0, "\(predict.stderr)")
        #expect(predict.stdout.contains("\"entity\":\"appliance\""), "\(predict.stdout)")
        #expect(predict.stdout.contains("\"text\":\"fog lights\""), "\(predict.stdout)")

        // A package trained before the whole weights were hashed records the older fingerprint, for
        // the sentence features and the tagger's word vectors alike: the same files still load it.
        let manifestURL = URL(fileURLWithPath: model).appendingPathComponent("manifest.json")
        let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        let fingerprint = String(manifest[try #require(manifest.firstRange(of: /sha256:[0-9a-f]{16}/))])
        #expect(manifest.components(separatedBy: fingerprint).count == 3, "sentence features and tagger: \(manifest)")
        try Data(manifest.replacingOccurrences(of: fingerprint, with: IndexModelLocationCommandTests.olderFingerprint).utf8).write(to: manifestURL)
        let older = try runNLU(["intents", "predict", "-m", model, "--json", "turn on the fog lights"])
        #expect(older.status == 0 && older.stdout.contains("\"text\":\"fog lights\""), "\(older.stderr)")

        // The encoder tagger without an encoder is a usage error, before anything is read.
        let alone = try runNLU(["intents", "train", Self.sample, "-o", work.appendingPathComponent("b.nlumodel").path, "--tagger", "encoder"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--tagger encoder needs --embeddings MODEL"))
        let unknown = try runNLU(["intents", "train", Self.sample, "-o", work.appendingPathComponent("c.nlumodel").path, "--tagger", "lstm"])
        #expect(unknown.status == 2)
    }

    /// `--no-bag-of-words`: the embedding is the only feature (the summary's vocabulary is 0 terms); it needs
    /// `--embeddings` and excludes `--max-features`, usage errors before anything is read.
    @Test func embeddingsAloneWithoutTheBagOfWords() throws {
        let (work, embedder) = try setUp()
        defer { try? FileManager.default.removeItem(at: work) }
        let model = work.appendingPathComponent("car.nlumodel").path
        let train = try runNLU(["intents", "train", Self.sample, "-o", model, "--epochs", "4", "--hidden", "32",
                                "--no-entities", "--embeddings", embedder.path, "--no-bag-of-words", "--json"])
        #expect(train.status == 0, "\(train.stderr)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: model).appendingPathComponent("manifest.json"))) as? [String: Any]
        let config = manifest?["config"] as? [String: Any]
        #expect((config?["vocabulary"] as? [Any])?.isEmpty == true, "\(String(describing: config?.keys))")
        #expect((config?["features"] as? [String: Any])?["maxFeatures"] as? Int == 0)
        let predict = try runNLU(["intents", "predict", "-m", model, "--json", "turn the radio on"])
        #expect(predict.status == 0, "\(predict.stderr)")
        #expect(predict.stdout.contains("\"intent\""))

        let alone = try runNLU(["intents", "train", Self.sample, "-o", work.appendingPathComponent("b.nlumodel").path, "--no-bag-of-words"])
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("--no-bag-of-words needs --embeddings MODEL"))
        let both = try runNLU(["intents", "train", Self.sample, "-o", work.appendingPathComponent("c.nlumodel").path,
                               "--embeddings", embedder.path, "--no-bag-of-words", "--max-features", "10"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--max-features and --no-bag-of-words exclude each other"))
    }

    @Test func unknownEmbedderIsRefusedBeforeTraining() throws {
        let (work, _) = try setUp()
        defer { try? FileManager.default.removeItem(at: work) }
        let model = work.appendingPathComponent("car.nlumodel").path
        let run = try runNLU(["intents", "train", Self.sample, "-o", model, "--embeddings", "acme/not-cached"],
                             environment: ["HF_HUB_CACHE": work.appendingPathComponent("cache").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("nlu models download acme/not-cached"))
        #expect(!FileManager.default.fileExists(atPath: model))
    }
}

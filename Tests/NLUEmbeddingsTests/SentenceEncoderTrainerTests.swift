import Foundation
import NLUCore
import NLUEmbeddings
import NLUTestSupport
import NLUTransformers
import Testing

/// The runs `scripts/fixtures/sentence_finetune.py` records: sentence-tiny (the minilm-tiny encoder,
/// mean pooling, Normalize), 20 AdamW steps of sentence-transformers' own losses in PyTorch (float32,
/// dropout off, clipping at 1, 2 warm-up steps, weight decay 0.01) over 5 batches of 3 examples.
struct SentenceFineTuneReference: Decodable {
    struct Column: Decodable {
        var input_ids: [[Int32]]
        var attention_mask: [[Int32]]

        /// The texts unpadded, as ``SentenceEncoderTrainer`` takes them.
        var sequences: [[Int32]] {
            zip(input_ids, attention_mask).map { ids, mask in Array(ids.prefix(mask.reduce(0) { $0 + Int($1) })) }
        }
    }
    struct Batch: Decodable {
        var columns: [Column]
        var scores: [Float]?
    }
    struct Values: Decodable {
        var shape: [Int]
        var values: [Float]
    }
    struct Step: Decodable {
        var loss: Float
        var learningRate: Float
        var gradientNorm: Float
    }
    struct After: Decodable {
        var encoder: [String: Values]
        var embeddings: [Values]
    }
    struct Run: Decodable {
        var batches: [Batch]
        var steps: [Step]
        var after: After
    }
    var model: String
    var learningRate: Float
    var weightDecay: Float
    var maxGradNorm: Float
    var warmupSteps: Int
    var trainingSteps: Int
    var scale: Float
    var runs: [String: Run]

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func load() throws -> SentenceFineTuneReference {
        try JSONDecoder().decode(Self.self, from: Data(contentsOf: fixtures.appendingPathComponent("training/sentence-finetune.json")))
    }

    var modelURL: URL { Self.fixtures.appendingPathComponent(model) }

    func makeTrainer(_ run: String) throws -> SentenceEncoderTrainer {
        try SentenceEncoderTrainer(
            encoder: TrainableEncoder(checkpoint: modelURL), pooling: [.mean], normalizes: true,
            loss: run == "cosine" ? .cosineSimilarity : .multipleNegativesRanking(scale: scale), padID: 0,
            learningRate: learningRate, weightDecay: weightDecay, maxGradientNorm: maxGradNorm,
            schedule: LinearWarmupSchedule(trainingSteps: trainingSteps, warmupSteps: warmupSteps))
    }

    /// Runs `trainingSteps` steps over the run's batches, cycling.
    func train(_ trainer: SentenceEncoderTrainer, run: String) throws -> [FineTuningStep] {
        let batches = try #require(runs[run]).batches
        return try (0..<trainingSteps).map { step in
            let batch = batches[step % batches.count]
            return try trainer.train(batch.columns.map(\.sequences), scores: batch.scores)
        }
    }
}

@Suite struct SentenceEncoderTrainerTests {
    /// The bar, for each loss: the loss at each of 20 AdamW steps within 1e-5 relative of
    /// sentence-transformers' in PyTorch, the rate exact and the gradient norm within 1e-4 relative.
    @Test(arguments: ["mnrl", "mnrl-negatives", "cosine"])
    func twentyStepsMatchSentenceTransformersLossAtEveryStep(run: String) throws {
        let reference = try SentenceFineTuneReference.load()
        let trainer = try reference.makeTrainer(run)
        let steps = try reference.train(trainer, run: run)
        let expected = try #require(reference.runs[run]).steps
        var worst: Float = 0
        for (ours, theirs) in zip(steps, expected) {
            let relative = abs(ours.loss - theirs.loss) / abs(theirs.loss)
            worst = max(worst, relative)
            #expect(relative <= 1e-5, "\(run) step \(ours.step): loss \(ours.loss), PyTorch \(theirs.loss)")
            #expect(abs(ours.learningRate - theirs.learningRate) <= 1e-9 + 1e-6 * theirs.learningRate, "\(run) step \(ours.step)")
            #expect(abs(ours.gradientNorm - theirs.gradientNorm) <= 1e-4 * theirs.gradientNorm, "\(run) step \(ours.step) norm")
        }
        print("\(run): largest relative loss difference over 20 steps: \(worst)")
    }

    /// The encoder weights after the 20 steps within 5e-5 absolute of PyTorch's, where the weights
    /// moved by up to 20 × the 2e-3 rate (measured: at most 2.1e-5, a word-embedding element; 3.1e-6
    /// while the trailing padding was computed: the same gradients summed over other rows round
    /// otherwise; the ranking loss's scale of 20 multiplies the float rounding of the cosines, and
    /// Adam's division by √v amplifies it where a second moment is tiny), and the embeddings of the
    /// first batch within 1e-5.
    @Test(arguments: ["mnrl", "mnrl-negatives", "cosine"])
    func weightsAndEmbeddingsAfterTwentyStepsMatchPyTorch(run: String) throws {
        let reference = try SentenceFineTuneReference.load()
        let trainer = try reference.makeTrainer(run)
        _ = try reference.train(trainer, run: run)
        let after = try #require(reference.runs[run]).after
        for (name, values) in after.encoder {
            let tensor = try #require(trainer.encoder.parameters.value(name), "no parameter \(name)")
            #expect(tensor.shape == values.shape, "\(name)")
            let difference = zip(tensor.scalars, values.values).map { abs($0 - $1) }.max() ?? 0
            #expect(difference <= 5e-5, "\(run) \(name): largest difference \(difference)")
        }
        let first = try #require(reference.runs[run]).batches[0]
        for (column, expected) in zip(first.columns, after.embeddings) {
            let ours = try trainer.embeddings(column.sequences)
            #expect(ours.shape == expected.shape)
            let difference = zip(ours.scalars, expected.values).map { abs($0 - $1) }.max() ?? 0
            #expect(difference <= 1e-5, "\(run) embeddings: largest difference \(difference)")
        }
    }

    /// After the 20 steps with hard negatives, the folder `TrainableEncoder.save` writes loads in
    /// ``SentenceEmbedder`` (what `nlu embed` runs) and embeds as the trainer does, within 1e-5. With
    /// NLUKIT_SENTENCE_FINETUNE_SAVE_TO set, the folder is also saved there for
    /// `scripts/fixtures/sentence_finetune.py --check-saved DIR`: sentence-transformers loads it and its
    /// embeddings are PyTorch's own 20 steps' within 3.4e-7, and `nlu embed` on it embeds within 8.9e-8 of
    /// sentence-transformers (measured by hand with the script's NLU argument; CI has no Python).
    @Test func savedFolderEmbedsAsTheTrainer() throws {
        let reference = try SentenceFineTuneReference.load()
        let trainer = try reference.makeTrainer("mnrl-negatives")
        _ = try reference.train(trainer, run: "mnrl-negatives")
        let folder = TestScratch.file("nlukit-sentence")
        defer { try? FileManager.default.removeItem(at: folder) }
        try trainer.encoder.save(to: folder, source: reference.modelURL)
        if let keep = ProcessInfo.processInfo.environment["NLUKIT_SENTENCE_FINETUNE_SAVE_TO"] {
            try trainer.encoder.save(to: URL(fileURLWithPath: keep), source: reference.modelURL)
        }
        let embedder = try SentenceEmbedder(modelDirectory: folder)
        #expect(embedder.normalizesByDefault)
        let sequences = try #require(reference.runs["mnrl-negatives"]).batches.flatMap { $0.columns.flatMap(\.sequences) }
        let loaded = try embedder.embed(tokenIDs: sequences)
        let trained = try trainer.embeddings(sequences)
        let difference = zip(loaded.joined(), trained.scalars).map { abs($0 - $1) }.max() ?? 1
        #expect(difference <= 1e-5, "largest difference \(difference)")
    }

    /// A sentence-transformers folder in the older layout (the encoder in `0_Transformer/`) keeps that
    /// layout when saved, and a second save may replace the folder the first one wrote.
    @Test func savesOverItsOwnOlderLayoutFolder() throws {
        let reference = try SentenceFineTuneReference.load()
        let manager = FileManager.default
        let scratch = TestScratch.file("nlukit-older-layout")
        defer { try? manager.removeItem(at: scratch) }
        let source = scratch.appendingPathComponent("source")
        let transformer = source.appendingPathComponent("0_Transformer")
        try manager.createDirectory(at: transformer, withIntermediateDirectories: true)
        for entry in try manager.contentsOfDirectory(atPath: reference.modelURL.path) {
            let from = reference.modelURL.appendingPathComponent(entry)
            let atRoot = ["modules.json", "1_Pooling", "config_sentence_transformers.json"].contains(entry)
            try manager.copyItem(at: from, to: (atRoot ? source : transformer).appendingPathComponent(entry))
        }
        let modules = try String(contentsOf: source.appendingPathComponent("modules.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"path\": \"\"", with: "\"path\": \"0_Transformer\"")
        try modules.write(to: source.appendingPathComponent("modules.json"), atomically: true, encoding: .utf8)

        let encoder = try TrainableEncoder(checkpoint: transformer)
        let destination = scratch.appendingPathComponent("fine-tuned")
        try encoder.save(to: destination, source: source)
        #expect(manager.fileExists(atPath: destination.appendingPathComponent("0_Transformer/model.safetensors").path))
        try encoder.save(to: destination, source: source)
        _ = try SentenceEmbedder(modelDirectory: destination)
    }

    /// Overflowing weights give a non-finite loss: the step stops with the epoch and rate, and no
    /// optimizer step is taken.
    @Test func nonFiniteLossStopsWithTrainingDivergedError() throws {
        let reference = try SentenceFineTuneReference.load()
        let trainer = try reference.makeTrainer("mnrl")
        let index = try #require(trainer.encoder.parameters.index(of: "encoder.layer.1.output.dense.bias"))
        trainer.encoder.parameters.values[index] = Tensor(shape: trainer.encoder.parameters.values[index].shape, repeating: .infinity)
        let batch = try #require(reference.runs["mnrl"]).batches[0]
        let error = try #require(throws: TrainingDivergedError.self) {
            try trainer.train(batch.columns.map(\.sequences), epoch: 3)
        }
        #expect(error.epoch == 3)
        #expect(trainer.optimizerSteps == 0)
    }

    @Test func malformedBatchesAndSettingsAreRefusedByName() throws {
        let reference = try SentenceFineTuneReference.load()
        let ranking = try reference.makeTrainer("mnrl")
        #expect(throws: ModelError.self) { try ranking.train([[[2, 9, 3]]]) }                      // anchors only
        #expect(throws: ModelError.self) { try ranking.train([[[2, 9, 3]], [[2, 3], [2, 3]]]) }     // uneven columns
        #expect(throws: ModelError.self) { try ranking.train([[[2, 9, 3]], [[]]]) }                 // empty text
        #expect(throws: ModelError.self) { try ranking.train([[[2, 9, 3]], [[2, 3]]], scores: [1]) }
        let cosine = try reference.makeTrainer("cosine")
        #expect(throws: ModelError.self) { try cosine.train([[[2, 9, 3]], [[2, 3]]]) }              // no scores
        #expect(throws: ModelError.self) { try cosine.train([[[2, 9, 3]], [[2, 3]]], scores: [.nan]) }
        #expect(ranking.optimizerSteps == 0 && cosine.optimizerSteps == 0)

        let encoder = try TrainableEncoder(checkpoint: reference.modelURL)
        let schedule = try LinearWarmupSchedule(trainingSteps: 10)
        for (setting, rate, scale) in [("learningRate", Float(0), Float(20)), ("learningRate", .nan, 20), ("scale", 1e-3, 0)] {
            let error = try #require(throws: TrainingSettingError.self) {
                try SentenceEncoderTrainer(encoder: encoder, pooling: [.mean], normalizes: true,
                                           loss: .multipleNegativesRanking(scale: scale), padID: 0, learningRate: rate, schedule: schedule)
            }
            #expect(error.setting == setting)
        }
    }
}

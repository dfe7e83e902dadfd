import Foundation
import NLUCore
@testable import NLUIntents
import NLUTestSupport
import NLUTransformers
import Testing

/// The run `scripts/fixtures/intent_finetune.py` records: minilm-tiny with a 4-intent head, 20 AdamW
/// steps of Trainer's loop in PyTorch (float32, dropout off, accumulation 2, clipping at 1, warm-up 2).
struct IntentFineTuneReference: Decodable {
    struct Batch: Decodable {
        var input_ids: [[Int32]]
        var attention_mask: [[Int32]]
        var labels: [Int32]
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
    struct Head: Decodable {
        var weight: Values
        var bias: Values
    }
    struct After: Decodable {
        var head: Head
        var encoder: [String: Values]
        var losses: [Float]
    }
    var checkpoint: String
    var learningRate: Float
    var weightDecay: Float
    var maxGradNorm: Float
    var warmupSteps: Int
    var trainingSteps: Int
    var accumulationSteps: Int
    var batches: [Batch]
    var head: Head
    var steps: [Step]
    var after: After
    /// The same steps with the loss label-smoothed.
    struct LabelSmoothed: Decodable {
        var labelSmoothing: Float
        var steps: [Step]
        var head: Head
    }
    var labelSmoothed: LabelSmoothed

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func load() throws -> IntentFineTuneReference {
        let url = fixtures.appendingPathComponent("training/intent-finetune.json")
        return try JSONDecoder().decode(IntentFineTuneReference.self, from: Data(contentsOf: url))
    }

    var checkpointURL: URL { Self.fixtures.appendingPathComponent(checkpoint) }

    func encoderBatches() throws -> [EncoderBatch] {
        try batches.map { batch in
            try EncoderBatch(batchSize: batch.input_ids.count, sequenceLength: batch.input_ids[0].count,
                             tokenIDs: batch.input_ids.flatMap { $0 }, attentionMask: batch.attention_mask.flatMap { $0 })
        }
    }

    /// A trainer from the reference's checkpoint, head and settings.
    func makeTrainer(labelSmoothing: Float = 0) throws -> EncoderClassifierTrainer {
        let encoder = try TrainableEncoder(checkpoint: checkpointURL)
        let head = try Linear(weight: Tensor(shape: head.weight.shape, scalars: head.weight.values),
                              bias: Tensor(shape: head.bias.shape, scalars: head.bias.values))
        return try EncoderClassifierTrainer(
            encoder: encoder, pooling: [.mean], head: head, learningRate: learningRate, weightDecay: weightDecay,
            maxGradientNorm: maxGradNorm, schedule: LinearWarmupSchedule(trainingSteps: trainingSteps, warmupSteps: warmupSteps),
            accumulationSteps: accumulationSteps, batchesPerEpoch: batches.count, labelSmoothing: labelSmoothing)
    }

    /// Runs the trainer over the batches, epoch after epoch, until `trainingSteps` optimizer steps.
    func run(_ trainer: EncoderClassifierTrainer) throws -> [FineTuningStep] {
        let encoderBatches = try encoderBatches()
        var steps: [FineTuningStep] = []
        while steps.count < trainingSteps {
            for (batch, reference) in zip(encoderBatches, batches) where steps.count < trainingSteps {
                if let step = try trainer.train(batch, labels: reference.labels).completedStep { steps.append(step) }
            }
        }
        return steps
    }
}

@Suite struct EncoderClassifierTrainerTests {
    /// The bar: the loss at every one of 20 AdamW steps within 1e-5 relative of PyTorch's.
    @Test func twentyStepsMatchPyTorchLossAtEveryStep() throws {
        let reference = try IntentFineTuneReference.load()
        let trainer = try reference.makeTrainer()
        let steps = try reference.run(trainer)
        #expect(steps.count == 20)
        var worst: Float = 0
        for (ours, theirs) in zip(steps, reference.steps) {
            let relative = abs(ours.loss - theirs.loss) / abs(theirs.loss)
            worst = max(worst, relative)
            #expect(relative <= 1e-5, "step \(ours.step): loss \(ours.loss), PyTorch \(theirs.loss)")
            #expect(abs(ours.learningRate - theirs.learningRate) <= 1e-9 + 1e-6 * theirs.learningRate, "step \(ours.step)")
            #expect(abs(ours.gradientNorm - theirs.gradientNorm) <= 1e-4 * theirs.gradientNorm, "step \(ours.step) norm")
        }
        print("largest relative loss difference over 20 steps: \(worst)")
        for (batch, (encoderBatch, loss)) in zip(reference.batches, zip(try reference.encoderBatches(), reference.after.losses)) {
            let ours = try trainer.loss(encoderBatch, labels: batch.labels)
            #expect(abs(ours - loss) <= 1e-5 * loss, "loss after 20 steps: \(ours), PyTorch \(loss)")
        }
    }

    /// The head and encoder weights after the 20 steps: PyTorch's within 1e-6 absolute (measured: at
    /// most 1.2e-7; each parameter has moved by up to 20 × the 2e-3 learning rate, and Adam's division
    /// by √v amplifies float rounding where a second moment is tiny, so the bound leaves room).
    @Test func weightsAfterTwentyStepsMatchPyTorch() throws {
        let reference = try IntentFineTuneReference.load()
        let trainer = try reference.makeTrainer()
        _ = try reference.run(trainer)
        var expected = reference.after.encoder
        expected["classifier.weight"] = reference.after.head.weight
        expected["classifier.bias"] = reference.after.head.bias
        let head = trainer.head.linear.tensors
        for (name, values) in expected {
            let ours = name == "classifier.weight" ? head[0] : name == "classifier.bias" ? head[1] : trainer.encoder.parameters.value(name)
            let tensor = try #require(ours, "no parameter \(name)")
            #expect(tensor.shape == values.shape, "\(name)")
            let difference = zip(tensor.scalars, values.values).map { abs($0 - $1) }.max() ?? 0
            #expect(difference <= 1e-6, "\(name): largest difference \(difference)")
        }
    }

    /// Label smoothing (Trainer's `label_smoothing_factor`, 0.1): PyTorch's run of the same 20 steps with
    /// `F.cross_entropy(label_smoothing=0.1)`, the loss at every step within 1e-5 relative and the head after
    /// them within 1e-6; the smoothed losses are not the plain run's, and the held-out loss stays unsmoothed.
    @Test func labelSmoothedStepsMatchPyTorch() throws {
        let reference = try IntentFineTuneReference.load()
        let smoothed = reference.labelSmoothed
        let trainer = try reference.makeTrainer(labelSmoothing: smoothed.labelSmoothing)
        let steps = try reference.run(trainer)
        #expect(steps.count == smoothed.steps.count)
        for (ours, theirs) in zip(steps, smoothed.steps) {
            #expect(abs(ours.loss - theirs.loss) <= 1e-5 * abs(theirs.loss), "step \(ours.step): loss \(ours.loss), PyTorch \(theirs.loss)")
            #expect(abs(ours.gradientNorm - theirs.gradientNorm) <= 1e-4 * theirs.gradientNorm, "step \(ours.step) norm")
        }
        #expect(zip(smoothed.steps, reference.steps).allSatisfy { abs($0.loss - $1.loss) > 1e-3 }, "the smoothed run is another run")
        let head = trainer.head.linear.tensors
        for (ours, theirs) in [(head[0], smoothed.head.weight), (head[1], smoothed.head.bias)] {
            let difference = zip(ours.scalars, theirs.values).map { abs($0 - $1) }.max() ?? .infinity
            #expect(ours.shape == theirs.shape && difference <= 1e-6, "head after 20 smoothed steps: largest difference \(difference)")
        }
        let batch = try reference.encoderBatches()[0], labels = reference.batches[0].labels
        let plain = SoftmaxCrossEntropy.lossAndGradient(logits: try trainer.logits(batch), targets: labels).loss
        #expect(try trainer.loss(batch, labels: labels) == plain)
        #expect(throws: TrainingSettingError.self) { try reference.makeTrainer(labelSmoothing: 1) }
    }

    /// The word-embedding rows a step does not use have their AdamW steps put off until a batch
    /// reads them (``TrainableEncoder/defersIdleEmbeddingRows``): the 20 steps' losses, the weights
    /// and the optimizer's moments are those of stepping every row at every step, bit for bit.
    @Test func puttingOffIdleEmbeddingRowsChangesNoBit() throws {
        let reference = try IntentFineTuneReference.load()
        let eager = try reference.makeTrainer(), deferred = try reference.makeTrainer()
        eager.encoder.defersIdleEmbeddingRows = false
        #expect(deferred.encoder.defersIdleEmbeddingRows)
        let eagerSteps = try reference.run(eager), deferredSteps = try reference.run(deferred)
        #expect(eagerSteps.map(\.loss.bitPattern) == deferredSteps.map(\.loss.bitPattern))
        func bits(_ tensors: [Tensor<Float>]) -> [[UInt32]] { tensors.map { $0.scalars.map(\.bitPattern) } }
        let eagerState = eager.optimizerState, deferredState = deferred.optimizerState
        #expect(bits(eagerState.firstMoments) == bits(deferredState.firstMoments))
        #expect(bits(eagerState.secondMoments) == bits(deferredState.secondMoments))
        #expect(bits(eager.encoder.parameters.values) == bits(deferred.encoder.parameters.values))
        #expect(bits(eager.head.linear.tensors) == bits(deferred.head.linear.tensors))
    }

    /// A head whose logits overflow gives a non-finite loss: the step stops with the epoch and the
    /// learning rate, and no optimizer step is taken.
    @Test func nonFiniteLossStopsWithTrainingDivergedError() throws {
        let reference = try IntentFineTuneReference.load()
        let encoder = try TrainableEncoder(checkpoint: reference.checkpointURL)
        let huge = try Linear(weight: Tensor(shape: [4, 32], repeating: 3e38), bias: Tensor(shape: [4]))
        let trainer = try EncoderClassifierTrainer(encoder: encoder, pooling: [.mean], head: huge, learningRate: 1e-3,
                                                   schedule: LinearWarmupSchedule(trainingSteps: 10), batchesPerEpoch: 5)
        let batch = try reference.encoderBatches()[0]
        let error = try #require(throws: TrainingDivergedError.self) { try trainer.train(batch, labels: reference.batches[0].labels) }
        #expect(error.epoch == 1 && error.learningRate == 1e-3)
        #expect(trainer.optimizerSteps == 0)
    }

    @Test func labelOutsideTheHeadIsRefusedNamingIt() throws {
        let reference = try IntentFineTuneReference.load()
        let trainer = try reference.makeTrainer()
        let batch = try reference.encoderBatches()[0]
        #expect(throws: ModelError.self) { try trainer.train(batch, labels: [0, 1, 4]) }
        #expect(throws: ModelError.self) { try trainer.train(batch, labels: [0, 1]) }
        #expect(trainer.optimizerSteps == 0 && trainer.microBatches == 0)
    }
}

@Suite struct FineTunedCheckpointTests {
    /// After the 20 reference steps, the saved folder reloads in NLUKit's inference encoder and gives
    /// the trainable forward's last hidden states within 1e-5 (attended positions; the two passes
    /// order their float sums differently). With NLUKIT_FINETUNE_SAVE_TO set, the folder is also
    /// saved there for `scripts/fixtures/intent_finetune.py --check-saved`.
    @Test func savedFolderReloadsWithTheTrainedOutputs() throws {
        let reference = try IntentFineTuneReference.load()
        let trainer = try reference.makeTrainer()
        _ = try reference.run(trainer)
        let destination = try TestScratch.folder().appendingPathComponent("fine-tuned")
        try trainer.encoder.save(to: destination, source: reference.checkpointURL)
        if let keep = ProcessInfo.processInfo.environment["NLUKIT_FINETUNE_SAVE_TO"] {
            try trainer.encoder.save(to: URL(fileURLWithPath: keep), source: reference.checkpointURL)
        }

        let reloaded = try EncoderModel(modelDirectory: destination)
        var worst: Float = 0
        for batch in try reference.encoderBatches() {
            let workspace = try trainer.encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
            let trained = try trainer.encoder.forward(batch, workspace: workspace).scalars
            let loaded = try reloaded.hiddenStates(batch).scalars
            let hidden = trainer.encoder.configuration.hiddenSize
            for position in 0..<(batch.batchSize * batch.sequenceLength) where batch.attentionMask[position] != 0 {
                for c in 0..<hidden { worst = max(worst, abs(trained[position * hidden + c] - loaded[position * hidden + c])) }
            }
        }
        #expect(worst <= 1e-5, "largest difference \(worst)")

        // The checkpoint's own names, F32, marked; the configuration and sentence-transformers files as they were.
        let source = try SafeTensors(contentsOf: reference.checkpointURL.appendingPathComponent("model.safetensors"))
        let saved = try SafeTensors(contentsOf: destination.appendingPathComponent("model.safetensors"))
        #expect(Set(saved.names) == Set(source.names.filter { source.info($0)?.dtype != .I64 }))
        #expect(saved.names.allSatisfy { saved.info($0)?.dtype == .F32 })
        #expect(saved.metadata["format"] == "pt")
        for file in ["config.json", "vocab.txt", "tokenizer.json", "modules.json", "1_Pooling/config.json", "2_Dense/model.safetensors"] {
            let copied = FileManager.default.contents(atPath: destination.appendingPathComponent(file).path)
            #expect(copied != nil && copied == FileManager.default.contents(atPath: reference.checkpointURL.appendingPathComponent(file).path), "\(file)")
        }
        let word = try #require(trainer.encoder.parameters.value("embeddings.word_embeddings.weight"))
        #expect(try saved.floatTensor("embeddings.word_embeddings.weight").scalars == word.scalars)

        // Saving again replaces the folder it wrote.
        try trainer.encoder.save(to: destination, source: reference.checkpointURL)
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("model.safetensors").path))
    }

    @Test func folderWithOtherFilesIsRefusedAndKept() throws {
        let reference = try IntentFineTuneReference.load()
        let encoder = try TrainableEncoder(checkpoint: reference.checkpointURL)
        let folder = try TestScratch.folder()
        let precious = folder.appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: precious)
        #expect(throws: ModelPackageError.self) { try encoder.save(to: folder, source: reference.checkpointURL) }
        #expect(FileManager.default.contents(atPath: precious.path) == Data("keep me".utf8))
        #expect(throws: ModelPackageError.self) { try encoder.save(to: reference.checkpointURL, source: reference.checkpointURL) }
    }
}

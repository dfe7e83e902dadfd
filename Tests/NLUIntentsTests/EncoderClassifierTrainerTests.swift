import Foundation
import NLUCore
@testable import NLUIntents
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
    func makeTrainer() throws -> EncoderClassifierTrainer {
        let encoder = try TrainableEncoder(checkpoint: checkpointURL)
        let head = try Linear(weight: Tensor(shape: head.weight.shape, scalars: head.weight.values),
                              bias: Tensor(shape: head.bias.shape, scalars: head.bias.values))
        return try EncoderClassifierTrainer(
            encoder: encoder, pooling: [.mean], head: head, learningRate: learningRate, weightDecay: weightDecay,
            maxGradientNorm: maxGradNorm, schedule: LinearWarmupSchedule(trainingSteps: trainingSteps, warmupSteps: warmupSteps),
            accumulationSteps: accumulationSteps, batchesPerEpoch: batches.count)
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

    /// The head and encoder weights after the 20 steps: PyTorch's within 1e-4 absolute (each parameter
    /// has moved by up to 20 × the 2e-3 learning rate; Adam's division by √v amplifies float rounding
    /// where a moment is tiny).
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
            #expect(difference <= 1e-4, "\(name): largest difference \(difference)")
        }
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

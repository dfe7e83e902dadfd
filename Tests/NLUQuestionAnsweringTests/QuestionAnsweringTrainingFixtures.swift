import Foundation
import NLUCore
@testable import NLUQuestionAnswering

/// The references `scripts/fixtures/qa_finetune.py` writes: run_qa's windows of `qa/squad-train.json`,
/// BertForQuestionAnswering's gradients (float64) on three of them, and 20 AdamW steps (float32) with the
/// pipeline's answers after them, all from `qa/bert-tiny`.
enum QATrainingFixtures {
    static let fixtures = QAFixtures.directory.deletingLastPathComponent()
    static let checkpoint = QAFixtures.model("bert-tiny")
    static let squad = QAFixtures.directory.appendingPathComponent("squad-train.json")

    struct Window: Decodable {
        var id: String
        var input_ids: [Int32]
        var token_type_ids: [Int32]
        var start: Int
        var end: Int
    }

    struct Windows: Decodable {
        var maxLength: Int
        var stride: Int
        var skipped: [String]
        var windows: [Window]
    }

    /// A padded batch as DataCollatorWithPadding makes it, with its answer positions.
    struct Batch: Decodable {
        var input_ids: [[Int32]]
        var token_type_ids: [[Int32]]
        var attention_mask: [[Int32]]
        var start_positions: [Int]
        var end_positions: [Int]

        func encoderBatch() throws -> EncoderBatch {
            try EncoderBatch(batchSize: input_ids.count, sequenceLength: input_ids[0].count, tokenIDs: input_ids.flatMap { $0 },
                             tokenTypeIDs: token_type_ids.flatMap { $0 }, attentionMask: attention_mask.flatMap { $0 })
        }
    }

    struct Gradient: Decodable {
        var shape: [Int]
        var values: [Double]?
        var rows: [String: [Double]]?

        /// Row-major values; embedding tables are stored by their nonzero rows.
        var dense: [Double] {
            if let values { return values }
            let width = shape.count > 1 ? shape[1] : 1
            var result = [Double](repeating: 0, count: shape.reduce(1, *))
            for (row, line) in rows ?? [:] {
                guard let index = Int(row) else { continue }
                for (column, value) in line.enumerated() { result[index * width + column] = value }
            }
            return result
        }
    }

    struct Gradients: Decodable {
        var batch: Batch
        var loss: Double
        var start_logits: [Double]
        var end_logits: [Double]
        var gradients: [String: Gradient]
    }

    struct Step: Decodable {
        var loss: Float
        var learningRate: Float
        var gradientNorm: Float
    }

    struct Finetune: Decodable {
        var learningRate: Float
        var weightDecay: Float
        var maxGradNorm: Float
        var warmupSteps: Int
        var trainingSteps: Int
        var accumulationSteps: Int
        var batches: [Batch]
        var steps: [Step]
        var losses: [Float]
        var pipeline: [PipelineCase]
    }

    /// `pipeline("question-answering")(question, context, top_k=2)` on the trained model.
    struct PipelineCase: Decodable {
        var id: String
        var question: String
        var context: String
        var answers: [QAFixtures.PipelineAnswer]
    }

    static func load<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    /// A trainer from bert-tiny and its own `qa_outputs`, with the 20-step run's settings.
    static func makeTrainer(_ reference: Finetune) throws -> QuestionAnsweringTrainer {
        let encoder = try TrainableEncoder(checkpoint: checkpoint, ignoringTaskHead: true)
        let weights = try CheckpointDirectory(checkpoint).weights()
        guard let head = try QuestionAnsweringHead.stored(in: weights, hiddenSize: encoder.configuration.hiddenSize) else {
            throw CheckpointError.missingTensor(name: QuestionAnsweringHead.tensorNames.weight, file: "qa/bert-tiny/model.safetensors")
        }
        return try QuestionAnsweringTrainer(
            encoder: encoder, head: head, learningRate: reference.learningRate, weightDecay: reference.weightDecay,
            maxGradientNorm: reference.maxGradNorm,
            schedule: LinearWarmupSchedule(trainingSteps: reference.trainingSteps, warmupSteps: reference.warmupSteps),
            accumulationSteps: reference.accumulationSteps, batchesPerEpoch: reference.batches.count)
    }

    /// Runs the trainer over the reference batches, epoch after epoch, until its `trainingSteps` steps.
    static func run(_ trainer: QuestionAnsweringTrainer, _ reference: Finetune) throws -> [FineTuningStep] {
        var steps: [FineTuningStep] = []
        let batches = try reference.batches.map { try $0.encoderBatch() }
        while steps.count < reference.trainingSteps {
            for (batch, positions) in zip(batches, reference.batches) where steps.count < reference.trainingSteps {
                let result = try trainer.train(batch, startPositions: positions.start_positions, endPositions: positions.end_positions)
                if let step = result.completedStep { steps.append(step) }
            }
        }
        return steps
    }
}

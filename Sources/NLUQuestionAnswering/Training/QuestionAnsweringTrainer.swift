import Foundation
import NLUCore
import NLUTransformers

/// Fine-tunes a BERT-family encoder with a question-answering span head (``QuestionAnsweringHead``) one
/// micro-batch of windows at a time, with Hugging Face `Trainer`'s step as `run_qa` runs it: token ids →
/// ``TrainableEncoder`` → `qa_outputs` → start/end cross-entropy → backward through all of it → after
/// each accumulation group, gradient clipping by global norm, then AdamW with Trainer's decay groups (no
/// decay on biases and layer norms) at the rate of a linear warm-up/decay schedule. Dropout is the
/// encoder's (``TrainableEncoder/dropout``). Twenty steps match PyTorch's `BertForQuestionAnswering` run of
/// the same step (`scripts/fixtures/qa_finetune.py`).
///
/// A final class: it owns the encoder's weights, the head and the optimizer's moments, which every call
/// updates in place.
///
///     let encoder = try TrainableEncoder(checkpoint: base, ignoringTaskHead: true)
///     var random = SplitMix64(seed: 42)
///     let head = QuestionAnsweringHead(hiddenSize: encoder.configuration.hiddenSize, using: &random)
///     let trainer = try QuestionAnsweringTrainer(encoder: encoder, head: head, learningRate: 3e-5,
///                                                schedule: try LinearWarmupSchedule(trainingSteps: 1000),
///                                                batchesPerEpoch: 500)
///     for (batch, starts, ends) in batches {
///         if let step = try trainer.train(batch, startPositions: starts, endPositions: ends).completedStep { print(step.loss) }
///     }
///     try trainer.save(to: URL(fileURLWithPath: "minilm-squad"), source: base)
public final class QuestionAnsweringTrainer: FineTuningTrainer {
    /// What one micro-batch did: its own loss, and the optimizer step it completed, if it was the last of
    /// its accumulation group.
    public struct MicroBatchResult: Sendable, Equatable {
        /// The micro-batch's loss, before any update.
        public var loss: Float
        /// The step this micro-batch completed, or nil when its group goes on.
        public var completedStep: FineTuningStep?
    }

    /// The encoder being fine-tuned.
    public let encoder: TrainableEncoder
    /// The span head; its layer is updated with the encoder.
    public private(set) var head: QuestionAnsweringHead
    /// The span head's weight and bias (``FineTuningTrainer``).
    public var headTensors: [Tensor<Float>] {
        get { head.linear.tensors }
        set { head.linear.tensors = newValue }
    }
    /// The run's optimizer side.
    public let steps: FineTuningSteps
    /// The buffers of the last batch shape: consecutive batches of one shape reuse them.
    private var workspace: EncoderTrainingWorkspace?

    /// A trainer of `encoder` with `head` (its input the encoder's hidden size). `schedule` counts optimizer
    /// steps (one per `accumulationSteps` micro-batches; epochs are `batchesPerEpoch` micro-batches, and the
    /// last group of an epoch may be shorter, as in Trainer).
    /// - Throws: ``TrainingSettingError`` naming the setting for a learning rate, weight decay or maximum
    ///   gradient norm that is negative or not finite (the norm must be above 0), accumulation steps or
    ///   batches per epoch below 1, or a head whose input is not the hidden size.
    public init(encoder: TrainableEncoder, head: QuestionAnsweringHead, learningRate: Float, weightDecay: Float = 0,
                maxGradientNorm: Float = 1, schedule: LinearWarmupSchedule, accumulationSteps: Int = 1,
                batchesPerEpoch: Int) throws {
        let hidden = encoder.configuration.hiddenSize
        guard head.linear.inputSize == hidden else {
            throw TrainingSettingError(setting: "head", value: "a [2, \(head.linear.inputSize)] layer",
                                       requirement: "a [2, \(hidden)] layer over the encoder's hidden states")
        }
        let names = [QuestionAnsweringHead.tensorNames.weight, QuestionAnsweringHead.tensorNames.bias]
        steps = try FineTuningSteps(encoder: encoder, headParameterNames: names, head: head.linear.tensors, learningRate: learningRate,
                                    weightDecay: weightDecay, maxGradientNorm: maxGradientNorm, schedule: schedule,
                                    accumulationSteps: accumulationSteps, batchesPerEpoch: batchesPerEpoch)
        self.encoder = encoder
        self.head = head
    }

    /// Trains on one micro-batch of windows: `startPositions` and `endPositions` hold one token position per
    /// window of `batch`. The gradients add up over the accumulation group; the group's last micro-batch
    /// clips them and takes the optimizer step.
    /// - Throws: `ModelError` for a position count that is not the batch size or a batch the encoder
    ///   refuses; ``TrainingDivergedError`` for a non-finite loss (nothing is updated by that micro-batch).
    @discardableResult
    public func train(_ batch: EncoderBatch, startPositions: [Int], endPositions: [Int]) throws -> MicroBatchResult {
        try check(startPositions, endPositions, for: batch)
        steps.beginMicroBatch()
        let workspace = try workspace(for: batch)
        let hidden = try encoder.forward(batch, workspace: workspace)
        let (loss, gradients) = head.lossAndGradients(hidden: hidden, startPositions: startPositions, endPositions: endPositions)
        try steps.check(loss)
        // Trainer divides each micro-batch's loss by its group's size before backward: the same factor on
        // every gradient below.
        let scale = steps.lossScale
        steps.addHeadGradients([gradients.weight, gradients.bias], times: scale)
        var dHidden = gradients.input
        if scale != 1 { dHidden.withUnsafeMutableBufferPointer { values in for i in values.indices { values[i] *= scale } } }
        try encoder.backward(dHidden, workspace: workspace)
        return MicroBatchResult(loss: loss, completedStep: steps.endMicroBatch(loss: loss, head: &head.linear.tensors))
    }

    /// The loss of `batch` against the positions with the current weights, without gradients.
    public func loss(_ batch: EncoderBatch, startPositions: [Int], endPositions: [Int]) throws -> Float {
        try check(startPositions, endPositions, for: batch)
        let hidden = try encoder.forward(batch, workspace: try workspace(for: batch))
        return head.lossAndGradients(hidden: hidden, startPositions: startPositions, endPositions: endPositions).loss
    }

    /// Start and end logits of every position of `batch` with the current weights, row-major `[batch · sequence]`
    /// (``QuestionAnsweringModel/logits(_:)``'s shape).
    public func logits(_ batch: EncoderBatch) throws -> (start: [Float], end: [Float]) {
        let (start, end) = head.logits(try encoder.forward(batch, workspace: try workspace(for: batch)))
        return (start.scalars, end.scalars)
    }

    /// Writes the encoder and the head as a `*ForQuestionAnswering` checkpoint in the Hugging Face layout,
    /// which ``QuestionAnswerer`` and transformers' pipeline load (``TrainableEncoder/save(to:source:head:)``;
    /// `source` is the checkpoint training started from).
    public func save(to destination: URL, source: URL) throws {
        let tensors = head.linear.tensors
        try encoder.save(to: destination, source: source, head: TaskModelHead(
            classSuffix: "ForQuestionAnswering",
            tensors: [QuestionAnsweringHead.tensorNames.weight: tensors[0], QuestionAnsweringHead.tensorNames.bias: tensors[1]]))
    }

    private func workspace(for batch: EncoderBatch) throws -> EncoderTrainingWorkspace {
        try encoder.workspace(reusing: &workspace, for: batch)
    }

    private func check(_ starts: [Int], _ ends: [Int], for batch: EncoderBatch) throws {
        guard starts.count == batch.batchSize, ends.count == batch.batchSize else {
            throw ModelError.invalidFeatureValue(
                "startPositions", reason: "\(starts.count) start and \(ends.count) end positions for a batch of \(batch.batchSize) windows")
        }
    }
}

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
public final class QuestionAnsweringTrainer {
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
    /// The learning rate at the peak of ``schedule``.
    public let learningRate: Float
    /// Trainer's `max_grad_norm`: the global gradient norm is clipped to it before each update.
    public let maxGradientNorm: Float
    /// The learning rate over the optimizer steps.
    public let schedule: LinearWarmupSchedule
    /// Optimizer steps taken so far.
    public private(set) var optimizerSteps = 0
    /// Micro-batches seen so far.
    public private(set) var microBatches = 0

    private let optimizer: AdamOptimizer
    private var accumulator: GradientAccumulator
    private var headGradients: [Tensor<Float>]
    /// The loss of the current accumulation group so far, as Trainer logs it.
    private var groupLoss: Float = 0
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
        guard maxGradientNorm.isFinite, maxGradientNorm > 0 else {
            throw TrainingSettingError(setting: "maxGradientNorm", value: "\(maxGradientNorm)", requirement: "a finite number > 0")
        }
        let names = encoder.parameters.names + [QuestionAnsweringHead.tensorNames.weight, QuestionAnsweringHead.tensorNames.bias]
        optimizer = try AdamOptimizer.trainerAdamW(parameterNames: names, learningRate: learningRate, weightDecay: weightDecay)
        accumulator = try GradientAccumulator(accumulationSteps: accumulationSteps, batchesPerEpoch: batchesPerEpoch)
        self.encoder = encoder
        self.head = head
        self.learningRate = learningRate
        self.maxGradientNorm = maxGradientNorm
        self.schedule = schedule
        headGradients = head.linear.tensors.map { Tensor(shape: $0.shape) }
    }

    /// Trains on one micro-batch of windows: `startPositions` and `endPositions` hold one token position per
    /// window of `batch`. The gradients add up over the accumulation group; the group's last micro-batch
    /// clips them and takes the optimizer step.
    /// - Throws: `ModelError` for a position count that is not the batch size or a batch the encoder
    ///   refuses; ``TrainingDivergedError`` for a non-finite loss (nothing is updated by that micro-batch).
    @discardableResult
    public func train(_ batch: EncoderBatch, startPositions: [Int], endPositions: [Int]) throws -> MicroBatchResult {
        try check(startPositions, endPositions, for: batch)
        if accumulator.batchInEpoch % accumulator.accumulationSteps == 0 {
            encoder.zeroGradients()
            for index in headGradients.indices { headGradients[index].withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            groupLoss = 0
        }
        let workspace = try workspace(for: batch)
        let hidden = try encoder.forward(batch, workspace: workspace)
        let (loss, gradients) = head.lossAndGradients(hidden: hidden, startPositions: startPositions, endPositions: endPositions)
        guard loss.isFinite else {
            throw TrainingDivergedError(epoch: microBatches / accumulator.batchesPerEpoch + 1, loss: loss,
                                        learningRate: schedule.learningRate(base: learningRate, step: optimizerSteps))
        }
        // Trainer divides each micro-batch's loss by its group's size before backward: the same factor on
        // every gradient below.
        let scale = accumulator.lossScale
        groupLoss += loss * scale
        for (index, gradient) in [gradients.weight, gradients.bias].enumerated() {
            guard let gradient else { continue }
            gradient.withUnsafeBufferPointer { source in
                headGradients[index].withUnsafeMutableBufferPointer { target in
                    for i in target.indices { target[i] += source[i] * scale }
                }
            }
        }
        var dHidden = gradients.input
        if scale != 1 { dHidden.withUnsafeMutableBufferPointer { values in for i in values.indices { values[i] *= scale } } }
        try encoder.backward(dHidden, workspace: workspace)
        microBatches += 1
        // The encoder and the head add their gradients up in place; the accumulator only counts the group.
        guard accumulator.add([]) != nil else { return MicroBatchResult(loss: loss, completedStep: nil) }
        return MicroBatchResult(loss: loss, completedStep: step())
    }

    /// The loss of `batch` against the positions with the current weights, without gradients.
    public func loss(_ batch: EncoderBatch, startPositions: [Int], endPositions: [Int]) throws -> Float {
        try check(startPositions, endPositions, for: batch)
        let hidden = try encoder.forward(batch, workspace: try workspace(for: batch))
        return head.lossAndGradients(hidden: hidden, startPositions: startPositions, endPositions: endPositions).loss
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

    /// Clips the group's gradients and updates every parameter.
    private func step() -> FineTuningStep {
        let rate = schedule.learningRate(base: learningRate, step: optimizerSteps)
        let norm = encoder.optimizerStep(optimizer, learningRate: rate, maxGradientNorm: maxGradientNorm,
                                         head: &head.linear.tensors, headGradients: &headGradients)
        optimizerSteps += 1
        return FineTuningStep(step: optimizerSteps, loss: groupLoss, learningRate: rate, gradientNorm: norm)
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

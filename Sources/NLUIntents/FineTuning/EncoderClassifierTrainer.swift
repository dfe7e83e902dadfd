import NLUCore
import NLUTransformers

/// Fine-tunes a BERT-family encoder together with a softmax classification head over its pooled
/// sentence vectors (the intent model of `nlu intents train --fine-tune`), one micro-batch at a time,
/// with Hugging Face `Trainer`'s step: token ids → ``TrainableEncoder`` → pooling (the checkpoint's
/// modes) → linear head → softmax cross-entropy (mean over the batch) → backward through all of it
/// → after each accumulation group, gradient clipping by global norm, then AdamW with Trainer's
/// decay groups (no decay on biases and layer norms) at the rate of a linear warm-up/decay schedule.
/// Dropout is the encoder's (``TrainableEncoder/dropout``; nil is none, as in the PyTorch
/// comparison). Twenty steps match PyTorch's run of the same step (`scripts/fixtures/intent_finetune.py`).
///
/// A final class: it owns the encoder's weights, the head and the optimizer's moments, which every
/// call updates in place.
///
///     let encoder = try TrainableEncoder(checkpoint: url)
///     var random = SplitMix64(seed: 42)
///     let head = Linear(inputSize: encoder.configuration.hiddenSize, outputSize: intents.count, using: &random)
///     let trainer = try EncoderClassifierTrainer(
///         encoder: encoder, pooling: [.mean], head: head, learningRate: 5e-5, weightDecay: 0.01,
///         schedule: try LinearWarmupSchedule(trainingSteps: 300, warmupRatio: 0.1),
///         accumulationSteps: 1, batchesPerEpoch: 100)
///     for (batch, labels) in batches {
///         if let step = try trainer.train(batch, labels: labels).completedStep { print(step.loss) }
///     }
public final class EncoderClassifierTrainer: FineTuningTrainer {
    /// The encoder being fine-tuned.
    public let encoder: TrainableEncoder
    /// Token embeddings to sentence vectors.
    public let pooling: TokenPooling
    /// The classification head; its layer is updated with the encoder.
    public private(set) var head: SoftmaxClassifierHead
    /// The head's weight and bias (``FineTuningTrainer``).
    public var headTensors: [Tensor<Float>] {
        get { head.linear.tensors }
        set { head.linear.tensors = newValue }
    }
    /// The run's optimizer side.
    public let steps: FineTuningSteps
    /// The training loss's label smoothing (``SoftmaxCrossEntropy``; 0: none). ``loss(_:labels:)``
    /// scores without it: a held-out loss stays the plain log-likelihood.
    public let labelSmoothing: Float
    /// The buffers of the last batch shape: consecutive batches of one shape reuse them.
    private var workspace: EncoderTrainingWorkspace?

    /// A trainer of `encoder` with `head` (`[classes, pooled width]`, plus a bias) over `pooling`.
    /// `schedule` counts optimizer steps (one per `accumulationSteps` micro-batches; epochs are
    /// `batchesPerEpoch` micro-batches, and the last group of an epoch may be shorter, as in Trainer).
    /// `headLearningRate` is the head's peak rate (nil: `learningRate`), on the same schedule.
    /// - Throws: ``TrainingSettingError`` naming the setting for a learning rate, weight decay or
    ///   maximum gradient norm that is negative or not finite (the norm must be above 0), accumulation
    ///   steps or batches per epoch below 1, a head learning rate that is not a finite number above 0, a label
    ///   smoothing outside 0 ..< 1, or a head whose input is not the pooled width or that has fewer than 2 classes.
    public init(encoder: TrainableEncoder, pooling modes: [PoolingMode], head: Linear, learningRate: Float,
                weightDecay: Float = 0, maxGradientNorm: Float = 1, schedule: LinearWarmupSchedule,
                accumulationSteps: Int = 1, batchesPerEpoch: Int, headLearningRate: Float? = nil, labelSmoothing: Float = 0) throws {
        try IntentFineTuningOptions.checkLabelSmoothing(labelSmoothing)
        let pooling = TokenPooling(modes: modes, hiddenSize: encoder.configuration.hiddenSize)
        guard !modes.isEmpty, head.inputSize == pooling.outputSize, head.bias != nil else {
            throw TrainingSettingError(setting: "head", value: "a [\(head.outputSize), \(head.inputSize)] layer\(head.bias == nil ? " without bias" : "")",
                                       requirement: "a layer with bias over the \(pooling.outputSize) pooled values (pooling modes: \(modes.map(\.rawValue)))")
        }
        guard head.outputSize >= 2 else {
            throw TrainingSettingError(setting: "classes", value: "\(head.outputSize)", requirement: "at least 2")
        }
        steps = try FineTuningSteps(encoder: encoder, headParameterNames: ["classifier.weight", "classifier.bias"], head: head.tensors,
                                    learningRate: learningRate, weightDecay: weightDecay, maxGradientNorm: maxGradientNorm,
                                    schedule: schedule, accumulationSteps: accumulationSteps, batchesPerEpoch: batchesPerEpoch,
                                    headLearningRate: headLearningRate)
        // Pooling reads attended positions only: trailing padding need not be computed.
        encoder.skipsTrailingPadding = true
        self.encoder = encoder
        self.pooling = pooling
        self.head = SoftmaxClassifierHead(linear: head)
        self.labelSmoothing = labelSmoothing
    }

    /// What one micro-batch did: its own mean loss, and the optimizer step it completed, if it was
    /// the last of its accumulation group.
    public struct MicroBatchResult: Sendable, Equatable {
        /// The micro-batch's mean cross-entropy, before any update.
        public var loss: Float
        /// The step this micro-batch completed, or nil when its group goes on.
        public var completedStep: FineTuningStep?
    }

    /// Trains on one micro-batch: `labels` holds one class index per sequence of `batch`. The
    /// gradients add up over the accumulation group; the group's last micro-batch clips them and
    /// takes the optimizer step.
    /// - Throws: `ModelError` for a label outside the head's classes, a label count that is not the
    ///   batch size, or a batch the encoder refuses; ``TrainingDivergedError`` for a non-finite loss
    ///   (nothing is updated by that micro-batch).
    @discardableResult
    public func train(_ batch: EncoderBatch, labels: [Int32]) throws -> MicroBatchResult {
        try check(labels, for: batch)
        steps.beginMicroBatch()
        let workspace = try workspace(for: batch)
        let hidden = try encoder.forward(batch, workspace: workspace)
        let pooled = pooling(hidden, attentionMask: batch.attentionMask)
        let (loss, gradients) = head.lossAndGradients(pooled: pooled, targets: labels, labelSmoothing: labelSmoothing)
        try steps.check(loss)
        // Trainer divides each micro-batch's loss by its group's size before backward: the same
        // factor on every gradient below.
        let scale = steps.lossScale
        steps.addHeadGradients([gradients.weight, gradients.bias], times: scale)
        var dPooled = gradients.input
        dPooled.withUnsafeMutableBufferPointer { values in for i in values.indices { values[i] *= scale } }
        let dHidden = pooling.backward(outputGradient: dPooled, hiddenStates: hidden, attentionMask: batch.attentionMask)
        try encoder.backward(dHidden, workspace: workspace)
        return MicroBatchResult(loss: loss, completedStep: steps.endMicroBatch(loss: loss, head: &head.linear.tensors))
    }

    /// The mean cross-entropy of `batch` against `labels` with the current weights, without gradients.
    ///
    ///     let heldOut = try trainer.loss(batch, labels: labels)
    public func loss(_ batch: EncoderBatch, labels: [Int32]) throws -> Float {
        try check(labels, for: batch)
        return SoftmaxCrossEntropy.lossAndGradient(logits: try logits(batch), targets: labels).loss
    }

    /// The class logits `[batch, classes]` of `batch` with the current weights.
    public func logits(_ batch: EncoderBatch) throws -> Tensor<Float> {
        let hidden = try encoder.forward(batch, workspace: try workspace(for: batch))
        return head.logits(pooling(hidden, attentionMask: batch.attentionMask))
    }

    private func workspace(for batch: EncoderBatch) throws -> EncoderTrainingWorkspace {
        try encoder.workspace(reusing: &workspace, for: batch)
    }

    private func check(_ labels: [Int32], for batch: EncoderBatch) throws {
        guard labels.count == batch.batchSize else {
            throw ModelError.invalidFeatureValue("labels", reason: "\(labels.count) labels for a batch of \(batch.batchSize) sequences")
        }
        let classes = head.linear.outputSize
        if let label = labels.first(where: { !(0..<Int32(classes)).contains($0) }) {
            throw ModelError.invalidFeatureValue("labels", reason: "label \(label) is outside the head's \(classes) classes (0..<\(classes))")
        }
    }
}

import NLUCore
import NLUTransformers

/// Fine-tunes a sentence-transformers model (a BERT-family encoder, its pooling and, if the model
/// has one, its `Normalize` module) with one of sentence-transformers' losses, one batch per
/// optimizer step, as `SentenceTransformerTrainer` steps: token ids → ``TrainableEncoder`` → pooling
/// → normalization → ``SentenceTrainingLoss`` over the batch's columns → backward through all of it →
/// gradient clipping by global norm → AdamW with Trainer's decay groups (no decay on biases and layer
/// norms) at the rate of a linear warm-up/decay schedule. Dropout is the encoder's
/// (``TrainableEncoder/dropout``; nil is none). Twenty steps of each loss match PyTorch's run of
/// sentence-transformers' own loss (`scripts/fixtures/sentence_finetune.py`).
///
/// The columns of a batch (anchors, positives, hard negatives; or the two sides of scored pairs) run
/// through the encoder as one batch padded to the longest text, which gives the embeddings
/// sentence-transformers computes column by column (padding is masked out).
///
/// A final class: it owns the encoder's weights and the optimizer's moments, which every step updates.
///
///     let encoder = try TrainableEncoder(checkpoint: url)
///     let trainer = try SentenceEncoderTrainer(
///         encoder: encoder, pooling: [.mean], normalizes: true, loss: .multipleNegativesRanking(scale: 20),
///         padID: 0, learningRate: 2e-5, schedule: try LinearWarmupSchedule(trainingSteps: 100, warmupRatio: 0.1))
///     let step = try trainer.train([anchorIDs, positiveIDs])   // each column: one token-id array per example
///     print(step.loss)
public final class SentenceEncoderTrainer {
    /// The encoder being fine-tuned.
    public let encoder: TrainableEncoder
    /// Token embeddings to sentence vectors.
    public let pooling: TokenPooling
    /// Whether sentence vectors are scaled to unit length (the model's `Normalize` module).
    public let normalizes: Bool
    /// The loss over each batch.
    public let loss: SentenceTrainingLoss
    /// The token id that pads shorter texts (the tokenizer's).
    public let padID: Int32
    /// The learning rate at the peak of ``schedule``.
    public let learningRate: Float
    /// Trainer's `max_grad_norm`: the global gradient norm is clipped to it before each update.
    public let maxGradientNorm: Float
    /// The learning rate over the optimizer steps.
    public let schedule: LinearWarmupSchedule
    /// Optimizer steps taken so far (one per batch).
    public private(set) var optimizerSteps = 0

    /// AdamW's moments and step count: saved with a checkpoint, restored on resume.
    public var optimizerState: AdamOptimizer.State {
        get { optimizer.state }
        set { optimizer.state = newValue }
    }

    private let optimizer: AdamOptimizer
    /// The buffers of the last batch shape: consecutive batches of one shape reuse them.
    private var workspace: EncoderTrainingWorkspace?

    /// A trainer of `encoder` pooled by `modes`, normalized if `normalizes`, minimising `loss`.
    /// `schedule` counts optimizer steps; `optimizerSteps` is where a resumed run starts on it.
    /// - Throws: ``TrainingSettingError`` naming the setting for no pooling mode, a learning rate
    ///   that is not above 0 and finite, a negative or non-finite weight decay, a maximum gradient
    ///   norm not above 0, a ranking scale that is not above 0 and finite, or `optimizerSteps` outside
    ///   the schedule.
    public init(encoder: TrainableEncoder, pooling modes: [PoolingMode], normalizes: Bool, loss: SentenceTrainingLoss,
                padID: Int32, learningRate: Float, weightDecay: Float = 0.01, maxGradientNorm: Float = 1,
                schedule: LinearWarmupSchedule, optimizerSteps: Int = 0) throws {
        guard !modes.isEmpty else {
            throw TrainingSettingError(setting: "pooling", value: "no mode", requirement: "at least one pooling mode")
        }
        guard learningRate.isFinite, learningRate > 0 else {
            throw TrainingSettingError(setting: "learningRate", value: "\(learningRate)", requirement: "a finite number above 0")
        }
        guard maxGradientNorm.isFinite, maxGradientNorm > 0 else {
            throw TrainingSettingError(setting: "maxGradientNorm", value: "\(maxGradientNorm)", requirement: "a finite number above 0")
        }
        if case .multipleNegativesRanking(let scale) = loss, !(scale.isFinite && scale > 0) {
            throw TrainingSettingError(setting: "scale", value: "\(scale)", requirement: "a finite number above 0 (sentence-transformers uses 20)")
        }
        guard (0...schedule.trainingSteps).contains(optimizerSteps) else {
            throw TrainingSettingError(setting: "optimizerSteps", value: "\(optimizerSteps)",
                                       requirement: "between 0 and the schedule's \(schedule.trainingSteps) steps")
        }
        optimizer = try AdamOptimizer.trainerAdamW(parameterNames: encoder.parameters.names, learningRate: learningRate,
                                                   weightDecay: weightDecay)
        // Pooling reads attended positions only: trailing padding need not be computed.
        encoder.skipsTrailingPadding = true
        self.encoder = encoder
        pooling = TokenPooling(modes: modes, hiddenSize: encoder.configuration.hiddenSize)
        self.normalizes = normalizes
        self.loss = loss
        self.padID = padID
        self.learningRate = learningRate
        self.maxGradientNorm = maxGradientNorm
        self.schedule = schedule
        self.optimizerSteps = optimizerSteps
    }

    /// One optimizer step on one batch. `columns` holds, for each column, one token-id sequence
    /// (`[CLS] … [SEP]`, unpadded) per example: anchors, positives and any hard-negative columns for
    /// the ranking loss; the two sides of each pair, with `scores` (one per pair), for the cosine loss.
    /// `epoch` only names the epoch in a ``TrainingDivergedError``.
    /// - Throws: `ModelError` for columns of unequal length, too few or too many columns, an empty
    ///   or over-long sequence, missing or extra scores; ``TrainingDivergedError`` for a non-finite loss
    ///   (no weight is updated by that batch).
    @discardableResult
    public func train(_ columns: [[[Int32]]], scores: [Float]? = nil, epoch: Int = 1) throws -> FineTuningStep {
        try check(columns, scores: scores)
        encoder.zeroGradients()
        let batch = try EncoderBatch(tokenIDs: columns.flatMap { $0 }, padID: padID)
        let workspace = try workspace(for: batch)
        let hidden = try encoder.forward(batch, workspace: workspace)
        let pooled = pooling(hidden, attentionMask: batch.attentionMask)
        let embeddings = normalizes ? L2Normalization()(pooled) : pooled
        let (value, gradients) = lossAndGradients(embeddings, columns: columns.count, scores: scores)
        guard value.isFinite else {
            throw TrainingDivergedError(epoch: epoch, loss: value, learningRate: schedule.learningRate(base: learningRate, step: optimizerSteps))
        }
        var dEmbeddings = gradients
        if normalizes { dEmbeddings = L2Normalization().backward(outputGradient: dEmbeddings, input: pooled) }
        let dHidden = pooling.backward(outputGradient: dEmbeddings, hiddenStates: hidden, attentionMask: batch.attentionMask)
        try encoder.backward(dHidden, workspace: workspace)
        return step(loss: value)
    }

    /// The loss of a batch (as ``train(_:scores:epoch:)`` takes it) with the current weights, without gradients.
    public func loss(_ columns: [[[Int32]]], scores: [Float]? = nil) throws -> Float {
        try check(columns, scores: scores)
        let embeddings = try self.embeddings(columns.flatMap { $0 })
        return lossAndGradients(embeddings, columns: columns.count, scores: scores).loss
    }

    /// The sentence embeddings `[sequences, dimension]` of token-id sequences with the current weights.
    /// - Throws: `ModelError` for an empty or over-long sequence.
    public func embeddings(_ sequences: [[Int32]]) throws -> Tensor<Float> {
        try check([sequences], scores: nil, columnCountChecked: false)
        let batch = try EncoderBatch(tokenIDs: sequences, padID: padID)
        let hidden = try encoder.forward(batch, workspace: try workspace(for: batch))
        let pooled = pooling(hidden, attentionMask: batch.attentionMask)
        return normalizes ? L2Normalization()(pooled) : pooled
    }

    /// The loss and d(loss)/d(embeddings) for the embeddings of all columns stacked, `[columns × rows, dimension]`.
    private func lossAndGradients(_ embeddings: Tensor<Float>, columns: Int, scores: [Float]?) -> (loss: Float, gradient: Tensor<Float>) {
        let dimension = embeddings.shape[1], rows = embeddings.shape[0] / columns
        let scalars = embeddings.scalars
        let split = (0..<columns).map { column in
            Tensor(shape: [rows, dimension], scalars: Array(scalars[(column * rows * dimension)..<((column + 1) * rows * dimension)]))
        }
        let (value, gradients): (Float, [Tensor<Float>])
        switch loss {
        case .multipleNegativesRanking(let scale):
            (value, gradients) = MultipleNegativesRankingLoss(scale: scale).lossAndGradients(embeddings: split)
        case .cosineSimilarity:
            (value, gradients) = CosineSimilarityLoss().lossAndGradients(embeddings: split, labels: scores ?? [])
        }
        return (value, Tensor(shape: embeddings.shape, scalars: gradients.flatMap(\.scalars)))
    }

    /// Clips the gradients and updates every parameter.
    private func step(loss: Float) -> FineTuningStep {
        let rate = schedule.learningRate(base: learningRate, step: optimizerSteps)
        var noHead: [Tensor<Float>] = [], noHeadGradients: [Tensor<Float>] = []
        let norm = encoder.optimizerStep(optimizer, learningRate: rate, maxGradientNorm: maxGradientNorm,
                                         head: &noHead, headGradients: &noHeadGradients)
        optimizerSteps += 1
        return FineTuningStep(step: optimizerSteps, loss: loss, learningRate: rate, gradientNorm: norm)
    }

    private func workspace(for batch: EncoderBatch) throws -> EncoderTrainingWorkspace {
        try encoder.workspace(reusing: &workspace, for: batch)
    }

    private func check(_ columns: [[[Int32]]], scores: [Float]?, columnCountChecked: Bool = true) throws {
        if columnCountChecked {
            switch loss {
            case .multipleNegativesRanking:
                guard columns.count >= 2 else {
                    throw ModelError.invalidFeatureValue("columns", reason: "\(columns.count) column(s); the ranking loss needs anchors and positives, then optional hard negatives")
                }
                guard scores == nil else { throw ModelError.invalidFeatureValue("scores", reason: "the ranking loss takes no scores") }
            case .cosineSimilarity:
                guard columns.count == 2 else {
                    throw ModelError.invalidFeatureValue("columns", reason: "\(columns.count) column(s); the cosine loss compares 2")
                }
                guard let scores, scores.count == columns[0].count else {
                    throw ModelError.invalidFeatureValue("scores", reason: "\(scores?.count ?? 0) scores for \(columns[0].count) pairs")
                }
                if let score = scores.first(where: { !$0.isFinite }) {
                    throw ModelError.invalidFeatureValue("scores", reason: "score \(score) is not a number")
                }
            }
        }
        let rows = columns[0].count
        guard rows >= 1, columns.allSatisfy({ $0.count == rows }) else {
            throw ModelError.invalidFeatureValue("columns", reason: "columns of \(columns.map(\.count)) texts; each needs the same number, at least 1")
        }
        let positions = encoder.configuration.maxSequenceLength
        if let sequence = columns.joined().first(where: { !(1...positions).contains($0.count) }) {
            throw ModelError.invalidFeatureValue("tokenIDs", reason: "a sequence of \(sequence.count) tokens; the model takes 1 to \(positions)")
        }
    }
}

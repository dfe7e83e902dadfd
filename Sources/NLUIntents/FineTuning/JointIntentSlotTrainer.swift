import NLUCore
import NLUTransformers

/// Fine-tunes a ``JointIntentSlotModel`` one micro-batch at a time with JointBERT's loss and Hugging
/// Face `Trainer`'s step: intent cross-entropy (mean over the sequences) + `slotLossCoefficient` ×
/// the slot loss, which is the cross-entropy of every word's first-piece logits (mean over the words)
/// or, with a CRF, the mean over the sequences of the CRF's negative log-likelihood of their words'
/// tags; backward through heads, CRF, pooling and encoder; after each accumulation group, clipping by
/// global norm and AdamW with Trainer's decay groups (the CRF's transitions decay, as Trainer decays
/// them) at the rate of a linear warm-up/decay schedule. Dropout before the heads (JointBERT's) is
/// `headDropout`; the encoder's is its own. Twenty steps match PyTorch's run of the same model
/// (`scripts/fixtures/joint_intent_slot.py`).
///
/// A final class: it owns the model's weights and the optimizer's moments, updated in place.
///
///     let trainer = try JointIntentSlotTrainer(model: model, learningRate: 5e-5, weightDecay: 0.01,
///                                              schedule: try LinearWarmupSchedule(trainingSteps: 300, warmupRatio: 0.1),
///                                              batchesPerEpoch: 100)
///     if let step = try trainer.train(batch).completedStep { print(step.loss) }
public final class JointIntentSlotTrainer: FineTuningTrainer {
    /// The model being trained.
    public let model: JointIntentSlotModel
    /// The intent and slot heads' and the CRF's tensors (``JointIntentSlotModel/headParameterNames``; ``FineTuningTrainer``).
    public var headTensors: [Tensor<Float>] {
        get { model.headTensors }
        set { model.headTensors = newValue }
    }
    /// JointBERT's `slot_loss_coef`: the weight of the slot loss beside the intent loss.
    public let slotLossCoefficient: Float
    /// The probability of dropout on the pooled vector and the word states before the heads.
    public let headDropout: Float
    /// The run's optimizer side.
    public let steps: FineTuningSteps
    private var dropoutGenerator: SplitMix64

    /// A trainer of `model`; `schedule` counts optimizer steps (one per `accumulationSteps`
    /// micro-batches; epochs are `batchesPerEpoch` micro-batches); `headLearningRate` is the peak rate of the
    /// heads and the CRF (nil: `learningRate`), on the same schedule.
    /// - Throws: ``TrainingSettingError`` naming a learning rate, weight decay, gradient norm or slot
    ///   loss coefficient that is negative or not finite, a head dropout outside 0 ..< 1, or
    ///   accumulation steps or batches per epoch below 1.
    public init(model: JointIntentSlotModel, slotLossCoefficient: Float = 1, headDropout: Float = 0, learningRate: Float,
                weightDecay: Float = 0, maxGradientNorm: Float = 1, schedule: LinearWarmupSchedule,
                accumulationSteps: Int = 1, batchesPerEpoch: Int, seed: UInt64 = 0, headLearningRate: Float? = nil) throws {
        guard slotLossCoefficient.isFinite, slotLossCoefficient >= 0 else {
            throw TrainingSettingError(setting: "slotLossCoefficient", value: "\(slotLossCoefficient)", requirement: "a finite number ≥ 0")
        }
        guard headDropout >= 0, headDropout < 1 else {
            throw TrainingSettingError(setting: "headDropout", value: "\(headDropout)", requirement: "at least 0 and below 1")
        }
        steps = try FineTuningSteps(encoder: model.encoder, headParameterNames: model.headParameterNames, head: model.headTensors,
                                    learningRate: learningRate, weightDecay: weightDecay, maxGradientNorm: maxGradientNorm,
                                    schedule: schedule, accumulationSteps: accumulationSteps, batchesPerEpoch: batchesPerEpoch,
                                    headLearningRate: headLearningRate)
        self.model = model
        self.slotLossCoefficient = slotLossCoefficient
        self.headDropout = headDropout
        dropoutGenerator = SplitMix64(seed: seed)
    }

    /// What one micro-batch did: its joint loss before the update, and the optimizer step it completed.
    public struct MicroBatchResult: Sendable, Equatable {
        /// Intent loss + coefficient × slot loss of the micro-batch.
        public var loss: Float
        /// The step this micro-batch completed, or nil when its group goes on.
        public var completedStep: FineTuningStep?
    }

    /// Trains on one micro-batch: the gradients add up over the accumulation group; its last
    /// micro-batch clips them and takes the optimizer step.
    /// - Throws: `ModelError` for an intent or tag outside the heads or a batch the encoder refuses;
    ///   ``TrainingDivergedError`` for a non-finite loss (nothing is updated by that micro-batch).
    @discardableResult
    public func train(_ batch: JointIntentSlotBatch) throws -> MicroBatchResult {
        try check(batch)
        steps.beginMicroBatch()
        // Trainer divides each micro-batch's loss by its group's size before backward.
        let loss = try accumulateGradients(batch, scale: steps.lossScale)
        return MicroBatchResult(loss: loss, completedStep: steps.endMicroBatch(loss: loss, head: &model.headTensors))
    }

    /// The gradients of `batch`'s joint loss with the current weights, by parameter name (the
    /// encoder's Hugging Face names and ``JointIntentSlotModel/headParameterNames``); no step is taken.
    /// Whatever the current accumulation group had gathered is dropped.
    public func gradients(of batch: JointIntentSlotBatch) throws -> [String: Tensor<Float>] {
        try check(batch)
        steps.zeroGradients()
        _ = try accumulateGradients(batch, scale: 1)
        let parameters = model.encoder.parameters
        return Dictionary(uniqueKeysWithValues: zip(parameters.names + model.headParameterNames, parameters.gradients + steps.headGradients))
    }

    /// Forward and backward of one micro-batch, adding `scale` × its gradients to the encoder's and
    /// the heads'; returns its loss.
    private func accumulateGradients(_ batch: JointIntentSlotBatch, scale: Float) throws -> Float {
        var masks: [Tensor<Float>] = []
        let dropout: ((inout Tensor<Float>) -> Void)? = headDropout > 0 ? { [self] values in masks.append(drop(&values)) } : nil
        let outputs = try model.outputs(batch.encoderBatch, wordPositions: batch.wordPositions, wordShapes: batch.wordShapes, headDropout: dropout)
        let losses = lossesAndGradients(outputs, batch)
        try steps.check(losses.loss)
        let intent = model.intentHead.backward(input: outputs.pooled, outputGradient: losses.dIntentLogits)
        var tensorGradients = [intent.weight, intent.bias]
        var dPooled = intent.input, dWords = Tensor<Float>(shape: outputs.wordStates.shape)
        if outputs.wordStates.shape[0] > 0 {
            let slot = model.slotHead.backward(input: outputs.slotInputs, outputGradient: losses.dSlotLogits)
            tensorGradients += [slot.weight, slot.bias]
            // The shape features are inputs, not states: only the hidden columns flow back into the encoder.
            dWords = model.usesWordShapes ? leadingColumns(slot.input, outputs.wordStates.shape[1]) : slot.input
        } else {
            tensorGradients += [nil, nil]
        }
        tensorGradients += losses.crf.map { Optional($0) }
        steps.addHeadGradients(tensorGradients, times: scale)
        if masks.count == 2 {
            multiply(&dPooled, by: masks[0])
            multiply(&dWords, by: masks[1])
        }
        scaleInPlace(&dPooled, by: scale)
        scaleInPlace(&dWords, by: scale)
        var dHidden = model.pooling.backward(outputGradient: dPooled, hiddenStates: outputs.hidden, attentionMask: batch.encoderBatch.attentionMask)
        scatterAdd(dWords, rows: model.flatRows(batch.wordPositions, sequenceLength: batch.encoderBatch.sequenceLength), into: &dHidden)
        try model.encoder.backward(dHidden, workspace: try model.workspace(for: batch.encoderBatch))
        return losses.loss
    }

    /// Restarts the head dropout's random numbers from `seed` (a run seeds each epoch, so that a
    /// resumed one draws what the uninterrupted one drew).
    public func reseedHeadDropout(_ seed: UInt64) {
        dropoutGenerator = SplitMix64(seed: seed)
    }

    /// The joint loss of `batch` with the current weights, without gradients (no head dropout).
    public func loss(_ batch: JointIntentSlotBatch) throws -> Float {
        try lossAndOutputs(batch).loss
    }

    /// The joint loss of `batch` and the model's outputs on it, with the current weights, without
    /// gradients (no head dropout): what scoring held-out utterances needs from one pass.
    public func lossAndOutputs(_ batch: JointIntentSlotBatch) throws -> (loss: Float, outputs: JointIntentSlotModel.Outputs) {
        try check(batch)
        let outputs = try model.outputs(batch.encoderBatch, wordPositions: batch.wordPositions, wordShapes: batch.wordShapes)
        return (lossesAndGradients(outputs, batch).loss, outputs)
    }

    /// The joint loss and its gradients with respect to the logits and the CRF's tensors.
    private func lossesAndGradients(_ outputs: JointIntentSlotModel.Outputs, _ batch: JointIntentSlotBatch)
        -> (loss: Float, dIntentLogits: Tensor<Float>, dSlotLogits: Tensor<Float>, crf: [Tensor<Float>]) {
        let (intentLoss, dIntent) = SoftmaxCrossEntropy.lossAndGradient(logits: outputs.intentLogits, targets: batch.intents)
        let coefficient = slotLossCoefficient, tags = model.slotHead.outputSize
        guard batch.wordCount > 0 else {
            let crf = model.crf.map { $0.tensors.map { Tensor<Float>(shape: $0.shape) } } ?? []
            return (intentLoss, dIntent, Tensor(shape: [0, tags]), crf)
        }
        guard let crf = model.crf else {
            let targets = batch.wordTags.flatMap { $0.map(Int32.init) }
            let (slotLoss, gradient) = SoftmaxCrossEntropy.lossAndGradient(logits: outputs.slotLogits, targets: targets)
            var dSlot = gradient
            scaleInPlace(&dSlot, by: coefficient)
            return (intentLoss + coefficient * slotLoss, dIntent, dSlot, [])
        }
        // torchcrf's reduction "mean": over the sequences (those with words; a sequence of none has no tags).
        let logits = outputs.slotLogits.scalars
        let sequences = batch.wordTags.filter { !$0.isEmpty }.count
        let weight = Double(coefficient) / Double(sequences)
        var slotLoss = 0.0
        var dSlot = [Float](repeating: 0, count: logits.count)
        var dStart = [Double](repeating: 0, count: tags), dEnd = dStart, dTransitions = [Double](repeating: 0, count: tags * tags)
        var first = 0
        for wordTags in batch.wordTags where !wordTags.isEmpty {
            let range = (first * tags)..<((first + wordTags.count) * tags)
            let (loss, gradients) = crf.negativeLogLikelihood(emissions: logits[range].map(Double.init), length: wordTags.count, tags: wordTags)
            slotLoss += loss
            for (offset, value) in gradients.emissions.enumerated() { dSlot[range.lowerBound + offset] = Float(value * weight) }
            for j in 0..<tags {
                dStart[j] += gradients.startTransitions[j] * weight
                dEnd[j] += gradients.endTransitions[j] * weight
            }
            for k in dTransitions.indices { dTransitions[k] += gradients.transitions[k] * weight }
            first += wordTags.count
        }
        let crfGradients = [Tensor(shape: [tags], scalars: dStart.map(Float.init)), Tensor(shape: [tags], scalars: dEnd.map(Float.init)),
                            Tensor(shape: [tags, tags], scalars: dTransitions.map(Float.init))]
        let loss = Double(intentLoss) + Double(coefficient) * slotLoss / Double(sequences)
        return (Float(loss), dIntent, Tensor(shape: outputs.slotLogits.shape, scalars: dSlot), crfGradients)
    }

    private func check(_ batch: JointIntentSlotBatch) throws {
        let intents = model.intentHead.outputSize, tags = model.slotHead.outputSize
        if let intent = batch.intents.first(where: { !(0..<Int32(intents)).contains($0) }) {
            throw ModelError.invalidFeatureValue("intents", reason: "intent \(intent) is outside the head's \(intents) intents (0..<\(intents))")
        }
        if let tag = batch.wordTags.joined().first(where: { !(0..<tags).contains($0) }) {
            throw ModelError.invalidFeatureValue("wordTags", reason: "tag \(tag) is outside the head's \(tags) tags (0..<\(tags))")
        }
    }

    /// Zeroes each value with probability ``headDropout`` and scales the rest by 1 / (1 − p), as
    /// `nn.Dropout` in training; returns the mask (0 or the scale) for the backward pass.
    private func drop(_ values: inout Tensor<Float>) -> Tensor<Float> {
        let keep = 1 - headDropout, scale = 1 / keep
        var mask = Tensor<Float>(shape: values.shape)
        mask.withUnsafeMutableBufferPointer { mask in
            for i in mask.indices { mask[i] = Float.random(in: 0..<1, using: &dropoutGenerator) < keep ? scale : 0 }
        }
        multiply(&values, by: mask)
        return mask
    }

    private func multiply(_ values: inout Tensor<Float>, by mask: Tensor<Float>) {
        mask.withUnsafeBufferPointer { mask in
            values.withUnsafeMutableBufferPointer { values in for i in values.indices { values[i] *= mask[i] } }
        }
    }

    private func scaleInPlace(_ values: inout Tensor<Float>, by factor: Float) {
        values.withUnsafeMutableBufferPointer { values in for i in values.indices { values[i] *= factor } }
    }

    /// The first `count` columns of `values` ([rows, width]).
    private func leadingColumns(_ values: Tensor<Float>, _ count: Int) -> Tensor<Float> {
        let rows = values.shape[0], width = values.shape[1]
        var kept = Tensor<Float>(shape: [rows, count])
        values.contiguous().withUnsafeBufferPointer { source in
            kept.withUnsafeMutableBufferPointer { target in
                for row in 0..<rows {
                    for c in 0..<count { target[row * count + c] = source[row * width + c] }
                }
            }
        }
        return kept
    }

    /// Adds each row of `rows`' gradients to its row of `hidden` ([batch, sequence, width]).
    private func scatterAdd(_ words: Tensor<Float>, rows: [Int], into hidden: inout Tensor<Float>) {
        let width = words.shape.last ?? 0
        words.withUnsafeBufferPointer { source in
            hidden.withUnsafeMutableBufferPointer { target in
                for (index, row) in rows.enumerated() {
                    for c in 0..<width { target[row * width + c] += source[index * width + c] }
                }
            }
        }
    }
}

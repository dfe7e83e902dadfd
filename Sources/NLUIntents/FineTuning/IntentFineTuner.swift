import Foundation
import NLUCore
import NLUEmbeddings
import NLUText
import NLUTransformers

/// Fine-tunes a BERT-family checkpoint (a Hugging Face or sentence-transformers folder, such as
/// all-MiniLM-L6-v2) on an ``IntentDataset``: every utterance tokenized with the checkpoint's own
/// tokenizer, pooled as its `1_Pooling` says (mean for a plain checkpoint), a softmax head over the
/// intents, and Hugging Face `Trainer`'s loop (``EncoderClassifierTrainer``) over batches of
/// similar lengths (``LengthGroupedBatches``), epoch after epoch. A seed makes a run repeat on one
/// CPU level; a non-finite loss stops it with ``TrainingDivergedError``.
///
///     let tuner = try IntentFineTuner(checkpoint: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let result = try tuner.train(dataset) { progress in
///         print("epoch \(progress.epoch) step \(progress.step)/\(progress.totalSteps) loss \(progress.loss)")
///     }
///     try result.trainer.encoder.save(to: URL(fileURLWithPath: "minilm-intents"), source: tuner.checkpoint)
public struct IntentFineTuner {
    /// The checkpoint folder training starts from.
    public let checkpoint: URL
    /// The run's settings, validated.
    public let options: IntentFineTuningOptions
    /// The checkpoint's tokenizer, pooling and length limit, read as sentence-transformers reads them.
    private let embedder: SentenceEmbedder

    /// What a run gives: the intents in head order, the trainer holding the fine-tuned encoder and
    /// head, and every optimizer step's record.
    public struct Result {
        /// Intent names; class `i` of the head is `intents[i]`.
        public var intents: [String]
        /// The encoder and head after training (``EncoderClassifierTrainer/logits(_:)`` scores batches).
        public var trainer: EncoderClassifierTrainer
        /// The optimizer steps, in order.
        public var steps: [FineTuningStep]
        /// The scores on the validation utterances after each epoch this run trained (none without them).
        public var validations: [FineTuningValidation] = []
        /// The epoch whose weights ``trainer`` holds: the best by ``IntentFineTuningOptions/keepBest``, else
        /// the last one trained (fewer than the options' epochs when early stopping ended the run).
        public var keptEpoch: Int
    }

    /// Reads the checkpoint's tokenizer and pooling and checks `options`.
    /// - Throws: ``TrainingSettingError`` naming an option out of range; the embedder's or the
    ///   checkpoint's error for a folder that is not a model.
    public init(checkpoint: URL, options: IntentFineTuningOptions = .init()) throws {
        try options.validate()
        embedder = try .forFineTuning(checkpoint, maxSequenceLength: options.maxSequenceLength)
        self.checkpoint = checkpoint
        self.options = options
    }

    /// The token ids of `text` as the checkpoint's sentence-transformers model makes them (cut to its length).
    public func tokenIDs(_ text: String) -> [Int32] { embedder.tokenIDs(text) }
    /// The padding token's id.
    public var padID: Int32 { embedder.tokenizer.padID }

    /// Tokens per utterance: the option, else the checkpoint's limit.
    public var maxSequenceLength: Int { embedder.fineTuningLength(options.maxSequenceLength) }

    /// Fine-tunes on every utterance of `dataset` (counterexamples and entities are not used),
    /// calling `progress` after each optimizer step. With `saving`, the state after each epoch is
    /// written there (then `checkpointSaved(epoch)` is called); with `resume`, the run continues from
    /// the checkpoint found there, as the uninterrupted run would have gone on (batch order and
    /// dropout are seeded per epoch). With `validation`, the model scores its utterances after each
    /// epoch (``FineTuningValidation``, handed to `validated` before the epoch's checkpoint); with
    /// ``IntentFineTuningOptions/keepBest`` the run ends holding its best epoch's weights, and stops early
    /// after ``IntentFineTuningOptions/earlyStoppingPatience`` epochs without improvement.
    /// - Throws: ``TrainingSettingError`` for a dataset with fewer than 2 intents or an intent
    ///   without utterances (named), a validation set with no utterance, `keepBest` without one, or
    ///   (setting `resume`) a checkpoint of another model, dataset, settings or validation set;
    ///   ``TrainingDivergedError`` when the loss stops being finite.
    public func train(_ dataset: IntentDataset, validation: IntentDataset? = nil, saving: IntentFineTuningCheckpoint? = nil,
                      resume: Bool = false, progress: (IntentFineTuningProgress) -> Void = { _ in },
                      validated: (FineTuningValidation) -> Void = { _ in },
                      checkpointSaved: (Int) -> Void = { _ in }) throws -> Result {
        try dataset.checkIntentsToTellApart()
        var sequences: [[Int32]] = [], labels: [Int32] = []
        let limit = maxSequenceLength
        for (label, intent) in dataset.intents.enumerated() {
            for utterance in intent.utterances {
                try TextLengthLimit.check(utterance.text, name: "an utterance of intent '\(intent.name)'")
                sequences.append(embedder.tokenIDs(utterance.text, limit: limit))
                labels.append(Int32(label))
            }
        }
        let heldOut = try validation.map { validation in
            try FineTuningValidation.labelled(validation, intents: dataset.intents.map(\.name)).map { item in
                try TextLengthLimit.check(item.utterance.text, name: "a validation utterance")
                return (tokenIDs: embedder.tokenIDs(item.utterance.text, limit: limit), label: item.label, intent: item.intent)
            }
        }

        if let heldOut { try options.keepBest?.checkScorable(knownIntentUtterances: heldOut.filter { $0.label != nil }.count, entityMentions: nil) }
        let checkpointFolder = try TrainableEncoder.checkpointDirectory(ofModel: checkpoint)
        let modelFingerprint = IntentFineTuningCheckpoint.fingerprint(ofModel: checkpointFolder)
        let datasetFingerprint = IntentFineTuningCheckpoint.fingerprint(of: dataset)
        let validationFingerprint = options.keepBest == nil ? nil : validation.map { IntentFineTuningCheckpoint.fingerprint(of: $0) }
        try saving?.checkReplaceable()
        let saved = try resume ? saving.map {
            try $0.read(model: checkpoint.path, modelFingerprint: modelFingerprint, datasetFingerprint: datasetFingerprint, options: options,
                        validationFingerprint: validationFingerprint)
        } : nil
        let encoder = try TrainableEncoder(checkpoint: saved.map { try TrainableEncoder.checkpointDirectory(ofModel: $0.encoderFolder) } ?? checkpointFolder,
                                           ignoringTaskHead: true, dropoutSeed: options.seed)
        try checkMemory(encoder: encoder, longest: sequences.map(\.count).max() ?? 1, classes: dataset.intents.count)
        encoder.dropout = EncoderDropout(probability: options.dropout)
        var headRandom = SplitMix64(seed: options.seed &+ 1)
        let pooledWidth = embedder.pooling.modes.count * encoder.configuration.hiddenSize
        let head: Linear
        if let savedHead = saved?.head {
            head = savedHead
        } else {
            head = Linear(inputSize: pooledWidth, outputSize: dataset.intents.count, using: &headRandom)
        }
        let batchesPerEpoch = (sequences.count + options.batchSize - 1) / options.batchSize
        let schedule = try LinearWarmupSchedule(epochs: options.epochs, batchesPerEpoch: batchesPerEpoch,
                                                accumulationSteps: options.accumulationSteps, warmupRatio: options.warmupRatio)
        let trainer = try EncoderClassifierTrainer(
            encoder: encoder, pooling: embedder.pooling.modes, head: head, learningRate: options.learningRate,
            weightDecay: options.weightDecay, maxGradientNorm: options.maxGradientNorm, schedule: schedule,
            accumulationSteps: options.accumulationSteps, batchesPerEpoch: batchesPerEpoch, headLearningRate: options.headLearningRate,
            labelSmoothing: options.labelSmoothing ?? 0)

        if let saved {
            try trainer.resume(optimizerState: saved.optimizerState, optimizerSteps: saved.description.optimizerSteps,
                               microBatches: saved.description.microBatches)
        }
        var loop = try IntentFineTuningCheckpoint.loop(options, validating: heldOut != nil, slots: false, saved: saved, trainer: trainer)
        let outcome = try loop.run(
            batches: { IntentFineTuningCheckpoint.epochBatches($0, lengths: sequences.map(\.count), options: options, encoder: encoder) },
            step: { members, _ in
                let batch = try EncoderBatch(tokenIDs: members.map { sequences[$0] }, padID: embedder.tokenizer.padID)
                return try trainer.train(batch, labels: members.map { labels[$0] }).completedStep
            },
            stepped: { report in
                progress(IntentFineTuningProgress(epoch: report.epoch, step: report.step.step, totalSteps: schedule.trainingSteps,
                                                  loss: report.step.loss, examplesPerSecond: report.examplesPerSecond))
            },
            validate: { epoch in try heldOut.map { try validate(trainer, on: $0, epoch: epoch) } },
            keepScore: { options.keepBest?.score($0) }, validated: validated,
            epochEnded: { end in
                guard let saving else { return }
                let description = IntentFineTuningCheckpoint.Description(
                    format: IntentFineTuningCheckpoint.format, epoch: end.epoch, optimizerSteps: trainer.optimizerSteps,
                    microBatches: trainer.microBatches, model: checkpoint.path, modelFingerprint: modelFingerprint,
                    datasetFingerprint: datasetFingerprint, options: options, intents: dataset.intents.map(\.name),
                    best: end.best, validationFingerprint: validationFingerprint)
                try saving.write(trainer, description: description, source: checkpoint,
                                 bestWeights: IntentFineTuningCheckpoint.bestWeights(end, trainer: trainer))
                checkpointSaved(end.epoch)
            })
        // The trained encoder scores as in evaluation, without dropout (the trainer's logits and loss).
        encoder.dropout = nil
        return Result(intents: dataset.intents.map(\.name), trainer: trainer, steps: outcome.steps,
                      validations: outcome.validations, keptEpoch: outcome.keptEpoch)
    }

    /// The intent accuracy and mean cross-entropy of the trainer's model on `heldOut`, without dropout (an
    /// utterance of an intent the head lacks is wrong without being run).
    private func validate(_ trainer: EncoderClassifierTrainer, on heldOut: [(tokenIDs: [Int32], label: Int32?, intent: String)],
                          epoch: Int) throws -> FineTuningValidation {
        let known = heldOut.compactMap { item in item.label.map { (tokenIDs: item.tokenIDs, label: $0) } }
        var right = 0, loss = 0.0
        try trainer.encoder.withoutDropout {
            for members in FineTuningValidation.batches(lengths: known.map(\.tokenIDs.count), batchSize: options.batchSize) {
                let batch = try EncoderBatch(tokenIDs: members.map { known[$0].tokenIDs }, padID: embedder.tokenizer.padID)
                let labels = members.map { known[$0].label }
                let logits = try trainer.logits(batch)
                loss += Double(SoftmaxCrossEntropy.lossAndGradient(logits: logits, targets: labels).loss) * Double(members.count)
                right += zip(FineTuningValidation.bestClasses(logits), labels).filter { $0 == $1 }.count
            }
        }
        return FineTuningValidation(epoch: epoch, labels: heldOut.map(\.label), intents: heldOut.map(\.intent), right: right, loss: loss)
    }

    /// The bytes a run needs at its peak (``TrainableEncoder/trainingMemoryNeeded(sequencesPerBatch:longest:headParameters:keepingBestWeights:)``
    /// with the intent head over `classes`).
    public func memoryNeeded(encoder: TrainableEncoder, longest: Int, classes: Int) -> Int? {
        encoder.trainingMemoryNeeded(sequencesPerBatch: options.batchSize, longest: longest, headParameters: headParameters(encoder, classes: classes),
                                     keepingBestWeights: options.keepBest != nil)
    }

    private func headParameters(_ encoder: TrainableEncoder, classes: Int) -> Int {
        classes * (embedder.pooling.modes.count * encoder.configuration.hiddenSize + 1)
    }

    private func checkMemory(encoder: TrainableEncoder, longest: Int, classes: Int) throws {
        try encoder.checkTrainingMemory(batchSize: options.batchSize, sequencesPerBatch: options.batchSize, longest: longest,
                                        headParameters: headParameters(encoder, classes: classes), keepingBestWeights: options.keepBest != nil)
    }

    /// The sentence features of `trainer`'s encoder as this checkpoint tokenizes and pools, saved
    /// into a model package's folder ``ModelPackage/encoderFolderName``; `model` is recorded as its origin.
    func featurizer(for trainer: EncoderClassifierTrainer, model: String) -> FineTunedEncoderFeaturizer {
        let reference = SentenceFeaturizerReference(model: model, revision: nil, dimension: trainer.pooling.outputSize,
                                                    packagedModel: ModelPackage.encoderFolderName)
        return FineTunedEncoderFeaturizer(reference: reference, source: checkpoint, encoder: trainer.encoder, pooling: trainer.pooling,
                                          embedder: embedder)
    }
}

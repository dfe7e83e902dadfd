import Foundation
import NLUCore
import NLUEmbeddings
import NLUText
import NLUTransformers

/// Fine-tunes a BERT-family checkpoint (a Hugging Face or sentence-transformers folder, such as
/// all-MiniLM-L6-v2) jointly for the intents and the entities of an ``IntentDataset``: BIO tags of
/// the annotated entity spans over the words as NLUKit counts them (``SlotTagScheme``, the CRF
/// tagger's tags: entity, role and group), each word's tag learned from its first word piece
/// (``JointUtteranceEncoding``), ``JointIntentSlotTrainer``'s step over batches of similar lengths,
/// epoch after epoch, as ``IntentFineTuner`` runs it: seeded per epoch, with a checkpoint after each
/// (``IntentFineTuningCheckpoint``) that a resumed run continues from. The result parses text
/// (``JointIntentSlotTagger``).
///
///     let tuner = try JointIntentSlotFineTuner(checkpoint: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let result = try tuner.train(dataset) { print("step \($0.step)/\($0.totalSteps) loss \($0.loss)") }
///     result.tagger.parse("book a table for 4 at 7pm").entities
public struct JointIntentSlotFineTuner {
    /// The checkpoint folder training starts from.
    public let checkpoint: URL
    /// The run's settings, validated.
    public let options: JointIntentSlotOptions
    /// The checkpoint's tokenizer, pooling and length limit, read as sentence-transformers reads them.
    private let embedder: SentenceEmbedder

    /// The most tags a model takes: far above any dataset's (Snips has 72, HWU64 109), and a bound on
    /// the slot head and the CRF's tag × tag transitions.
    public static let maximumTagCount = 4096

    /// What a run gives: the trained tagger and every optimizer step's record.
    public struct Result {
        /// The model with its tokenizer and label names.
        public var tagger: JointIntentSlotTagger
        /// The optimizer steps, in order.
        public var steps: [FineTuningStep]
        /// The scores on the validation utterances after each epoch this run trained (none without them).
        public var validations: [FineTuningValidation] = []
        /// The epoch whose weights ``tagger`` holds: the best by ``IntentFineTuningOptions/keepBest``, else
        /// the last one trained (fewer than the options' epochs when early stopping ended the run).
        public var keptEpoch: Int
    }

    /// Reads the checkpoint's tokenizer and pooling and checks `options`.
    /// - Throws: ``TrainingSettingError`` naming an option out of range; the embedder's or the
    ///   checkpoint's error for a folder that is not a model.
    public init(checkpoint: URL, options: JointIntentSlotOptions = .init()) throws {
        try options.validate()
        embedder = try SentenceEmbedder(modelDirectory: checkpoint)
        let positions = embedder.encoder.configuration.maxSequenceLength
        if let length = options.training.maxSequenceLength, length > positions {
            throw TrainingSettingError(setting: "maxSequenceLength", value: "\(length)",
                                       requirement: "at most the checkpoint's \(positions) positions")
        }
        self.checkpoint = checkpoint
        self.options = options
    }

    /// Tokens per utterance: the option, else the checkpoint's limit.
    public var maxSequenceLength: Int {
        min(options.training.maxSequenceLength ?? embedder.maxSequenceLength, embedder.encoder.configuration.maxSequenceLength)
    }

    /// One training utterance, encoded.
    private struct Example {
        var tokenIDs: [Int32]
        var intent: Int32
        var wordPositions: [Int]
        var wordTags: [Int]
        var wordShapes: [WordShape]
    }

    /// One validation utterance, encoded, with the tags of the words the slot head reads (a tag the
    /// training data never had is kept here and learned as `O` in ``Example/wordTags``).
    private struct HeldOut {
        var example: Example
        var tags: [String]
        /// The intent's class, nil for an intent the head lacks (the example's intent is then a placeholder).
        var label: Int32?
        var intent: String
    }

    /// Fine-tunes on every utterance of `dataset` (counterexamples are not used), calling `progress`
    /// after each optimizer step. With `saving`, the state after each epoch is written there (then
    /// `checkpointSaved(epoch)` is called); with `resume`, the run continues from the checkpoint found
    /// there, as the uninterrupted run would have gone on (batch order and dropout are seeded per epoch).
    /// With `validation`, the model scores its utterances after each epoch (``FineTuningValidation``
    /// with slots, handed to `validated` before the epoch's checkpoint); with
    /// ``IntentFineTuningOptions/keepBest`` the run ends holding its best epoch's weights, and stops early
    /// after ``IntentFineTuningOptions/earlyStoppingPatience`` epochs without improvement.
    /// - Throws: ``TrainingSettingError`` for fewer than 2 intents, an intent without utterances,
    ///   more than ``maximumTagCount`` tags, a run that would not fit in half of the memory (setting
    ///   `batchSize`), a validation set with no utterance, `keepBest` without one, or (setting `resume`) a
    ///   checkpoint of another model, dataset, settings or validation set; ``EntityAnnotationError`` naming an
    ///   utterance whose entity span is out of range or overlaps another; ``TrainingDivergedError``
    ///   when the loss stops being finite.
    public func train(_ dataset: IntentDataset, validation: IntentDataset? = nil, saving: IntentFineTuningCheckpoint? = nil,
                      resume: Bool = false, progress: (IntentFineTuningProgress) -> Void = { _ in },
                      validated: (FineTuningValidation) -> Void = { _ in },
                      checkpointSaved: (Int) -> Void = { _ in }) throws -> Result {
        try dataset.checkIntentsToTellApart()
        let limit = maxSequenceLength
        // Training and validation utterances alike: checked, tokenized, and their words' BIO tags.
        func encode(_ utterance: Utterance, intent: String, name: String) throws -> (JointUtteranceEncoding, [String]) {
            try TextLengthLimit.check(utterance.text, name: name)
            try EntityAnnotationError.check(utterance, intent: intent)
            let encoding = JointUtteranceEncoding(text: utterance.text, tokenizer: embedder.tokenizer, maxLength: limit)
            return (encoding, SlotTagScheme.tags(for: utterance, tokens: encoding.words))
        }
        var encoded: [(intent: Int32, encoding: JointUtteranceEncoding, tags: [String])] = []
        var slotTags = Set<String>()
        for (label, intent) in dataset.intents.enumerated() {
            for utterance in intent.utterances {
                let (encoding, tags) = try encode(utterance, intent: intent.name, name: "an utterance of intent '\(intent.name)'")
                slotTags.formUnion(tags)
                encoded.append((Int32(label), encoding, tags))
            }
        }
        // "O" first, then each slot's B- and I- tags; a slot seen only inside a mention still gets both.
        let slots = Set(slotTags.filter { $0 != SlotTagScheme.outside }.map { String($0.dropFirst(2)) }).sorted()
        let tagNames = [SlotTagScheme.outside] + slots.flatMap { ["B-" + $0, "I-" + $0] }
        guard tagNames.count <= Self.maximumTagCount else {
            throw TrainingSettingError(setting: "dataset", value: "\(tagNames.count) slot tags (entity, role and group, B- and I-)",
                                       requirement: "at most \(Self.maximumTagCount): use fewer distinct entity names, roles and groups")
        }
        let tagIndex = Dictionary(uniqueKeysWithValues: tagNames.enumerated().map { ($1, $0) })
        func example(_ intent: Int32, _ encoding: JointUtteranceEncoding, _ tags: [String]) -> Example {
            let kept = zip(encoding.firstPieces, tags).compactMap { position, tag in position.map { ($0, tagIndex[tag] ?? 0) } }
            return Example(tokenIDs: encoding.tokenIDs, intent: intent, wordPositions: kept.map(\.0), wordTags: kept.map(\.1),
                           wordShapes: encoding.positionedWordShapes)
        }
        let examples = encoded.map { example($0.intent, $0.encoding, $0.tags) }
        let heldOut = try validation.map { validation in
            try FineTuningValidation.labelled(validation, intents: dataset.intents.map(\.name)).map { item in
                let (encoding, tags) = try encode(item.utterance, intent: item.intent, name: "a validation utterance")
                return HeldOut(example: example(item.label ?? 0, encoding, tags),
                               tags: zip(encoding.firstPieces, tags).compactMap { position, tag in position == nil ? nil : tag },
                               label: item.label, intent: item.intent)
            }
        }

        if let heldOut {
            try options.training.keepBest?.checkScorable(knownIntentUtterances: heldOut.filter { $0.label != nil }.count,
                                                         entityMentions: heldOut.reduce(0) { $0 + $1.tags.filter { $0 != SlotTagScheme.outside }.count })
        }
        let training = options.training
        let checkpointFolder = try TrainableEncoder.checkpointDirectory(ofModel: checkpoint)
        let modelFingerprint = IntentFineTuningCheckpoint.fingerprint(ofModel: checkpointFolder)
        let datasetFingerprint = IntentFineTuningCheckpoint.fingerprint(of: dataset, entities: true)
        let validationFingerprint = training.keepBest == nil ? nil : validation.map { IntentFineTuningCheckpoint.fingerprint(of: $0, entities: true) }
        try saving?.checkReplaceable()
        let saved = try resume ? saving.map {
            try $0.read(model: checkpoint.path, modelFingerprint: modelFingerprint, datasetFingerprint: datasetFingerprint,
                        options: training, joint: options, validationFingerprint: validationFingerprint)
        } : nil
        let encoder = try TrainableEncoder(checkpoint: saved.map { try TrainableEncoder.checkpointDirectory(ofModel: $0.encoderFolder) } ?? checkpointFolder,
                                           ignoringTaskHead: true, dropoutSeed: training.seed)
        let hidden = encoder.configuration.hiddenSize
        // The heads: intents over the pooled vector, tags over a hidden state (and the word's shape), and the CRF's
        // tag × tag transitions.
        let tagCount = max(tagNames.count, 2), slotInputs = hidden + (options.wordShapes ? WordShape.featureCount : 0)
        try encoder.checkTrainingMemory(batchSize: training.batchSize, sequencesPerBatch: training.batchSize,
                                        longest: examples.map(\.tokenIDs.count).max() ?? 1,
                                        headParameters: dataset.intents.count * (embedder.pooling.modes.count * hidden + 1)
                                            + tagCount * (slotInputs + 1) + (options.crf ? tagCount * (tagCount + 2) : 0),
                                        keepingBestWeights: training.keepBest != nil)
        encoder.dropout = EncoderDropout(probability: training.dropout)
        var headRandom = SplitMix64(seed: training.seed &+ 1)
        var intentHead = Linear(inputSize: embedder.pooling.modes.count * hidden, outputSize: dataset.intents.count, using: &headRandom)
        // A head of one tag (no entity annotated) would learn nothing: two tags keep the shapes valid.
        var slotHead = Linear(inputSize: slotInputs, outputSize: tagCount, using: &headRandom)
        var crf = options.crf ? CRFLayer(tagCount: slotHead.outputSize, using: &headRandom) : nil
        if let saved {
            func tensor(_ name: String) throws -> Tensor<Float> {
                guard let tensor = saved.heads[name] else {
                    throw TrainingSettingError(setting: "resume", value: "\(saving?.folder.path ?? "the checkpoint") without the tensor \(name)",
                                               requirement: "a checkpoint of this joint model (start again without --resume)")
                }
                return tensor
            }
            guard saved.description.tags == tagNames else {
                throw TrainingSettingError(setting: "resume", value: "a checkpoint of other tags (\(saved.description.tags ?? []))",
                                           requirement: "the tags of this dataset, \(tagNames) (start again without --resume)")
            }
            intentHead = saved.head ?? intentHead
            slotHead = try Linear(weight: tensor("slot_classifier.weight"), bias: tensor("slot_classifier.bias"))
            crf = options.crf ? try CRFLayer(startTransitions: tensor("crf.start_transitions"), endTransitions: tensor("crf.end_transitions"),
                                             transitions: tensor("crf.transitions")) : nil
        }
        let model = try JointIntentSlotModel(encoder: encoder, pooling: embedder.pooling.modes, intentHead: intentHead, slotHead: slotHead, crf: crf)
        let batchesPerEpoch = (examples.count + training.batchSize - 1) / training.batchSize
        let schedule = try LinearWarmupSchedule(epochs: training.epochs, batchesPerEpoch: batchesPerEpoch,
                                                accumulationSteps: training.accumulationSteps, warmupRatio: training.warmupRatio)
        let trainer = try JointIntentSlotTrainer(
            model: model, slotLossCoefficient: options.slotLossCoefficient, headDropout: options.headDropout,
            learningRate: training.learningRate, weightDecay: training.weightDecay, maxGradientNorm: training.maxGradientNorm,
            schedule: schedule, accumulationSteps: training.accumulationSteps, batchesPerEpoch: batchesPerEpoch, seed: training.seed &+ 2,
            headLearningRate: training.headLearningRate)
        if let saved {
            try trainer.resume(optimizerState: saved.optimizerState, optimizerSteps: saved.description.optimizerSteps,
                               microBatches: saved.description.microBatches)
        }
        var loop = try IntentFineTuningCheckpoint.loop(training, validating: heldOut != nil, slots: true, saved: saved, trainer: trainer)
        let outcome = try loop.run(
            batches: { epoch in
                trainer.reseedHeadDropout(IntentFineTuningCheckpoint.epochSeed(training.seed, epoch: epoch) &+ 2)
                return IntentFineTuningCheckpoint.epochBatches(epoch, lengths: examples.map(\.tokenIDs.count), options: training, encoder: encoder)
            },
            step: { members, _ in try trainer.train(try batch(members.map { examples[$0] })).completedStep },
            stepped: { report in
                progress(IntentFineTuningProgress(epoch: report.epoch, step: report.step.step, totalSteps: schedule.trainingSteps,
                                                  loss: report.step.loss, examplesPerSecond: report.examplesPerSecond))
            },
            validate: { epoch in try heldOut.map { try validate(trainer, on: $0, tags: tagNames, epoch: epoch) } },
            keepScore: { training.keepBest?.score($0) }, validated: validated,
            epochEnded: { end in
                guard let saving else { return }
                let description = IntentFineTuningCheckpoint.Description(
                    format: IntentFineTuningCheckpoint.format, epoch: end.epoch, optimizerSteps: trainer.optimizerSteps,
                    microBatches: trainer.microBatches, model: checkpoint.path, modelFingerprint: modelFingerprint,
                    datasetFingerprint: datasetFingerprint, options: training, intents: dataset.intents.map(\.name), joint: options, tags: tagNames,
                    best: end.best, validationFingerprint: validationFingerprint)
                try saving.write(encoder: encoder, heads: Dictionary(uniqueKeysWithValues: zip(model.headParameterNames, model.headTensors)),
                                 optimizerState: trainer.optimizerState, description: description, source: checkpoint,
                                 bestWeights: IntentFineTuningCheckpoint.bestWeights(end, trainer: trainer))
                checkpointSaved(end.epoch)
            })
        encoder.dropout = nil
        let tagger = JointIntentSlotTagger(model: model, tokenizer: embedder.tokenizer, maxSequenceLength: limit,
                                           intents: dataset.intents.map(\.name), tags: tagNames + (tagNames.count < 2 ? ["O"] : []))
        return Result(tagger: tagger, steps: outcome.steps, validations: outcome.validations, keptEpoch: outcome.keptEpoch)
    }

    private func batch(_ chosen: [Example]) throws -> JointIntentSlotBatch {
        try JointIntentSlotBatch(encoderBatch: try EncoderBatch(tokenIDs: chosen.map(\.tokenIDs), padID: embedder.tokenizer.padID),
                                 intents: chosen.map(\.intent), wordPositions: chosen.map(\.wordPositions),
                                 wordTags: chosen.map(\.wordTags), wordShapes: options.wordShapes ? chosen.map(\.wordShapes) : nil)
    }

    /// The intent accuracy, joint loss and slot scores of the trainer's model on `heldOut`, without dropout;
    /// `tags` names the slot head's classes. Utterances of an intent the head lacks run apart, for their
    /// slots only (no loss; their intent is wrong).
    private func validate(_ trainer: JointIntentSlotTrainer, on heldOut: [HeldOut], tags: [String], epoch: Int) throws -> FineTuningValidation {
        var right = 0, frames = 0, loss = 0.0
        var expected: [[EntityEvaluation.Mention]] = [], predicted: [[EntityEvaluation.Mention]] = []
        func mentions(_ tags: [String]) -> [EntityEvaluation.Mention] {
            SlotTagScheme.spans(tags).map { EntityEvaluation.Mention(entity: $0.slot, start: $0.tokens.lowerBound, end: $0.tokens.upperBound) }
        }
        try trainer.model.encoder.withoutDropout {
            for group in [heldOut.filter { $0.label != nil }, heldOut.filter { $0.label == nil }] {
                for members in FineTuningValidation.batches(lengths: group.map(\.example.tokenIDs.count), batchSize: options.training.batchSize) {
                    let chosen = members.map { group[$0] }
                    let scored = try batch(chosen.map(\.example))
                    let outputs: JointIntentSlotModel.Outputs
                    var intentsRight = [Bool](repeating: false, count: chosen.count)
                    if chosen[0].label != nil {
                        let batchLoss: Float
                        (batchLoss, outputs) = try trainer.lossAndOutputs(scored)
                        loss += Double(batchLoss) * Double(members.count)
                        intentsRight = zip(FineTuningValidation.bestClasses(outputs.intentLogits), scored.intents).map { $0 == $1 }
                        right += intentsRight.filter { $0 }.count
                    } else {
                        outputs = try trainer.model.outputs(scored.encoderBatch, wordPositions: scored.wordPositions, wordShapes: scored.wordShapes)
                    }
                    let decoded = trainer.model.decodeTags(outputs.slotLogits, wordCounts: scored.wordPositions.map(\.count))
                    for ((item, best), intentRight) in zip(zip(chosen, decoded), intentsRight) {
                        expected.append(mentions(item.tags))
                        predicted.append(mentions(best.map { $0 < tags.count ? tags[$0] : SlotTagScheme.outside }))
                        if intentRight, Set(expected[expected.count - 1]) == Set(predicted[predicted.count - 1]) { frames += 1 }
                    }
                }
            }
        }
        let slots = EntityEvaluation(expected: expected, predicted: predicted)
        return FineTuningValidation(epoch: epoch, labels: heldOut.map(\.label), intents: heldOut.map(\.intent), right: right, loss: loss,
                                    slots: .init(precision: slots.microPrecision, recall: slots.microRecall, f1: slots.microF1,
                                                 exactUtterances: slots.exactUtterances,
                                                 frameAccuracy: Double(frames) / Double(max(1, heldOut.count))))
    }

    /// The sentence features (and token states) of `tagger`'s encoder as this checkpoint tokenizes
    /// and pools, saved into a model package's folder ``ModelPackage/encoderFolderName``; `model` is
    /// recorded as its origin.
    func featurizer(for tagger: JointIntentSlotTagger, model: String) -> FineTunedEncoderFeaturizer {
        let reference = SentenceFeaturizerReference(model: model, revision: nil, dimension: tagger.model.pooling.outputSize,
                                                    packagedModel: ModelPackage.encoderFolderName)
        return FineTunedEncoderFeaturizer(reference: reference, source: checkpoint, encoder: tagger.model.encoder,
                                          pooling: tagger.model.pooling, embedder: embedder)
    }
}

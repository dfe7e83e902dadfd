import Foundation
import NLUCore
import NLUEmbeddings
import NLUText
import NLUTransformers

/// Few-shot intent training as SetFit does it (Tunstall et al., 2022; setfit 1.2.0), in two stages:
///
/// 1. **Contrastive encoder**: the labelled utterances make SetFit's pairs (``SetFitPairs``, with
///    `num_iterations`: `iterations × utterances` pairs of one intent scored 1 and as many of two
///    intents scored 0), and the sentence encoder (its pooling and `Normalize` as the model has them) is
///    fine-tuned on them with `CosineSimilarityLoss` by ``SentenceEncoderTrainer``, in shuffled batches
///    of pairs of similar lengths.
/// 2. **Head**: every utterance is embedded by the fine-tuned encoder, and a logistic regression is
///    fitted on those embeddings (``LogisticRegressionHead``: scikit-learn's `LogisticRegression`,
///    setfit's default head, its `C` chosen by cross-validation unless the options fix it), by default
///    with the utterance's bag of words beside the embedding (``SetFitOptions/bagOfWords``), both at unit
///    length: words the encoder maps close together still tell intents apart there. The intent network
///    (ReLU hidden layer, dropout, early stopping on a held-out tenth) is the alternative; it is not used
///    because its early stopping holds out the tenth that few-shot data can least spare (on HWU64 at 5
///    and 10 per intent it answered less than this head), and a linear head over a contrastively trained
///    space is what SetFit's results are reported with.
///
/// Counterexamples are one more class (the model's "none"), as in every intent model.
///
///     let trainer = try SetFitIntentTrainer(checkpoint: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let result = try trainer.train(dataset) { print($0.stage, $0.step, $0.totalSteps, $0.loss) }
public struct SetFitIntentTrainer {
    /// The checkpoint folder training starts from.
    public let checkpoint: URL
    /// The run's settings, validated.
    public let options: SetFitOptions
    /// The checkpoint's tokenizer, pooling, normalization and length limit, as sentence-transformers reads them.
    private let embedder: SentenceEmbedder

    /// What a run gives: the intents (class `i` of the head is `intents[i]`), the fine-tuned encoder
    /// and how it pools, the head, and the record of both stages.
    public struct Result {
        public var intents: [String]
        public var encoder: TrainableEncoder
        public var pooling: TokenPooling
        /// Whether sentence vectors are scaled to unit length (the model's `Normalize`, or beside the bag
        /// of words), as the head saw them.
        public var normalizes: Bool
        /// The bag of words the head reads before the sentence vector (``SetFitOptions/bagOfWords``), fitted
        /// on the training utterances; nil: the head reads the sentence vector only.
        public var words: TextFeaturizer?
        /// `[classes, pooled width]` with its bias ``headBias``.
        public var head: Linear
        public var headBias: Tensor<Float>
        /// The encoder stage's optimizer steps, in order.
        public var encoderSteps: [FineTuningStep]
        /// The head's L-BFGS iterations and its final objective.
        public var headIterations: Int
        public var headLoss: Double
        /// The pairs of each kind made per utterance: the option, or ``SetFitOptions/defaultIterations(utterances:)``.
        public var iterations: Int
        /// The `C` the head was fitted with: the option, or cross-validation's choice.
        public var headRegularization: Double
        /// Cross-validation's mean held-out accuracy per `C` of ``headRegularizationGrid``; empty when
        /// the option fixed `C` or no intent had two utterances to hold one out (then `C` is 1).
        public var headRegularizationAccuracies: [Double]
        /// The `C`s cross-validation tried.
        public var headRegularizationGrid: [Double] { LogisticRegressionHead.regularizationGrid }
        /// The scores on the validation utterances after each contrastive epoch this run trained (none without them).
        public var validations: [FineTuningValidation] = []
        /// The contrastive epoch whose encoder the head reads: the best by ``SetFitOptions/keepBest``, else the
        /// last one trained (fewer than the options' epochs when early stopping ended the run).
        public var keptEpoch: Int
    }

    /// Reads the checkpoint's tokenizer, pooling and normalization and checks `options`.
    /// - Throws: ``TrainingSettingError`` naming a setting out of range; the embedder's or the
    ///   checkpoint's error for a folder that is not a model.
    public init(checkpoint: URL, options: SetFitOptions = .init()) throws {
        try options.validate()
        embedder = try .forFineTuning(checkpoint, maxSequenceLength: options.maxSequenceLength)
        self.checkpoint = checkpoint
        self.options = options
    }

    /// Tokens per utterance: the option, else the checkpoint's limit.
    public var maxSequenceLength: Int { embedder.fineTuningLength(options.maxSequenceLength) }

    /// Trains both stages on every utterance of `dataset` (entities are not used), calling `progress`
    /// after each optimizer step of the encoder stage and each iteration of the head's fit. With
    /// `saving`, the encoder's state after each epoch of the contrastive stage is written there (then
    /// `checkpointSaved(epoch)` is called); with `resume`, the run continues from the checkpoint found
    /// there as the uninterrupted run would have gone on (pair order and dropout are seeded per
    /// epoch), straight to the head when every epoch is done: the head is fitted anew, as it is
    /// deterministic. With `validation`, a head is fitted after each contrastive epoch on the encoder as
    /// it stands and scores those utterances (``FineTuningValidation``: intent accuracy and the head's
    /// cross-entropy, handed to `validated` before the epoch's checkpoint); with ``SetFitOptions/keepBest``
    /// the run ends holding its best epoch's encoder, and stops early after
    /// ``SetFitOptions/earlyStoppingPatience`` epochs without improvement. The head of the epoch kept is
    /// the one that epoch's validation fitted: fitting is deterministic.
    /// - Throws: ``TrainingSettingError`` (setting `dataset`) for fewer than 2 intents, an intent
    ///   without utterances, or more utterances than SetFit's pairs can be made of
    ///   (``SetFitPairs/maximumSentences``), (setting `validation`) a validation set with no utterance,
    ///   (setting `keepBest`) `keepBest` without one, or (setting `resume`) a checkpoint of another model,
    ///   dataset, settings or validation set; ``TrainingDivergedError`` when the loss stops being finite.
    public func train(_ dataset: IntentDataset, validation: IntentDataset? = nil, saving: IntentFineTuningCheckpoint? = nil,
                      resume: Bool = false, progress: (IntentFineTuningProgress) -> Void = { _ in },
                      validated: (FineTuningValidation) -> Void = { _ in },
                      checkpointSaved: (Int) -> Void = { _ in }) throws -> Result {
        try dataset.checkIntentsToTellApart(why: "SetFit's negative pairs join two intents")
        var sentences: [String] = [], labels: [Int] = []
        for (label, intent) in dataset.intents.enumerated() {
            for utterance in intent.utterances {
                try TextLengthLimit.check(utterance.text, name: "an utterance of intent '\(intent.name)'")
                sentences.append(utterance.text)
                labels.append(label)
            }
        }
        guard sentences.count <= SetFitPairs.maximumSentences else {
            throw TrainingSettingError(setting: "dataset", value: "\(sentences.count) utterances",
                                       requirement: "at most \(SetFitPairs.maximumSentences) for few-shot training (its pairs grow as the square): train without --few-shot")
        }
        let heldOut = try validation.map { validation in
            try FineTuningValidation.labelled(validation, intents: dataset.intents.map(\.name)).map { item in
                try TextLengthLimit.check(item.utterance.text, name: "a validation utterance")
                return (text: item.utterance.text, label: item.label, intent: item.intent)
            }
        }
        if let heldOut { try options.keepBest?.checkScorable(knownIntentUtterances: heldOut.filter { $0.label != nil }.count, entityMentions: nil) }
        // The bag of words depends on the utterances alone: one for every epoch's head.
        let words = try options.bagOfWords == true ? bagOfWords(sentences, language: dataset.language) : nil
        let classes = dataset.intents.count
        let checkpointing = saving.map {
            Checkpointing(checkpoint: $0, resume: resume, dataset: dataset,
                          validationFingerprint: options.keepBest == nil ? nil : validation.map { IntentFineTuningCheckpoint.fingerprint(of: $0) })
        }
        var validationHead: (epoch: Int, head: FittedHead)?
        let (trainer, outcome) = try trainEncoder(
            sentences: sentences, labels: labels, checkpointing: checkpointing, progress: progress, validating: heldOut != nil,
            validate: { trainer, epoch in
                guard let heldOut else { return nil }
                return try trainer.encoder.withoutDropout {
                    let head = try fitHead(trainer, sentences: sentences, labels: labels, classes: classes, words: words) { _ in }
                    validationHead = (epoch, head)
                    let texts = heldOut.map(\.text)
                    let (right, loss) = head.head.score(head.rows(try vectors(trainer, texts), sentences: texts),
                                                        labels: heldOut.map { $0.label.map(Int.init) })
                    return FineTuningValidation(epoch: epoch, labels: heldOut.map(\.label), intents: heldOut.map(\.intent), right: right, loss: loss)
                }
            },
            validated: validated, checkpointSaved: checkpointSaved)
        // Stage 2: the utterances as the fine-tuned encoder embeds them, without dropout.
        let fitted: FittedHead
        if let validationHead, validationHead.epoch == outcome.keptEpoch {
            fitted = validationHead.head
        } else {
            fitted = try fitHead(trainer, sentences: sentences, labels: labels, classes: classes, words: words, progress: progress)
        }
        progress(IntentFineTuningProgress(epoch: 1, step: fitted.head.iterations, totalSteps: fitted.head.iterations, loss: Float(fitted.head.loss),
                                          examplesPerSecond: 0, stage: .head))
        let head = try Linear(weight: fitted.head.weight, bias: fitted.head.bias)
        return Result(intents: dataset.intents.map(\.name), encoder: trainer.encoder, pooling: trainer.pooling,
                      normalizes: fitted.unitVectors, words: words, head: head, headBias: fitted.head.bias, encoderSteps: outcome.steps,
                      headIterations: fitted.head.iterations, headLoss: fitted.head.loss, iterations: options.iterations(forUtterances: sentences.count),
                      headRegularization: fitted.regularization, headRegularizationAccuracies: fitted.choice?.accuracies ?? [],
                      validations: outcome.validations, keptEpoch: outcome.keptEpoch)
    }

    /// A head fitted on the encoder's sentence vectors (and the bag of words, when the run has one).
    struct FittedHead {
        var head: LogisticRegressionHead
        /// The bag of words the rows begin with, or nil.
        var words: TextFeaturizer?
        /// Whether the sentence vectors the head reads are at unit length.
        var unitVectors: Bool
        /// Whether ``rows(_:sentences:)`` scales the encoder's vectors to unit length (they are not already).
        var scalesVectors: Bool
        /// The `C` it was fitted with, and cross-validation's choice when it chose.
        var regularization: Double
        var choice: LogisticRegressionHead.RegularizationChoice?

        /// The rows the head reads for `sentences`, whose sentence vectors are `vectors` (as the encoder gives them).
        static func rows(_ vectors: [[Float]], sentences: [String], words: TextFeaturizer?, scaling: Bool) -> [SparseVector] {
            zip(vectors, sentences).map { vector, sentence in
                var vector = vector
                // As the package's featurizer scales them at prediction (`SentenceFeaturizerReference.normalized`).
                if scaling { L2Normalization().normalize(&vector) }
                return words.map { IntentClassifier.appending(vector, to: $0.vector(for: sentence), featurizer: $0) } ?? SparseVector(dense: vector)
            }
        }

        /// ``rows(_:sentences:words:scaling:)`` as this head reads them.
        func rows(_ vectors: [[Float]], sentences: [String]) -> [SparseVector] {
            Self.rows(vectors, sentences: sentences, words: words, scaling: scalesVectors)
        }
    }

    /// The sentence vectors of `sentences` as `trainer`'s encoder gives them now (its dropout as it is set).
    private func vectors(_ trainer: SentenceEncoderTrainer, _ sentences: [String]) throws -> [[Float]] {
        var vectors: [[Float]] = []
        vectors.reserveCapacity(sentences.count)
        let ids = sentences.map(tokenIDs)
        for start in stride(from: 0, to: ids.count, by: 32) {
            let embeddings = try trainer.embeddings(Array(ids[start..<min(start + 32, ids.count)]))
            let width = embeddings.shape[1], scalars = embeddings.scalars
            for row in 0..<embeddings.shape[0] { vectors.append(Array(scalars[row * width..<(row + 1) * width])) }
        }
        return vectors
    }

    /// Stage 2: the logistic-regression head on `trainer`'s sentence vectors of the training `sentences`
    /// (with `words`' bag of words before them, both at unit length: neither outweighs the other by its
    /// scale), its `C` the option's or cross-validation's; `progress` hears of every fit and iteration.
    private func fitHead(_ trainer: SentenceEncoderTrainer, sentences: [String], labels: [Int], classes: Int, words: TextFeaturizer?,
                         progress: (IntentFineTuningProgress) -> Void) throws -> FittedHead {
        let unitVectors = trainer.normalizes || words != nil
        let rows = FittedHead.rows(try vectors(trainer, sentences), sentences: sentences, words: words, scaling: unitVectors && !trainer.normalizes)
        let width = (words?.dimension ?? 0) + trainer.pooling.outputSize
        var choice: LogisticRegressionHead.RegularizationChoice?
        if options.headRegularization == nil {
            choice = LogisticRegressionHead.crossValidatedRegularization(features: rows, width: width, labels: labels, classes: classes) { fit, fits in
                progress(IntentFineTuningProgress(epoch: 1, step: fit, totalSteps: fits, loss: 0, examplesPerSecond: 0, stage: .headSelection))
            }
        }
        let regularization = options.headRegularization ?? choice?.regularization ?? 1
        let head = LogisticRegressionHead.fit(features: rows, width: width, labels: labels, classes: classes,
                                              inverseRegularization: regularization) { iteration, loss in
            progress(IntentFineTuningProgress(epoch: 1, step: iteration, totalSteps: LogisticRegressionHead.maxIterations,
                                              loss: Float(loss), examplesPerSecond: 0, stage: .head))
        }
        return FittedHead(head: head, words: words, unitVectors: unitVectors, scalesVectors: unitVectors && !trainer.normalizes,
                          regularization: regularization, choice: choice)
    }

    /// The intent model's default bag of words for `language` (a dataset's code), fitted on `sentences`.
    /// - Throws: ``IntentLanguageError`` for a malformed language code.
    func bagOfWords(_ sentences: [String], language: String?) throws -> TextFeaturizer {
        var features = FeatureOptions()
        features.language = try IntentLanguage(code: language, place: "dataset: field 'language'").code
        return TextFeaturizer.fit(sentences, options: features)
    }

    /// The token ids of `text`, cut to ``maxSequenceLength`` as sentence-transformers cuts them.
    func tokenIDs(_ text: String) -> [Int32] { embedder.tokenIDs(text, limit: maxSequenceLength) }

    /// Where a run keeps its epochs' checkpoints, whether it continues one, and what it is a run of.
    struct Checkpointing {
        var checkpoint: IntentFineTuningCheckpoint
        var resume: Bool
        /// The dataset the classes were made of, for the checkpoint's fingerprint and intents.
        var dataset: IntentDataset
        /// With ``SetFitOptions/keepBest``: the validation set's fingerprint (a resumed run must keep its best by the same).
        var validationFingerprint: String? = nil
    }

    /// Stage 1: the encoder fine-tuned on SetFit's pairs of `sentences`. Each epoch's batches are
    /// `batches(epoch, pairCount)` (pair indices), by default the pairs shuffled by the seed and the
    /// epoch and grouped by length (``LengthGroupedBatches`` of each pair's longer text) into
    /// ``SetFitOptions/batchSize``; after each epoch `validate(trainer, epoch)` scores the held-out
    /// utterances (nil: there are none; `validating` says whether there are) and `validated` hears of the score, marked when
    /// ``SetFitOptions/keepBest`` keeps the epoch; with `checkpointing`, each epoch's state is saved (then
    /// `checkpointSaved(epoch)` is called), and a resumed run starts after the saved epoch. The encoder
    /// comes back without dropout, holding the kept epoch's weights.
    func trainEncoder(sentences: [String], labels: [Int], batches: ((Int, Int) -> [[Int]])? = nil, checkpointing: Checkpointing? = nil,
                      progress: (IntentFineTuningProgress) -> Void, validating: Bool = false,
                      validate: (SentenceEncoderTrainer, Int) throws -> FineTuningValidation? = { _, _ in nil },
                      validated: (FineTuningValidation) -> Void = { _ in },
                      checkpointSaved: (Int) -> Void = { _ in }) throws -> (SentenceEncoderTrainer, FineTuningLoop.Outcome<FineTuningValidation>) {
        let pairs = try SetFitPairs.make(sentences: sentences, labels: labels,
                                         iterations: options.iterations(forUtterances: sentences.count))
        var ids: [String: [Int32]] = [:]
        for sentence in sentences where ids[sentence] == nil { ids[sentence] = tokenIDs(sentence) }
        let checkpointFolder = try TrainableEncoder.checkpointDirectory(ofModel: checkpoint)
        let modelFingerprint = IntentFineTuningCheckpoint.fingerprint(ofModel: checkpointFolder)
        let datasetFingerprint = checkpointing.map { IntentFineTuningCheckpoint.fingerprint(of: $0.dataset) } ?? ""
        try checkpointing?.checkpoint.checkReplaceable()
        let saved = try checkpointing.flatMap { run in
            try run.resume ? run.checkpoint.read(model: checkpoint.path, modelFingerprint: modelFingerprint,
                                                 datasetFingerprint: datasetFingerprint, options: nil, fewShot: options,
                                                 validationFingerprint: run.validationFingerprint) : nil
        }
        let encoder = try TrainableEncoder(checkpoint: saved.map { try TrainableEncoder.checkpointDirectory(ofModel: $0.encoderFolder) } ?? checkpointFolder,
                                           ignoringTaskHead: true, dropoutSeed: options.seed)
        try encoder.checkTrainingMemory(batchSize: options.batchSize, sequencesPerBatch: 2 * options.batchSize,
                                        longest: ids.values.map(\.count).max() ?? 1, headParameters: 0, keepingBestWeights: options.keepBest != nil)
        encoder.dropout = EncoderDropout(probability: options.dropout)
        // A batch runs as one pass padded to its longest text: pairs of similar lengths together
        // (transformers' group_by_length), or a shuffled batch of short utterances is half padding
        // (HWU64 10-shot: 9 tokens on average, 17 the expected longest of 32).
        let pairLengths = pairs.map { max(ids[$0.first]?.count ?? 0, ids[$0.second]?.count ?? 0) }
        let epochBatches: [[[Int]]] = (1...options.epochs).map { epoch in
            if let batches { return batches(epoch, pairs.count) }
            var random = SplitMix64(seed: options.seed &+ UInt64(epoch))
            return LengthGroupedBatches(lengths: pairLengths, batchSize: options.batchSize, using: &random).batches.map(Array.init)
        }
        let schedule = try LinearWarmupSchedule(trainingSteps: epochBatches.reduce(0) { $0 + $1.count }, warmupRatio: options.warmupRatio)
        let trainer = try SentenceEncoderTrainer(
            encoder: encoder, pooling: embedder.pooling.modes, normalizes: embedder.normalizesByDefault, loss: .cosineSimilarity,
            padID: embedder.tokenizer.padID, learningRate: options.learningRate, weightDecay: options.weightDecay,
            maxGradientNorm: options.maxGradientNorm, schedule: schedule, optimizerSteps: saved?.description.optimizerSteps ?? 0)
        if let saved {
            try FineTuningSteps.checkResumable(saved.optimizerState, shapes: encoder.parameters.shapes,
                                               optimizerSteps: saved.description.optimizerSteps,
                                               microBatches: saved.description.microBatches, batchesPerEpoch: 1)
            guard saved.description.epoch >= 1, saved.description.epoch <= options.epochs,
                  saved.description.optimizerSteps == epochBatches.prefix(saved.description.epoch).reduce(0, { $0 + $1.count }) else {
                throw TrainingSettingError(setting: "resume", value: "a checkpoint after epoch \(saved.description.epoch), step \(saved.description.optimizerSteps)",
                                           requirement: "the end of one of this run's \(options.epochs) epochs")
            }
            if !saved.optimizerState.firstMoments.isEmpty { trainer.optimizerState = saved.optimizerState }
        }
        let keeper = try IntentFineTuningCheckpoint.keeper(metric: options.keepBest, patience: options.earlyStoppingPatience,
                                                           validating: validating, slots: false, saved: saved, trainer: encoder)
        var loop = FineTuningLoop(trainer: encoder, epochs: options.epochs, firstEpoch: (saved?.description.epoch ?? 0) + 1,
                                  totalSteps: schedule.trainingSteps, keeper: keeper)
        let outcome = try loop.run(
            batches: { epoch in
                encoder.reseedDropout(IntentFineTuningCheckpoint.epochSeed(options.seed, epoch: epoch))
                return epochBatches[epoch - 1]
            },
            step: { members, epoch in
                let chosen = members.map { pairs[$0] }
                return try trainer.train([chosen.map { ids[$0.first] ?? [] }, chosen.map { ids[$0.second] ?? [] }],
                                         scores: chosen.map(\.score), epoch: epoch)
            },
            stepped: { report in
                progress(IntentFineTuningProgress(epoch: report.epoch, step: report.step.step, totalSteps: schedule.trainingSteps,
                                                  loss: report.step.loss, examplesPerSecond: report.examplesPerSecond, stage: .contrastive))
            },
            validate: { epoch in try validate(trainer, epoch) }, keepScore: { options.keepBest?.score($0) }, validated: validated,
            epochEnded: { end in
                guard let checkpointing else { return }
                let description = IntentFineTuningCheckpoint.Description(
                    format: IntentFineTuningCheckpoint.format, epoch: end.epoch, optimizerSteps: trainer.optimizerSteps,
                    microBatches: trainer.optimizerSteps, model: checkpoint.path, modelFingerprint: modelFingerprint,
                    datasetFingerprint: datasetFingerprint, options: nil, intents: checkpointing.dataset.intents.map(\.name), fewShot: options,
                    best: end.best, validationFingerprint: checkpointing.validationFingerprint)
                try checkpointing.checkpoint.write(encoder: encoder, heads: [:], optimizerState: trainer.optimizerState,
                                                   description: description, source: checkpoint,
                                                   bestWeights: IntentFineTuningCheckpoint.bestWeights(end, trainer: encoder))
                checkpointSaved(end.epoch)
            })
        encoder.dropout = nil
        return (trainer, outcome)
    }

    /// The sentence features of the fine-tuned encoder as this checkpoint tokenizes, pools and
    /// normalizes, saved into a model package's folder ``ModelPackage/encoderFolderName``; `model` is
    /// recorded as its origin.
    func featurizer(for result: Result, model: String) -> FineTunedEncoderFeaturizer {
        let reference = SentenceFeaturizerReference(model: model, revision: nil, dimension: result.pooling.outputSize,
                                                    packagedModel: ModelPackage.encoderFolderName,
                                                    normalized: result.normalizes ? true : nil)
        return FineTunedEncoderFeaturizer(reference: reference, source: checkpoint, encoder: result.encoder, pooling: result.pooling,
                                          embedder: embedder)
    }
}

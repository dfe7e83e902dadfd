import Foundation
import NLUCore
import NLUText
import NLUTransformers
import NLUInputOutput

/// Fine-tunes a sentence-transformers model (or a plain BERT-family checkpoint, mean-pooled) on
/// ``TrainingPairs`` and writes the result as a sentence-transformers folder that `nlu embed`,
/// `nlu index` and Python's sentence-transformers load: every text tokenized as the model's
/// tokenizer does, batches drawn as sentence-transformers draws them (``NoDuplicatesBatches`` for the
/// ranking loss, shuffled batches for the cosine loss), and ``SentenceEncoderTrainer``'s step, epoch
/// after epoch.
///
/// After each epoch a checkpoint is written (the model folder plus the run's state, see `--resume`):
/// to `output` when it was new or empty, else (an earlier fine-tuned model there) to `output.partial`,
/// which replaces `output` only when the last epoch is done. An interrupted run keeps the last
/// checkpoint, and ``train(_:output:resume:onEvent:)`` with `resume` continues it (a resumed run's
/// dropout masks differ from an uninterrupted run's). A non-finite loss stops training with
/// ``TrainingDivergedError`` and writes nothing more: what is at `output` stays.
///
///     let tuner = try SentenceEncoderFineTuner(model: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let pairs = try TrainingPairs.read(from: URL(fileURLWithPath: "pairs.jsonl"))
///     let result = try tuner.train(pairs, output: URL(fileURLWithPath: "minilm-tuned")) { event in
///         if case .step(let progress) = event { print("step \(progress.step)/\(progress.totalSteps) loss \(progress.loss)") }
///     }
public struct SentenceEncoderFineTuner {
    /// The model folder training starts from.
    public let model: URL
    /// The run's settings, validated.
    public let options: SentenceFineTuningOptions
    /// The model's tokenizer, pooling, normalization and length limit, as sentence-transformers reads them.
    private let embedder: SentenceEmbedder

    /// What a run gives: the trainer holding the fine-tuned encoder, the steps this call took, and
    /// the folder the model was written to.
    public struct Result {
        public var trainer: SentenceEncoderTrainer
        public var steps: [FineTuningStep]
        public var output: URL
        /// The epoch whose weights the trainer holds and `output` received: the best by
        /// ``SentenceFineTuningOptions/keepBest``, else the last one (fewer than the options' epochs when early
        /// stopping ended the run).
        public var keptEpoch: Int
    }

    /// Reads the model's modules and tokenizer and checks `options`.
    /// - Throws: ``TrainingSettingError`` naming an option out of range;
    ///   ``SentenceFineTuningError/unsupportedModule(model:module:)`` for a model with a `Dense`
    ///   module; the embedder's error for a folder that is not a model.
    public init(model: URL, options: SentenceFineTuningOptions = .init()) throws {
        try options.validate()
        if let dense = try ModuleList(modelDirectory: model).modules.first(where: { $0.kind == .dense }) {
            throw SentenceFineTuningError.unsupportedModule(model: model.path, module: "Dense (\(dense.directory.lastPathComponent))")
        }
        embedder = try SentenceEmbedder.forFineTuning(model, maxSequenceLength: options.maxSequenceLength)
        self.model = model
        self.options = options
    }

    /// Tokens per text: the option, else the model's `max_seq_length`.
    public var maxSequenceLength: Int { embedder.fineTuningLength(options.maxSequenceLength) }

    /// The loss `pairs` train with: the option, else the one their shape calls for.
    /// - Throws: ``SentenceFineTuningError/unusablePairs(reason:)`` when the option's loss cannot use their shape.
    public func loss(for pairs: TrainingPairs) throws -> SentenceTrainingLoss {
        switch (options.loss, pairs) {
        case (nil, .contrastive): return .multipleNegativesRanking(scale: SentenceTrainingLoss.defaultRankingScale)
        case (nil, .scored): return .cosineSimilarity
        case (.multipleNegativesRanking?, .contrastive), (.cosineSimilarity?, .scored): return options.loss ?? .cosineSimilarity
        case (.multipleNegativesRanking?, .scored):
            throw SentenceFineTuningError.unusablePairs(reason: "the ranking loss (mnrl) takes anchor/positive pairs; this file holds scored pairs (sentence1, sentence2, score): use the cosine loss")
        case (.cosineSimilarity?, .contrastive):
            throw SentenceFineTuningError.unusablePairs(reason: "the cosine loss takes scored pairs (sentence1, sentence2, score); this file holds anchor/positive pairs: use the ranking loss (mnrl)")
        }
    }

    /// Fine-tunes on `pairs` and writes the model to `output` (see the type's description for the
    /// checkpoints), calling `onEvent` as it goes. With `validation`, the model scores those pairs after
    /// each epoch (``SentenceFineTuningEvaluation``, the event ``SentenceFineTuningEvent/evaluated(_:)``
    /// before the epoch's checkpoint); with ``SentenceFineTuningOptions/keepBest`` the best epoch's weights are
    /// written, and ``SentenceFineTuningOptions/earlyStoppingPatience`` epochs without improvement end the run.
    /// - Throws: ``SentenceFineTuningError`` for pairs the loss cannot use (one pair for the ranking
    ///   loss, hard negatives on some examples only) or a checkpoint `resume` cannot continue (none,
    ///   another model, other pairs, settings or validation pairs); ``TrainingSettingError`` (setting `keepBest`)
    ///   for a score the validation pairs do not have; `ModelPackageError` for an `output` that may not be
    ///   replaced (checked before training); ``TrainingDivergedError`` for a non-finite loss.
    public func train(_ pairs: TrainingPairs, validation: TrainingPairs? = nil, output: URL, resume: Bool = false,
                      onEvent: (SentenceFineTuningEvent) -> Void = { _ in }) throws -> Result {
        let loss = try loss(for: pairs)
        let (columns, scores, texts) = try tokenizedColumns(pairs)
        let heldOut = try validation.map(heldOutPairs)
        if let metric = options.keepBest {
            let scored: Bool? = heldOut.map { if case .scored = $0 { return true } else { return false } }
            guard let scored, scored == metric.needsScoredPairs else {
                throw TrainingSettingError(setting: "keepBest", value: metric.rawValue,
                                           requirement: metric.needsScoredPairs ? "scored validation pairs (sentence1, sentence2, score)"
                                                                                : "anchor/positive validation pairs")
            }
        }
        let examples = columns[0].count
        if case .multipleNegativesRanking = loss, columns.count == 2 {
            guard examples >= 2 else {
                throw SentenceFineTuningError.unusablePairs(reason: "1 pair: the ranking loss (mnrl) needs at least 2 examples in a batch, since each anchor's negatives are the other examples' positives; add pairs, or give each a hard negative (\"negative\")")
            }
            guard options.batchSize >= 2 else {
                throw TrainingSettingError(setting: "batchSize", value: "1", requirement: "at least 2 with the ranking loss (mnrl) and no hard negatives: the other examples of a batch are each anchor's negatives")
            }
        }
        let settings = SentenceFineTuningCheckpoint.Settings(
            loss: loss.name, scale: { if case .multipleNegativesRanking(let scale) = loss { return scale } else { return nil } }(),
            epochs: options.epochs, batchSize: options.batchSize, learningRate: options.learningRate, warmupRatio: options.warmupRatio,
            weightDecay: options.weightDecay, maxGradientNorm: options.maxGradientNorm, seed: options.seed,
            maxSequenceLength: maxSequenceLength, dropout: options.dropout, keepBest: options.keepBest,
            earlyStoppingPatience: options.earlyStoppingPatience)
        let validationFingerprint = options.keepBest == nil ? nil : validation.map(Self.fingerprint(of:))
        let pairsFingerprint = Self.fingerprint(of: pairs)

        let checkpointDirectory = try TrainableEncoder.checkpointDirectory(ofModel: model)
        let encoder = try TrainableEncoder(checkpoint: checkpointDirectory, ignoringTaskHead: true, dropoutSeed: options.seed)
        // Every column of a batch goes through the encoder in one pass.
        try encoder.checkTrainingMemory(batchSize: options.batchSize, sequencesPerBatch: min(options.batchSize, examples) * columns.count,
                                        longest: columns.joined().map(\.count).max() ?? 1, headParameters: 0,
                                        keepingBestWeights: options.keepBest != nil)
        let modelFingerprint = try Self.fingerprint(encoder, configuration: checkpointDirectory.appendingPathComponent("config.json"))

        // Where the epochs' checkpoints go, and what a resumed run continues from; all checked before training.
        let checkpointURL: URL
        var resumed: SentenceFineTuningCheckpoint?
        if resume {
            checkpointURL = output
            guard let state = try SentenceFineTuningCheckpoint.read(in: output) else {
                throw SentenceFineTuningError.cannotResume(
                    folder: output.path, reason: "it holds no checkpoint (\(SentenceFineTuningCheckpoint.stateFileName)); a finished model has none: train without --resume")
            }
            guard state.modelFingerprint == modelFingerprint else {
                throw SentenceFineTuningError.cannotResume(folder: output.path, reason: "it was trained from another model (\(state.model)), not \(model.path)")
            }
            guard state.examples == examples, state.pairsFingerprint == pairsFingerprint else {
                throw SentenceFineTuningError.cannotResume(folder: output.path, reason: "it was trained on other pairs (\(state.examples) examples; these are \(examples))")
            }
            let differences = SettingDifferences.between(saved: state.settings, current: settings, path: "settings")
            guard differences.isEmpty else {
                throw SentenceFineTuningError.cannotResume(folder: output.path, reason: "it was run with other settings (\(differences.joined(separator: "; "))); resume with the same settings")
            }
            guard state.validationFingerprint == validationFingerprint else {
                throw SentenceFineTuningError.cannotResume(folder: output.path, reason: "its best epoch was chosen on other validation pairs; resume with the same")
            }
            guard state.epochsCompleted < state.settings.epochs else {
                throw SentenceFineTuningError.cannotResume(folder: output.path, reason: "all \(state.settings.epochs) epochs are done")
            }
            let trained = try TrainableEncoder(checkpoint: TrainableEncoder.checkpointDirectory(ofModel: output), ignoringTaskHead: true)
            guard trained.parameters.names == encoder.parameters.names, trained.parameters.shapes == encoder.parameters.shapes else {
                throw SentenceFineTuningError.cannotResume(folder: output.path, reason: "its weights are not those of \(model.path)'s encoder")
            }
            encoder.parameters.values = trained.parameters.values
            resumed = state
        } else {
            checkpointURL = try Self.holdsEarlierModel(output) ? output.appendingPathExtension("partial") : output
            if checkpointURL != output { _ = try Self.holdsEarlierModel(checkpointURL) }
        }
        encoder.dropout = EncoderDropout(probability: options.dropout)

        // Every epoch's batches up front: the schedule needs the run's step count, and a batch order
        // that depends only on the seed and the epoch repeats on resume.
        let epochBatches: [[[Int]]] = (1...options.epochs).map { epoch in
            var random = SplitMix64(seed: options.seed &+ UInt64(epoch))
            if case .multipleNegativesRanking = loss {
                return NoDuplicatesBatches(texts: texts, batchSize: options.batchSize, using: &random).batches
            }
            var order = Array(0..<examples)
            order.shuffle(using: &random)
            return stride(from: 0, to: examples, by: options.batchSize).map { Array(order[$0..<min($0 + options.batchSize, examples)]) }
        }
        let schedule = try LinearWarmupSchedule(trainingSteps: epochBatches.reduce(0) { $0 + $1.count }, warmupRatio: options.warmupRatio)
        let trainer = try SentenceEncoderTrainer(
            encoder: encoder, pooling: embedder.pooling.modes, normalizes: embedder.normalizesByDefault, loss: loss,
            padID: embedder.tokenizer.padID, learningRate: options.learningRate, weightDecay: options.weightDecay,
            maxGradientNorm: options.maxGradientNorm, schedule: schedule, optimizerSteps: resumed?.optimizerSteps ?? 0)
        if resumed != nil {
            trainer.optimizerState = try SentenceFineTuningCheckpoint.readOptimizer(in: output, parameters: encoder.parameters)
        }

        // Every score is higher-is-better; a resumed run continues its best epoch.
        var keeper = options.keepBest.map { _ in BestEpochKeeper(greaterIsBetter: true, patience: options.earlyStoppingPatience) }
        if let resumed, let best = resumed.best, options.keepBest != nil {
            let weights = best.epoch == resumed.epochsCompleted ? encoder.weights
                : try SentenceFineTuningCheckpoint.readBestWeights(in: output, parameters: encoder.parameters)
            keeper = BestEpochKeeper(greaterIsBetter: true, patience: options.earlyStoppingPatience, best: best, weights: weights)
        }
        let epochsDone = resumed?.epochsCompleted ?? 0
        onEvent(.started(examples: examples, loss: loss, totalSteps: schedule.trainingSteps, epochsDone: epochsDone))
        var loop = FineTuningLoop(trainer: encoder, epochs: options.epochs, firstEpoch: epochsDone + 1, totalSteps: schedule.trainingSteps,
                                  keeper: keeper)
        var lastMeanLoss: Float = 0
        let outcome = try loop.run(
            batches: { epochBatches[$0 - 1] },
            step: { members, epoch in
                try trainer.train(columns.map { column in members.map { column[$0] } },
                                  scores: scores.map { scores in members.map { scores[$0] } }, epoch: epoch)
            },
            stepped: { report in
                onEvent(.step(SentenceFineTuningProgress(
                    epoch: report.epoch, epochs: options.epochs, step: report.step.step, totalSteps: schedule.trainingSteps,
                    loss: report.step.loss, learningRate: report.step.learningRate, examplesPerSecond: report.examplesPerSecond,
                    secondsLeft: report.secondsLeft)))
            },
            validate: { epoch in try heldOut.map { try evaluate(trainer, on: $0, epoch: epoch) } },
            keepScore: { options.keepBest?.score($0) }, validated: { onEvent(.evaluated($0)) },
            epochEnded: { end in
                lastMeanLoss = end.meanLoss
                // The last epoch's folder is the finished model, written once the best epoch is back.
                guard !end.isLast else { return }
                let state = SentenceFineTuningCheckpoint(
                    model: model.path, modelFingerprint: modelFingerprint, examples: examples, pairsFingerprint: pairsFingerprint,
                    settings: settings, epochsCompleted: end.epoch, optimizerSteps: trainer.optimizerSteps,
                    trainingSteps: schedule.trainingSteps, best: end.best, validationFingerprint: validationFingerprint)
                try write(encoder, to: checkpointURL, state: state, optimizer: trainer.optimizerState, bestWeights: end.earlierBestWeights)
                onEvent(.epochFinished(epoch: end.epoch, meanLoss: end.meanLoss, checkpoint: checkpointURL))
            })
        // The finished model (the best epoch's with keepBest): the folder alone, without the run's state.
        try write(encoder, to: output, state: nil, optimizer: trainer.optimizerState)
        if checkpointURL != output, ExistingPath(checkpointURL) == .directory {
            try? FileManager.default.removeItem(at: checkpointURL)
        }
        onEvent(.epochFinished(epoch: outcome.lastEpoch, meanLoss: lastMeanLoss, checkpoint: output))
        // The trained encoder embeds as in evaluation, without dropout.
        encoder.dropout = nil
        return Result(trainer: trainer, steps: outcome.steps, output: output, keptEpoch: outcome.keptEpoch)
    }

    /// Writes the model folder (and a checkpoint's `state` with the optimizer's moments) beside
    /// `destination`, then swaps it in whole: a signal at any moment leaves the old folder or the new
    /// one with its state, never new weights without their state.
    private func write(_ encoder: TrainableEncoder, to destination: URL, state: SentenceFineTuningCheckpoint?,
                       optimizer: AdamOptimizer.State, bestWeights: [Tensor<Float>]? = nil) throws {
        try ModelPackage.writeFolder(to: destination) { staging in
            try encoder.save(to: staging, source: model)
            try state?.write(in: staging, optimizer: optimizer, parameterNames: encoder.parameters.names, bestWeights: bestWeights)
        }
    }

    /// The columns of token ids (anchors, positives[, negatives] or sentence1, sentence2), the scores
    /// of scored pairs, and each example's texts.
    private func tokenizedColumns(_ pairs: TrainingPairs) throws -> (columns: [[[Int32]]], scores: [Float]?, texts: [[String]]) {
        func ids(_ text: String, example: Int) throws -> [Int32] { try tokenIDs(text, name: "a text of example \(example + 1)") }
        switch pairs {
        case .contrastive(let examples):
            let withNegatives = examples.filter { $0.negative != nil }.count
            if withNegatives > 0, withNegatives < examples.count, let index = examples.firstIndex(where: { $0.negative == nil }) {
                throw SentenceFineTuningError.unusablePairs(
                    reason: "\(withNegatives) of \(examples.count) examples have a hard negative but example \(index + 1) (\"\(examples[index].anchor)\") has none; give every example one or none")
            }
            var columns: [[[Int32]]] = Array(repeating: [], count: withNegatives > 0 ? 3 : 2)
            var texts: [[String]] = []
            for (index, example) in examples.enumerated() {
                let row = [example.anchor, example.positive] + (example.negative.map { [$0] } ?? [])
                for (column, text) in row.enumerated() { columns[column].append(try ids(text, example: index)) }
                texts.append(row)
            }
            return (columns, nil, texts)
        case .scored(let examples):
            var columns: [[[Int32]]] = [[], []]
            for (index, pair) in examples.enumerated() {
                columns[0].append(try ids(pair.first, example: index))
                columns[1].append(try ids(pair.second, example: index))
            }
            return (columns, examples.map(\.score), examples.map { [$0.first, $0.second] })
        }
    }

    /// The token ids of `text` (cut to ``maxSequenceLength``), once its length is checked; `name` says which text it is.
    private func tokenIDs(_ text: String, name: String) throws -> [Int32] {
        try TextLengthLimit.check(text, name: name)
        return embedder.tokenIDs(text, limit: maxSequenceLength)
    }

    /// A fingerprint of every text of `pairs` in order (anchor, positive and any negative; or both sentences),
    /// then of the scores: a resumed run must train and validate on the same pairs.
    static func fingerprint(of pairs: TrainingPairs) -> String {
        var fingerprint = TrainingFingerprint()
        switch pairs {
        case .contrastive(let examples):
            for text in examples.flatMap({ [$0.anchor, $0.positive] + ($0.negative.map { [$0] } ?? []) }) { fingerprint.mix(text) }
        case .scored(let examples):
            for text in examples.flatMap({ [$0.first, $0.second] }) + examples.map({ "\($0.score)" }) { fingerprint.mix(text) }
        }
        return fingerprint.hex
    }

    /// Validation pairs as their evaluation reads them: the token ids of scored pairs' two texts with
    /// the scores, or of the anchors and of each distinct positive or negative text (the candidates),
    /// with the candidate that is each anchor's positive.
    private enum HeldOutPairs {
        case scored(first: [[Int32]], second: [[Int32]], scores: [Float])
        case ranked(anchors: [[Int32]], candidates: [[Int32]], relevant: [Int])
    }

    private func heldOutPairs(_ pairs: TrainingPairs) throws -> HeldOutPairs {
        func ids(_ text: String, example: Int) throws -> [Int32] { try tokenIDs(text, name: "a text of validation example \(example + 1)") }
        switch pairs {
        case .scored(let examples):
            return .scored(first: try examples.enumerated().map { try ids($1.first, example: $0) },
                           second: try examples.enumerated().map { try ids($1.second, example: $0) }, scores: examples.map(\.score))
        case .contrastive(let examples):
            var candidates: [[Int32]] = [], index: [String: Int] = [:], relevant: [Int] = []
            func candidate(_ text: String, example: Int) throws -> Int {
                if let known = index[text] { return known }
                candidates.append(try ids(text, example: example))
                index[text] = candidates.count - 1
                return candidates.count - 1
            }
            for (number, example) in examples.enumerated() {
                relevant.append(try candidate(example.positive, example: number))
                if let negative = example.negative { _ = try candidate(negative, example: number) }
            }
            return .ranked(anchors: try examples.enumerated().map { try ids($1.anchor, example: $0) }, candidates: candidates, relevant: relevant)
        }
    }

    /// The held-out pairs' scores with the trainer's current weights, without dropout.
    private func evaluate(_ trainer: SentenceEncoderTrainer, on heldOut: HeldOutPairs, epoch: Int) throws -> SentenceFineTuningEvaluation {
        func embeddings(_ sequences: [[Int32]]) throws -> Tensor<Float> {
            var scalars: [Float] = [], width = 0
            for start in stride(from: 0, to: sequences.count, by: options.batchSize) {
                let part = try trainer.embeddings(Array(sequences[start..<min(start + options.batchSize, sequences.count)]))
                width = part.shape[1]
                scalars += part.scalars
            }
            return Tensor(shape: [sequences.count, width], scalars: scalars)
        }
        return try trainer.encoder.withoutDropout {
            switch heldOut {
            case let .scored(first, second, scores):
                return SentenceFineTuningEvaluation.scored(try embeddings(first + second), scores: scores, epoch: epoch)
            case let .ranked(anchors, candidates, relevant):
                return SentenceFineTuningEvaluation.ranked(try embeddings(anchors), candidates: try embeddings(candidates),
                                                           relevant: relevant, epoch: epoch)
            }
        }
    }

    /// Whether `url` holds a fine-tuned model NLUKit saved (to be replaced only at the end of a run);
    /// false for nothing or an empty folder.
    /// - Throws: `ModelPackageError.destinationInUse` for anything else there; `OutputPath.Error`
    ///   for a new path whose folder cannot be written.
    static func holdsEarlierModel(_ url: URL) throws -> Bool {
        // A link is judged by what it points to, as the save follows it.
        switch ExistingPath((try? ExistingPath.resolvingSymbolicLinks(url)) ?? url) {
        case .nothing:
            try OutputPath.checkFolderWritable(url)
            return false
        case .directory:
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            if entries.isEmpty { return false }
            let weights = (try? TrainableEncoder.checkpointDirectory(ofModel: url))?.appendingPathComponent("model.safetensors")
            let marked = weights.flatMap { try? SafeTensors(contentsOf: $0) }?.metadata["written_by"]
                == TrainableEncoder.savedCheckpointMetadata["written_by"]
            guard marked else {
                throw ModelPackageError.destinationInUse(
                    package: url, holds: "a folder that is not a fine-tuned model NLUKit saved (\(entries.count) entries)",
                    remedy: "choose a new or empty folder, or move it away yourself")
            }
            return true
        default:
            throw ModelPackageError.destinationInUse(package: url, holds: "a file, not a folder", remedy: "choose a new or empty folder")
        }
    }

    /// The fingerprint of the model trained from: its configuration and the first values of every weight.
    private static func fingerprint(_ encoder: TrainableEncoder, configuration: URL) throws -> String {
        var fingerprint = TrainingFingerprint()
        fingerprint.mix((try? InputFile.readModelFile(configuration)) ?? Data())
        for (name, value) in zip(encoder.parameters.names, encoder.parameters.values) {
            fingerprint.mix(name)
            // Two fine-tunes of one model differ in every weight: the first values of each tell them apart.
            for scalar in value.scalars.prefix(64) { fingerprint.mix(withUnsafeBytes(of: scalar.bitPattern) { Array($0) }) }
        }
        return fingerprint.hex
    }
}

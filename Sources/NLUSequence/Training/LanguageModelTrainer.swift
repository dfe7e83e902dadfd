import Foundation
import NLUCore
import NLUInputOutput

/// What a ``LanguageModelTrainer`` reports while it works (the CLI prints these on stderr).
public enum LanguageModelTrainingEvent: Sendable {
    /// The data is ready: vocabulary size and the training / validation token counts.
    case prepared(vocabularySize: Int, trainingTokens: Int, validationTokens: Int, startEpoch: Int)
    /// Some batches of an epoch are done.
    case progress(epoch: Int, batch: Int, batches: Int, loss: Float, tokensPerSecond: Double)
    /// An epoch is done.
    case epochFinished(LanguageModelEpochReport)
    /// The checkpoint after an epoch was written.
    case checkpointSaved(URL)
}

/// The figures of one training epoch.
public struct LanguageModelEpochReport: Sendable, Codable, Equatable {
    public var epoch: Int
    /// Mean training loss over the epoch's batches.
    public var trainingLoss: Double
    /// Validation perplexity (nil without a validation split).
    public var validationPerplexity: Double?
    public var seconds: Double
    public var tokensPerSecond: Double
}

/// Trains a ``LanguageModel`` on plain text: builds the vocabulary (at most `maxVocabulary` tokens
/// seen at least `minimumCount` times, the rest → the unknown token, the end token after every line),
/// holds out the end of the text for validation, and runs truncated BPTT with Adam, gradient clipping
/// and dropout, reporting perplexity after each epoch. With a checkpoint URL the model package is
/// written there (atomically) after every epoch, and `resume` continues from it.
///
///     let trainer = LanguageModelTrainer(options: .init(level: .character, epochs: 2))
///     let (model, history) = try trainer.train(texts: [corpus]) { event in print(event) }
public struct LanguageModelTrainer: Sendable {
    public var options: LanguageModelTrainingOptions

    public init(options: LanguageModelTrainingOptions) {
        self.options = options
    }

    /// Metadata keys of checkpoints.
    public enum MetadataKey {
        public static let epochsCompleted = "epochsCompleted"
        public static let history = "trainingHistory"
        public static let options = "trainingOptions"
        public static let validationPerplexity = "validationPerplexity"
    }

    /// Where training checkpoints go while a model already at `url` is being retrained from scratch
    /// (`NAME.nlumodel.partial` beside it): the existing model is replaced only when training ends.
    public static func partialCheckpointURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".partial")
    }

    /// Trains on `texts` (the contents of the corpus files; `names` only label errors).
    ///
    /// Checkpoint policy: with `resume`, or when nothing is at `checkpoint` yet, the package at
    /// `checkpoint` is rewritten (atomically) after every epoch. When training from scratch over an
    /// existing model, the epochs' checkpoints go to ``partialCheckpointURL(for:)`` instead, and the
    /// existing model is replaced only once the last epoch is done (the partial checkpoint is then
    /// removed); an interrupted run leaves the old model intact and the partial one to `--resume` from.
    /// - Parameters:
    ///   - checkpoint: where to save the package (nil: don't save).
    ///   - resume: continue from the package at `checkpoint` (its vocabulary and shape win) up to `options.epochs`.
    ///   - resumeChoices: the architecture the caller asked for explicitly; on resume, one that differs from the
    ///     checkpoint's is an error naming it.
    ///   - replacing: what may already be at `checkpoint` (checked before any work).
    /// - Throws: ``LanguageModelError/emptyCorpus(_:)`` when there is nothing to train on,
    ///   ``LanguageModelError/invalidOption(_:_:)``, ``NLUCore/TrainingDivergedError`` (nothing saved),
    ///   or errors loading / saving the checkpoint.
    public func train(texts: [String], names: [String] = [], checkpoint: URL? = nil, resume: Bool = false,
                      resumeChoices: LanguageModelArchitectureChoices = .init(),
                      replacing: ModelPackage.Replacement = .sameKind,
                      onEvent: (LanguageModelTrainingEvent) -> Void = { _ in }) throws
        -> (model: LanguageModel, history: [LanguageModelEpochReport]) {
        try options.validate()
        var epochCheckpoint = checkpoint
        if let checkpoint {
            try ModelPackage.checkDestination(checkpoint, kind: LanguageModel.packageKind, replacing: replacing)
            if !resume, ExistingPath(checkpoint) != .nothing {
                let partial = Self.partialCheckpointURL(for: checkpoint)
                try ModelPackage.checkDestination(partial, kind: LanguageModel.packageKind)
                epochCheckpoint = partial
            }
        }
        var model: LanguageModel
        var history: [LanguageModelEpochReport] = []
        var startEpoch = 0
        let tokenizer = LanguageModelTokenizer(level: options.level, lowercase: options.lowercase)
        let endToken = "</s>", unknownToken = "<unk>"

        if resume, let checkpoint, FileManager.default.fileExists(atPath: checkpoint.path) {
            model = try LanguageModel(contentsOf: checkpoint)
            try resumeChoices.check(against: model.configuration, checkpoint: checkpoint.path)
            startEpoch = try Self.epochsCompleted(in: model.metadata, package: checkpoint)
            if let data = model.metadata[MetadataKey.history]?.data(using: .utf8),
               let saved = try? JSONDecoder().decode([LanguageModelEpochReport].self, from: data) {
                history = saved
            }
        } else {
            let tokens = texts.flatMap { tokenizer.corpusTokens(in: $0, endToken: endToken) }
            guard !tokens.isEmpty else { throw LanguageModelError.emptyCorpus(names) }
            let vocabulary = LanguageModelVocabulary.build(counting: tokens, maxSize: options.maxVocabulary,
                                                           minimumCount: options.minimumCount,
                                                           unknownToken: unknownToken, endToken: endToken)
            let configuration = LanguageModelConfiguration(
                cell: options.cell, level: options.level, embeddingSize: options.embeddingSize, hiddenSize: options.hiddenSize,
                layers: options.layers, vocabulary: vocabulary.tokens, unknownToken: unknownToken, endToken: endToken,
                lowercase: options.lowercase)
            model = try LanguageModel(configuration: configuration, seed: options.seed)
        }

        // The model's own tokenizer: after a resume its level and casing are the checkpoint's.
        let allTokens = texts.flatMap { model.tokenizer.corpusTokens(in: $0, endToken: model.configuration.endToken) }
        guard allTokens.count >= 2 else { throw LanguageModelError.emptyCorpus(names) }
        let ids = [model.vocabulary.endID] + allTokens.map { model.vocabulary.idOrUnknown(for: $0) }
        let validationCount = options.validationSplit > 0 ? Int((Double(ids.count) * Double(options.validationSplit)).rounded()) : 0
        let split = min(ids.count - 2, max(0, validationCount))
        let trainingIDs = Array(ids[..<(ids.count - split)])
        let validationIDs = split >= 2 ? Array(ids[(ids.count - split)...]) : []
        onEvent(.prepared(vocabularySize: model.vocabulary.count, trainingTokens: trainingIDs.count,
                          validationTokens: validationIDs.count, startEpoch: startEpoch))

        let batches = TokenBatches(ids: trainingIDs, batchSize: options.batchSize, sequenceLength: options.sequenceLength)
        let session = LanguageModelTrainingSession(model: model, learningRate: options.learningRate, clipNorm: options.clipNorm,
                                                   dropout: options.dropout, seed: options.seed &+ UInt64(startEpoch))
        if startEpoch > 0, let checkpoint, let state = Self.loadOptimizerState(from: checkpoint, model: model) {
            session.optimizerState = state
        }
        for epoch in startEpoch..<max(startEpoch, options.epochs) {
            session.resetState()
            let started = Date()
            var lastReport = started
            var totalLoss: Double = 0
            var tokens = 0
            for (index, batch) in batches.enumerated() {
                let loss = session.step(batch)
                guard loss.isFinite else {
                    throw TrainingDivergedError(epoch: epoch + 1, loss: loss, learningRate: options.learningRate)
                }
                totalLoss += Double(loss)
                tokens += batch.inputs.count
                let now = Date()
                if now.timeIntervalSince(lastReport) >= 2 || index + 1 == batches.count {
                    lastReport = now
                    onEvent(.progress(epoch: epoch + 1, batch: index + 1, batches: batches.count, loss: loss,
                                      tokensPerSecond: Double(tokens) / max(now.timeIntervalSince(started), 1e-9)))
                }
            }
            model = session.model
            let seconds = Date().timeIntervalSince(started)
            let perplexity = validationIDs.isEmpty ? nil
                : model.evaluate(ids: validationIDs, batchSize: 10, sequenceLength: options.sequenceLength).perplexity
            let report = LanguageModelEpochReport(
                epoch: epoch + 1, trainingLoss: batches.count > 0 ? totalLoss / Double(batches.count) : 0,
                validationPerplexity: perplexity, seconds: seconds, tokensPerSecond: Double(tokens) / max(seconds, 1e-9))
            history.append(report)
            onEvent(.epochFinished(report))
            model.metadata = metadata(history: history, epochs: epoch + 1, perplexity: perplexity)
            if let epochCheckpoint {
                try model.save(to: epochCheckpoint, replacing: epochCheckpoint == checkpoint ? replacing : .sameKind)
                try Self.saveOptimizerState(session.optimizerState, to: epochCheckpoint, model: model)
                onEvent(.checkpointSaved(epochCheckpoint))
            }
        }
        if let checkpoint, let epochCheckpoint, epochCheckpoint != checkpoint {
            // Training is complete: only now does the new model replace the old one.
            try model.save(to: checkpoint, replacing: replacing)
            try Self.saveOptimizerState(session.optimizerState, to: checkpoint, model: model)
            try? FileManager.default.removeItem(at: epochCheckpoint)
            onEvent(.checkpointSaved(checkpoint))
        }
        return (model, history)
    }

    /// The file beside the weights inside a checkpoint package that holds Adam's state. Loading a model
    /// ignores it; a package without it resumes with fresh moments.
    public static let optimizerFileName = ModelPackage.optimizerStateFileName

    static func saveOptimizerState(_ state: AdamOptimizer.State, to package: URL, model: LanguageModel) throws {
        guard !state.firstMoments.isEmpty else { return }
        var tensors: [String: Tensor<Float>] = [:]
        for (index, name) in LanguageModel.weightNames(for: model.configuration).enumerated()
        where index < state.firstMoments.count {
            tensors["m." + name] = state.firstMoments[index]
            tensors["v." + name] = state.secondMoments[index]
        }
        try SafeTensors.write(tensors, metadata: ["step": String(state.step)],
                              to: package.appendingPathComponent(optimizerFileName))
    }

    /// Adam's state saved in `package`, or nil when it is missing or does not fit the model.
    static func loadOptimizerState(from package: URL, model: LanguageModel) -> AdamOptimizer.State? {
        guard let file = try? SafeTensors(contentsOf: package.appendingPathComponent(optimizerFileName)),
              let step = Int(file.metadata["step"] ?? "") else { return nil }
        var state = AdamOptimizer.State(step: step)
        for (name, parameter) in zip(LanguageModel.weightNames(for: model.configuration), model.parameters) {
            guard let first = try? file.floatTensor("m." + name), let second = try? file.floatTensor("v." + name),
                  first.shape == parameter.shape, second.shape == parameter.shape else { return nil }
            state.firstMoments.append(first)
            state.secondMoments.append(second)
        }
        return state
    }

    private func metadata(history: [LanguageModelEpochReport], epochs: Int, perplexity: Double?) -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var metadata = [MetadataKey.epochsCompleted: String(epochs)]
        if let data = try? encoder.encode(history) { metadata[MetadataKey.history] = String(decoding: data, as: UTF8.self) }
        if let data = try? encoder.encode(options) { metadata[MetadataKey.options] = String(decoding: data, as: UTF8.self) }
        if let perplexity { metadata[MetadataKey.validationPerplexity] = String(format: "%.4f", perplexity) }
        return metadata
    }

    /// The epochs a checkpoint says it completed (0 when it does not say): a whole number no larger
    /// than training may run, so that a hostile or damaged manifest cannot size the epoch loop.
    /// - Throws: ``OutOfRangeError`` naming the manifest and `metadata.epochsCompleted`.
    static func epochsCompleted(in metadata: [String: String], package: URL) throws -> Int {
        guard let text = metadata[MetadataKey.epochsCompleted] else { return 0 }
        let file = package.appendingPathComponent(ModelPackage.manifestFileName).path
        guard let value = Int(text) else {
            throw OutOfRangeError(name: "metadata.epochsCompleted", value: "'\(text)'", expected: "a whole number of epochs", file: file)
        }
        try InputLimits.check(value, in: 0...LanguageModelTrainingOptions.epochsRange.upperBound,
                              name: "metadata.epochsCompleted", file: file)
        return value
    }

}

import Foundation
import NLUCore
import NLUText
import NLUTransformers
import NLUInputOutput

/// Fine-tunes a BERT-family checkpoint for extractive question answering on a SQuAD v1.1 / v2.0 dataset,
/// as transformers' `run_qa` does: the dataset cut into training windows (``QuestionAnsweringTrainingSet``),
/// the checkpoint's encoder with its `qa_outputs` head (or a new one, initialized as transformers does) and
/// Hugging Face `Trainer`'s loop (``QuestionAnsweringTrainer``) over batches of windows of similar lengths
/// (``LengthGroupedBatches``, each padded to its longest), epoch after epoch. A seed makes a run repeat on
/// one CPU level; a non-finite loss stops it with ``TrainingDivergedError``.
///
///     let tuner = try QuestionAnsweringFineTuner(checkpoint: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let windows = try tuner.trainingSet(SQuADDataset(contentsOf: URL(fileURLWithPath: "train-v1.1.json")))
///     let result = try tuner.train(windows) { progress in
///         print("epoch \(progress.epoch) step \(progress.step)/\(progress.totalSteps) loss \(progress.loss)")
///     }
///     try result.trainer.save(to: URL(fileURLWithPath: "minilm-squad"), source: tuner.checkpoint)
public struct QuestionAnsweringFineTuner {
    /// Where a run stands, after every optimizer step: enough for a progress line.
    public struct Progress: Sendable, Equatable {
        /// The epoch under way, from 1.
        public var epoch: Int
        /// Optimizer steps taken, from 1.
        public var step: Int
        /// Optimizer steps of the whole run.
        public var totalSteps: Int
        /// The loss of the last step's micro-batches.
        public var loss: Float
        /// Training windows processed per second of wall-clock time since the start.
        public var windowsPerSecond: Double
        /// Seconds since the start.
        public var seconds: Double
    }

    /// The held-out questions' scores after an epoch (run_qa's evaluation, each epoch).
    public struct Validation: Sendable, Equatable, EpochValidation {
        /// The epoch just finished, from 1.
        public var epoch: Int
        /// Exact match and F1 in percent, as `nlu qa evaluate` prints them.
        public var report: SQuADEvaluation.Report
        /// With ``QuestionAnsweringFineTuningOptions/keepBest``: whether this epoch's score is the best so far
        /// (its weights are kept); nil without it.
        public var isBest: Bool?
    }

    /// What a run gives: the trainer holding the fine-tuned encoder and head, and every optimizer step's record.
    public struct Result {
        /// The encoder and head after training (``QuestionAnsweringTrainer/save(to:source:)`` writes them).
        public var trainer: QuestionAnsweringTrainer
        /// The optimizer steps, in order.
        public var steps: [FineTuningStep]
        /// Seconds the training took (validation included).
        public var seconds: Double
        /// The validation questions' scores after each epoch (none without them).
        public var validations: [Validation] = []
        /// The epoch whose weights ``trainer`` holds: the best by ``QuestionAnsweringFineTuningOptions/keepBest``,
        /// else the last one trained (fewer than the options' epochs when early stopping ended the run).
        public var keptEpoch: Int
    }

    /// The model folder training starts from (a checkpoint or a sentence-transformers folder).
    public let checkpoint: URL
    /// The run's settings, validated.
    public let options: QuestionAnsweringFineTuningOptions
    /// The checkpoint's tokenizer.
    public let tokenizer: BertTokenizer
    /// The folder of the encoder's `config.json` and `model.safetensors`.
    private let encoderCheckpoint: URL

    /// Reads the checkpoint's tokenizer and configuration and checks `options` against them.
    /// - Throws: ``TrainingSettingError`` naming an option out of range (a window longer than the
    ///   checkpoint's positions); the checkpoint's or tokenizer's error for a folder that is not a model.
    public init(checkpoint: URL, options: QuestionAnsweringFineTuningOptions = .init()) throws {
        try options.validate()
        encoderCheckpoint = try TrainableEncoder.checkpointDirectory(ofModel: checkpoint)
        let configuration = try CheckpointDirectory(encoderCheckpoint).configuration()
        if options.maxSequenceLength > configuration.maxSequenceLength {
            throw TrainingSettingError(setting: "maxSequenceLength", value: "\(options.maxSequenceLength)",
                                       requirement: "at most the checkpoint's \(configuration.maxSequenceLength) positions")
        }
        tokenizer = try BertTokenizer(modelDirectory: encoderCheckpoint)
        self.checkpoint = checkpoint
        self.options = options
    }

    /// The training windows of `dataset` with this checkpoint's tokenizer and the options' window, stride,
    /// answerability and strictness.
    /// - Throws: as ``QuestionAnsweringTrainingSet/init(dataset:tokenizer:maxSequenceLength:stride:allowsUnanswerable:strict:)``,
    ///   and ``QuestionAnsweringTrainingError/noTrainingWindows(skipped:)`` when no question is left.
    public func trainingSet(_ dataset: SQuADDataset) throws -> QuestionAnsweringTrainingSet {
        let set = try QuestionAnsweringTrainingSet(dataset: dataset, tokenizer: tokenizer, maxSequenceLength: options.maxSequenceLength,
                                                   stride: options.documentStride, allowsUnanswerable: options.allowsUnanswerable,
                                                   strict: options.strict)
        guard !set.windows.isEmpty else { throw QuestionAnsweringTrainingError.noTrainingWindows(skipped: set.skippedQuestionIDs.count) }
        return set
    }

    /// Fine-tunes on every window of `set`, calling `progress` after each optimizer step. With `validation`,
    /// its questions are answered after each epoch as ``QuestionAnswerer`` answers them (windows of the
    /// options' length and stride, no dropout; SQuAD 2.0 files may answer nothing) and scored (exact match,
    /// F1), handed to `validated`. The run takes the same steps with or without them; with
    /// ``QuestionAnsweringFineTuningOptions/keepBest`` it ends holding its best epoch's weights, and stops early
    /// after ``QuestionAnsweringFineTuningOptions/earlyStoppingPatience`` epochs without improvement.
    /// - Throws: ``TrainingDivergedError`` when the loss stops being finite; the checkpoint's error for
    ///   weights that cannot be read; ``QuestionAnsweringError`` naming a validation question that cannot be answered;
    ///   ``TrainingSettingError`` (setting `keepBest`) for `keepBest` without validation questions.
    public func train(_ set: QuestionAnsweringTrainingSet, validation: SQuADDataset? = nil, progress: (Progress) -> Void = { _ in },
                      validated: (Validation) -> Void = { _ in }) throws -> Result {
        guard !set.windows.isEmpty else { throw QuestionAnsweringTrainingError.noTrainingWindows(skipped: set.skippedQuestionIDs.count) }
        if let metric = options.keepBest, validation == nil {
            throw TrainingSettingError(setting: "keepBest", value: metric.rawValue, requirement: "validation questions to score each epoch")
        }
        let encoder = try TrainableEncoder(checkpoint: encoderCheckpoint, ignoringTaskHead: true, dropoutSeed: options.seed)
        encoder.dropout = EncoderDropout(probability: options.dropout)
        let hidden = encoder.configuration.hiddenSize
        try encoder.checkTrainingMemory(batchSize: options.batchSize, sequencesPerBatch: min(options.batchSize, set.windows.count),
                                        longest: set.windows.map(\.tokenIDs.count).max() ?? 1, headParameters: 2 * (hidden + 1),
                                        keepingBestWeights: options.keepBest != nil)
        let weights = try CheckpointDirectory(encoderCheckpoint).weights()
        var headRandom = SplitMix64(seed: options.seed &+ 1)
        let head = try QuestionAnsweringHead.stored(in: weights, hiddenSize: hidden)
            ?? QuestionAnsweringHead(hiddenSize: hidden, initializerRange: Self.initializerRange(of: encoderCheckpoint), using: &headRandom)

        let windows = set.windows
        let batchesPerEpoch = (windows.count + options.batchSize - 1) / options.batchSize
        let schedule = try LinearWarmupSchedule(epochs: options.epochs, batchesPerEpoch: batchesPerEpoch,
                                                accumulationSteps: options.accumulationSteps, warmupRatio: options.warmupRatio)
        let trainer = try QuestionAnsweringTrainer(
            encoder: encoder, head: head, learningRate: options.learningRate, weightDecay: options.weightDecay,
            maxGradientNorm: options.maxGradientNorm, schedule: schedule, accumulationSteps: options.accumulationSteps,
            batchesPerEpoch: batchesPerEpoch)

        var loop = FineTuningLoop(trainer: trainer, epochs: options.epochs, totalSteps: schedule.trainingSteps,
                                  keeper: options.keepBest.map { _ in BestEpochKeeper(greaterIsBetter: true, patience: options.earlyStoppingPatience) })
        // One generator over the run (run_qa's sampler), not reseeded per epoch: QA runs have no checkpoint to resume.
        var order = SplitMix64(seed: options.seed)
        let outcome = try loop.run(
            batches: { _ in LengthGroupedBatches(lengths: windows.map(\.tokenIDs.count), batchSize: options.batchSize, using: &order).batches },
            step: { members, _ in
                let batch = try EncoderBatch(tokenIDs: members.map { windows[$0].tokenIDs },
                                             tokenTypeIDs: members.map { windows[$0].tokenTypeIDs }, padID: tokenizer.padID)
                return try trainer.train(batch, startPositions: members.map { windows[$0].startPosition },
                                         endPositions: members.map { windows[$0].endPosition }).completedStep
            },
            stepped: { report in
                progress(Progress(epoch: report.epoch, step: report.step.step, totalSteps: schedule.trainingSteps, loss: report.step.loss,
                                  windowsPerSecond: report.examplesPerSecond, seconds: report.seconds))
            },
            validate: { epoch in try validation.map { Validation(epoch: epoch, report: try evaluate(trainer, on: $0)) } },
            keepScore: { options.keepBest?.score($0.report) }, validated: validated)
        // The trained encoder scores as in evaluation, without dropout.
        encoder.dropout = nil
        return Result(trainer: trainer, steps: outcome.steps, seconds: outcome.seconds, validations: outcome.validations,
                      keptEpoch: outcome.keptEpoch)
    }

    /// `dataset`'s questions answered by the trainer's current weights, without dropout, and scored.
    private func evaluate(_ trainer: QuestionAnsweringTrainer, on dataset: SQuADDataset) throws -> SQuADEvaluation.Report {
        let answerer = QuestionAnswerer(model: TrainingQuestionAnsweringModel(trainer: trainer), tokenizer: tokenizer,
                                        modelMaxLength: BertTokenizer.modelMaxLength(in: encoderCheckpoint))
        return try trainer.encoder.withoutDropout {
            try SQuADEvaluation.evaluate(answerer, on: dataset,
                                         options: AnswerOptions(maxSequenceLength: options.maxSequenceLength, documentStride: options.documentStride))
        }
    }

    /// `config.json`'s `initializer_range` (transformers' default 0.02), the spread of a new head's weights.
    static func initializerRange(of checkpoint: URL) throws -> Float {
        struct Fields: Decodable { var initializer_range: Float? }
        let url = checkpoint.appendingPathComponent("config.json")
        let data = try CheckpointDirectory.readFile(url, expected: "the model configuration (config.json)")
        let range = try JSONFile.decode(Fields.self, from: data, file: url.path).initializer_range ?? 0.02
        guard range.isFinite, range >= 0, range <= 10 else {
            throw CheckpointError.unreadableFile(path: url.path, reason: "field 'initializer_range': must be between 0 and 10, got \(range)")
        }
        return range
    }
}

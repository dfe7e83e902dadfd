import Foundation
import NLUCore

/// A score of the held-out data after an epoch, which ``FineTuningLoop`` marks when it keeps the epoch's weights.
public protocol EpochValidation {
    /// With a score to keep the best epoch by: whether this epoch's is the best so far; nil without one.
    var isBest: Bool? { get set }
}

/// Hugging Face Trainer's outer loop, once for every fine-tuning task (intents, joint intents and slots,
/// question answering, SetFit's contrastive stage, sentence embeddings): the epochs from where the run
/// stands, each epoch's batches through the task's step, a report after every optimizer step, the held-out
/// data scored after each epoch with the best epoch kept (``BestEpochKeeper``: `load_best_model_at_end`,
/// `EarlyStoppingCallback`), and the epoch's end, where a task writes its checkpoint. The task says how it
/// batches, steps, scores and saves; the loop owns the order of those and the clock.
///
///     var loop = FineTuningLoop(trainer: trainer, epochs: 3, totalSteps: schedule.trainingSteps)
///     let outcome = try loop.run(
///         batches: { epoch in batches(seededBy: epoch) },
///         step: { members, _ in try trainer.train(batch(members)).completedStep },
///         stepped: { print("epoch \($0.epoch) step \($0.step.step) loss \($0.step.loss)") })
///     print("kept epoch \(outcome.keptEpoch)")
public struct FineTuningLoop {
    /// Where an optimizer step leaves the run.
    public struct StepReport {
        /// The epoch under way, from 1.
        public var epoch: Int
        /// The step just taken.
        public var step: FineTuningStep
        /// Seconds since the loop started.
        public var seconds: Double
        /// Examples (micro-batch members) processed per second since the loop started.
        public var examplesPerSecond: Double
        /// Seconds the remaining steps should take at this run's pace so far.
        public var secondsLeft: Double
    }

    /// An epoch's end, after its validation: what a checkpoint written there needs.
    public struct EpochEnd {
        /// The epoch just finished, from 1.
        public var epoch: Int
        /// The mean loss of its optimizer steps.
        public var meanLoss: Float
        /// Whether the run ends after it (its last epoch, or early stopping).
        public var isLast: Bool
        /// The best epoch so far and its score (with a keeper).
        public var best: BestEpochKeeper.Best?
        /// The best epoch's weights when it is an earlier one than this (a checkpoint keeps them beside this epoch's).
        public var earlierBestWeights: [Tensor<Float>]?
    }

    /// What a run gives.
    public struct Outcome<Score> {
        /// The optimizer steps this run took, in order.
        public var steps: [FineTuningStep]
        /// The held-out scores after each epoch this run trained.
        public var validations: [Score]
        /// The last epoch trained (the epoch it resumed after, when none was left).
        public var lastEpoch: Int
        /// The epoch whose weights the trainer holds: the best one with a keeper, else ``lastEpoch``.
        public var keptEpoch: Int
        /// Seconds the loop took, validation included.
        public var seconds: Double
    }

    /// What is trained: its weights are kept and put back through ``TrainedWeights``.
    public let trainer: any TrainedWeights
    /// The run's epochs.
    public let epochs: Int
    /// The epoch this run starts at: 1, or the one after a checkpoint's.
    public let firstEpoch: Int
    /// Optimizer steps of the whole run (from its first epoch), for the time left.
    public let totalSteps: Int
    /// Keeps the best epoch by a score (nil: the run keeps its last epoch and never stops early).
    public private(set) var keeper: BestEpochKeeper?

    /// A loop over `epochs` epochs from `firstEpoch`; with `keeper`, the best epoch by its score is kept and
    /// the run may stop early.
    public init(trainer: any TrainedWeights, epochs: Int, firstEpoch: Int = 1, totalSteps: Int, keeper: BestEpochKeeper? = nil) {
        self.trainer = trainer
        self.epochs = epochs
        self.firstEpoch = firstEpoch
        self.totalSteps = totalSteps
        self.keeper = keeper
    }

    /// Runs the remaining epochs with no held-out data (as ``run(batches:step:stepped:validate:keepScore:validated:epochEnded:)``).
    public mutating func run<Members: Collection<Int>>(
        batches: (Int) throws -> [Members], step: (Members, Int) throws -> FineTuningStep?,
        stepped: (StepReport) -> Void = { _ in }, epochEnded: (EpochEnd) throws -> Void = { _ in }
    ) throws -> Outcome<NoValidation> {
        try run(batches: batches, step: step, stepped: stepped, validate: { _ in nil }, keepScore: { _ in nil }, validated: { _ in },
                epochEnded: epochEnded)
    }

    /// The score of a run without held-out data (never made).
    public struct NoValidation: EpochValidation {
        public var isBest: Bool?
    }

    /// Runs the remaining epochs. Each epoch takes `batches(epoch)` (groups of example indices; a task seeds
    /// its batch order and dropout there) and hands each group to `step(members, epoch)`, which returns the
    /// optimizer step it completed (nil for a micro-batch that only accumulates); `stepped` hears of each.
    /// After the epoch, `validate(epoch)` scores the held-out data (nil: there is none); with a keeper, the
    /// weights are kept when `keepScore` of that score improves on the best (the score is marked
    /// ``EpochValidation/isBest``), then `validated` hears of it. `epochEnded` closes every epoch. At the end the best epoch's weights are put
    /// back into the trainer.
    /// - Throws: whatever the task's closures throw; ``TrainingSettingError`` when kept weights no longer fit.
    public mutating func run<Members: Collection<Int>, Score: EpochValidation>(
        batches: (Int) throws -> [Members], step: (Members, Int) throws -> FineTuningStep?,
        stepped: (StepReport) -> Void = { _ in }, validate: (Int) throws -> Score?, keepScore: (Score) -> Double?,
        validated: (Score) -> Void = { _ in }, epochEnded: (EpochEnd) throws -> Void = { _ in }
    ) throws -> Outcome<Score> {
        var steps: [FineTuningStep] = []
        var validations: [Score] = []
        var examples = 0
        var lastEpoch = firstEpoch - 1
        let start = DispatchTime.now().uptimeNanoseconds
        func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        // Checked before the first epoch too: a run resumed from the epoch early stopping ended at trains no more.
        if keeper?.shouldStop(after: lastEpoch) != true {
            for epoch in stride(from: firstEpoch, through: epochs, by: 1) {
                var epochLoss = 0.0, epochSteps = 0
                for members in try batches(epoch) {
                    let taken = try step(members, epoch)
                    examples += members.count
                    guard let taken else { continue }
                    steps.append(taken)
                    epochLoss += Double(taken.loss)
                    epochSteps += 1
                    let elapsed = seconds()
                    stepped(StepReport(epoch: epoch, step: taken, seconds: elapsed,
                                       examplesPerSecond: elapsed > 0 ? Double(examples) / elapsed : 0,
                                       secondsLeft: elapsed * Double(max(0, totalSteps - taken.step)) / Double(steps.count)))
                }
                lastEpoch = epoch
                if var score = try validate(epoch) {
                    if keeper != nil { score.isBest = keeper?.record(epoch: epoch, score: keepScore(score), of: trainer) }
                    validations.append(score)
                    validated(score)
                }
                let best = keeper?.best
                let isLast = epoch == epochs || keeper?.shouldStop(after: epoch) == true
                try epochEnded(EpochEnd(epoch: epoch, meanLoss: Float(epochLoss / Double(max(1, epochSteps))), isLast: isLast, best: best,
                                        earlierBestWeights: best.flatMap { $0.epoch == epoch ? nil : keeper?.weights }))
                if isLast { break }
            }
        }
        let kept = try keeper?.restoreBest(into: trainer, trainedThrough: lastEpoch) ?? lastEpoch
        return Outcome(steps: steps, validations: validations, lastEpoch: lastEpoch, keptEpoch: kept, seconds: seconds())
    }
}

import NLUCore
import NLUTransformers
import Testing

/// `FineTuningLoop`, the outer loop every fine-tuning command shares, on a stand-in trainer whose one weight
/// counts the optimizer steps: the order of batches, steps, validation and epoch ends; the best epoch kept and
/// put back; early stopping (Trainer's `EarlyStoppingCallback`: patience counted from the best epoch), also for
/// a run resumed where it stopped. The tasks' own runs (to the bit, resumed or not) are in their suites.
@Suite struct FineTuningLoopTests {
    /// One weight, set to the number of optimizer steps taken.
    final class StepCounter: TrainedWeights {
        var value: Float = 0
        var weightNames: [String] { ["steps"] }
        var weights: [Tensor<Float>] { [Tensor(shape: [1], scalars: [value])] }
        func load(_ weights: [Tensor<Float>]) throws {
            try #require(weights.count == 1)
            value = weights[0].scalars[0]
        }
    }

    struct Score: EpochValidation {
        var epoch: Int
        var value: Double
        var isBest: Bool?
    }

    /// Epochs of 3 micro-batches of 2 examples; every second micro-batch completes an optimizer step (loss = the step).
    static func run(_ loop: inout FineTuningLoop, counter: StepCounter, scores: [Double],
                    ends: inout [FineTuningLoop.EpochEnd], validated: inout [Score], reports: inout [FineTuningLoop.StepReport])
        throws -> FineTuningLoop.Outcome<Score> {
        var microBatches = 0
        return try loop.run(
            batches: { _ in [[0, 1], [2, 3], [4, 5]] },
            step: { _, _ in
                microBatches += 1
                guard microBatches % 2 == 0 else { return nil }
                counter.value += 1
                return FineTuningStep(step: Int(counter.value), loss: counter.value, learningRate: 0, gradientNorm: 0)
            },
            stepped: { reports.append($0) },
            validate: { epoch in Score(epoch: epoch, value: scores[epoch - 1]) },
            keepScore: { $0.value },
            validated: { validated.append($0) },
            epochEnded: { ends.append($0) })
    }

    @Test func withoutAKeeperEveryEpochRunsAndTheLastIsKept() throws {
        let counter = StepCounter()
        var loop = FineTuningLoop(trainer: counter, epochs: 4, totalSteps: 6)
        var ends: [FineTuningLoop.EpochEnd] = [], validated: [Score] = [], reports: [FineTuningLoop.StepReport] = []
        let outcome = try Self.run(&loop, counter: counter, scores: [1, 2, 3, 4], ends: &ends, validated: &validated, reports: &reports)
        // 12 micro-batches, 6 steps: an accumulation group runs on across the epoch's end as the counter does here.
        #expect(outcome.steps.map(\.step) == [1, 2, 3, 4, 5, 6])
        #expect(reports.map(\.epoch) == [1, 2, 2, 3, 4, 4])
        #expect(reports.allSatisfy { $0.examplesPerSecond >= 0 && $0.secondsLeft >= 0 })
        #expect(reports.last?.secondsLeft == 0)
        #expect(ends.map(\.epoch) == [1, 2, 3, 4])
        #expect(ends.map(\.isLast) == [false, false, false, true])
        #expect(ends.map(\.meanLoss) == [1, 2.5, 4, 5.5])
        #expect(ends.allSatisfy { $0.best == nil && $0.earlierBestWeights == nil })
        #expect(validated.map(\.epoch) == [1, 2, 3, 4])
        #expect(validated.allSatisfy { $0.isBest == nil }, "no keeper: no epoch is marked")
        #expect(outcome.validations.map(\.value) == [1, 2, 3, 4])
        #expect(outcome.lastEpoch == 4 && outcome.keptEpoch == 4)
        #expect(counter.value == 6)
    }

    @Test func theBestEpochIsKeptAndPatienceEndsTheRun() throws {
        let counter = StepCounter()
        var loop = FineTuningLoop(trainer: counter, epochs: 6, totalSteps: 9,
                                  keeper: BestEpochKeeper(greaterIsBetter: true, patience: 2))
        var ends: [FineTuningLoop.EpochEnd] = [], validated: [Score] = [], reports: [FineTuningLoop.StepReport] = []
        // Epoch 3 is the best; 4 ties with nothing better and 5 is worse: two epochs without improvement stop it after 5.
        let outcome = try Self.run(&loop, counter: counter, scores: [0.5, 0.6, 0.8, 0.8, 0.7, 0.99], ends: &ends,
                                   validated: &validated, reports: &reports)
        #expect(validated.map(\.isBest) == [true, true, true, false, false])
        #expect(ends.map(\.isLast) == [false, false, false, false, true])
        #expect(ends.map { $0.best?.epoch } == [1, 2, 3, 3, 3])
        // Steps complete at micro-batches 2, 4, 6, 8, ...: 4 steps by the end of epoch 3.
        #expect(ends.map { $0.earlierBestWeights?.first?.scalars } == [nil, nil, nil, [4], [4]])
        #expect(outcome.lastEpoch == 5 && outcome.keptEpoch == 3)
        #expect(counter.value == 4, "the best epoch's weight is put back (5 steps were taken)")
        #expect(loop.keeper?.best == BestEpochKeeper.Best(epoch: 3, score: 0.8))
    }

    @Test func aScoreThatIsNotFiniteIsNeverTheBest() throws {
        let counter = StepCounter()
        var loop = FineTuningLoop(trainer: counter, epochs: 3, totalSteps: 4, keeper: BestEpochKeeper(greaterIsBetter: false))
        var ends: [FineTuningLoop.EpochEnd] = [], validated: [Score] = [], reports: [FineTuningLoop.StepReport] = []
        let outcome = try Self.run(&loop, counter: counter, scores: [.nan, 2, .infinity], ends: &ends, validated: &validated,
                                   reports: &reports)
        #expect(validated.map(\.isBest) == [false, true, false])
        #expect(outcome.keptEpoch == 2 && outcome.lastEpoch == 3)
    }

    @Test func aRunResumedWhereEarlyStoppingEndedItTrainsNoMore() throws {
        let counter = StepCounter()
        counter.value = 7
        let best = BestEpochKeeper(greaterIsBetter: true, patience: 2, best: .init(epoch: 2, score: 0.9),
                                   weights: [Tensor(shape: [1], scalars: [3])])
        var loop = FineTuningLoop(trainer: counter, epochs: 6, firstEpoch: 5, totalSteps: 9, keeper: best)
        var ends: [FineTuningLoop.EpochEnd] = [], validated: [Score] = [], reports: [FineTuningLoop.StepReport] = []
        let outcome = try Self.run(&loop, counter: counter, scores: Array(repeating: 1, count: 6), ends: &ends,
                                   validated: &validated, reports: &reports)
        #expect(ends.isEmpty && validated.isEmpty && outcome.steps.isEmpty)
        #expect(outcome.lastEpoch == 4 && outcome.keptEpoch == 2)
        #expect(counter.value == 3, "the checkpoint's best weights are put back")
    }

    @Test func aResumedRunStartsAtItsFirstEpoch() throws {
        let counter = StepCounter()
        var loop = FineTuningLoop(trainer: counter, epochs: 3, firstEpoch: 3, totalSteps: 2)
        var ends: [FineTuningLoop.EpochEnd] = [], validated: [Score] = [], reports: [FineTuningLoop.StepReport] = []
        let outcome = try Self.run(&loop, counter: counter, scores: [0, 0, 0], ends: &ends, validated: &validated, reports: &reports)
        #expect(ends.map(\.epoch) == [3] && ends.first?.isLast == true)
        #expect(outcome.lastEpoch == 3 && outcome.keptEpoch == 3)
        var finished = FineTuningLoop(trainer: counter, epochs: 3, firstEpoch: 4, totalSteps: 2)
        let none = try finished.run(batches: { _ in [[0]] }, step: { _, _ in Issue.record("no epoch is left to train"); return nil })
        #expect(none.steps.isEmpty && none.lastEpoch == 3 && none.keptEpoch == 3)
    }
}

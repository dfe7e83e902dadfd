import Foundation
import NLUCore
import NLUTestSupport
import Testing
@testable import NLUQuestionAnswering

/// Held-out SQuAD questions answered and scored after each epoch of `QuestionAnsweringFineTuner`: the
/// last epoch's exact match and F1 are those of `nlu qa evaluate` on the checkpoint the run saves (the
/// same windows and span decoding, through the inference encoder), and the run takes the same steps
/// with or without them.
@Suite struct QuestionAnsweringValidationTests {
    /// Batches of 32 windows of 32 tokens (stride 10) on the tiny checkpoint.
    static func options(epochs: Int, learningRate: Float) -> QuestionAnsweringFineTuningOptions {
        var options = QuestionAnsweringFineTuningOptions()
        options.epochs = epochs
        options.batchSize = 32
        options.learningRate = learningRate
        options.maxSequenceLength = 32
        options.documentStride = 10
        return options
    }

    @Test func eachEpochIsScoredAsTheSavedCheckpointEvaluates() throws {
        let dataset = try SQuADDataset(contentsOf: QATrainingFixtures.squad)
        let options = Self.options(epochs: 2, learningRate: 1e-3)
        let tuner = try QuestionAnsweringFineTuner(checkpoint: QATrainingFixtures.checkpoint, options: options)
        let set = try tuner.trainingSet(dataset)
        let plain = try tuner.train(set)
        var handed: [QuestionAnsweringFineTuner.Validation] = []
        let scored = try tuner.train(set, validation: dataset, validated: { handed.append($0) })
        #expect(scored.steps == plain.steps)
        #expect(plain.validations.isEmpty && handed == scored.validations && handed.map(\.epoch) == [1, 2])
        #expect(handed.allSatisfy { $0.report.count == dataset.questions.count })

        let folder = TestScratch.file("nlukit-qa-validation")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let saved = folder.appendingPathComponent("tuned")
        try scored.trainer.save(to: saved, source: QATrainingFixtures.checkpoint)
        let loaded = try QuestionAnswerer(modelDirectory: saved)
        let window = AnswerOptions(maxSequenceLength: 32, documentStride: 10, handleImpossibleAnswer: true)
        let reference = try SQuADEvaluation.evaluate(loaded, on: dataset, options: window)
        // Question by question, the model under training (as validation reads it) answers as the saved checkpoint.
        let training = QuestionAnswerer(model: TrainingQuestionAnsweringModel(trainer: scored.trainer), tokenizer: tuner.tokenizer,
                                        modelMaxLength: 512)
        for item in dataset.questions {
            let ours = try training.answers(to: item.question, in: item.context, options: window).first
            let theirs = try loaded.answers(to: item.question, in: item.context, options: window).first
            #expect(ours?.text == theirs?.text && ours?.start == theirs?.start, "\(item.id): \(String(describing: ours)) against \(String(describing: theirs))")
        }
        let last = try #require(handed.last).report
        #expect(last.exactMatch == reference.exactMatch && last.f1 == reference.f1, "validation \(last), saved checkpoint \(reference)")
        print("validation after 2 epochs: exact match \(last.exactMatch), F1 \(last.f1) over \(last.count) questions")
    }

    /// `keepBest` (Trainer's `load_best_model_at_end`): the run ends holding the epoch with the best F1 (the
    /// first of equal scores), which answers the questions as that epoch's validation scored them; the steps
    /// are the plain run's. `earlyStoppingPatience` ends the run after that many epochs without improvement.
    @Test func theBestEpochIsKept() throws {
        let dataset = try SQuADDataset(contentsOf: QATrainingFixtures.squad)
        var options = Self.options(epochs: 4, learningRate: 1e-2)
        let plainTuner = try QuestionAnsweringFineTuner(checkpoint: QATrainingFixtures.checkpoint, options: options)
        let set = try plainTuner.trainingSet(dataset)
        let plain = try plainTuner.train(set, validation: dataset)
        options.keepBest = .f1
        let tuner = try QuestionAnsweringFineTuner(checkpoint: QATrainingFixtures.checkpoint, options: options)
        let kept = try tuner.train(set, validation: dataset)
        #expect(kept.steps == plain.steps && plain.keptEpoch == 4)
        let scores = kept.validations.map(\.report.f1)
        #expect(kept.validations.map(\.isBest) == scores.indices.map { index in scores[..<index].allSatisfy { scores[index] > $0 } })
        #expect(kept.keptEpoch == scores.firstIndex(of: scores.max() ?? 0).map { $0 + 1 } && kept.keptEpoch < 4, "F1 by epoch \(scores)")

        let window = AnswerOptions(maxSequenceLength: 32, documentStride: 10, handleImpossibleAnswer: true)
        func report(_ trainer: QuestionAnsweringTrainer) throws -> SQuADEvaluation.Report {
            try SQuADEvaluation.evaluate(QuestionAnswerer(model: TrainingQuestionAnsweringModel(trainer: trainer), tokenizer: tuner.tokenizer,
                                                          modelMaxLength: 512), on: dataset, options: window)
        }
        let keptReport = try report(kept.trainer), lastReport = try report(plain.trainer)
        let epoch = kept.validations[kept.keptEpoch - 1].report
        #expect(keptReport.f1 == epoch.f1 && keptReport.exactMatch == epoch.exactMatch, "kept \(keptReport), epoch \(epoch)")
        #expect(lastReport.f1 == scores[3] && kept.trainer.headTensors != plain.trainer.headTensors)

        options.earlyStoppingPatience = 1
        let stopped = try QuestionAnsweringFineTuner(checkpoint: QATrainingFixtures.checkpoint, options: options).train(set, validation: dataset)
        let stoppedScores = stopped.validations.map(\.report.f1)
        #expect(stopped.validations.count < 4 && stoppedScores == Array(scores.prefix(stoppedScores.count)), "\(stoppedScores) of \(scores)")
        #expect(stopped.steps == Array(plain.steps.prefix(stopped.steps.count)))
        #expect(throws: TrainingSettingError(setting: "keepBest", value: "f1", requirement: "validation questions to score each epoch")) {
            try tuner.train(set)
        }
    }
}

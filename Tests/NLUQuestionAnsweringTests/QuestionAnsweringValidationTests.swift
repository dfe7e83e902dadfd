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
    @Test func eachEpochIsScoredAsTheSavedCheckpointEvaluates() throws {
        let dataset = try SQuADDataset(contentsOf: QATrainingFixtures.squad)
        var options = QuestionAnsweringFineTuningOptions()
        options.epochs = 2
        options.batchSize = 32
        options.learningRate = 1e-3
        options.maxSequenceLength = 32
        options.documentStride = 10
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
}

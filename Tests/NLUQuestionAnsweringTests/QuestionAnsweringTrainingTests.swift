import Foundation
import NLUCore
import NLUTestSupport
import NLUText
import Testing
@testable import NLUQuestionAnswering

/// Question-answering fine-tuning against `scripts/fixtures/qa_finetune.py` (transformers 4.57.6, torch
/// 2.15.0) on the tiny random checkpoint `qa/bert-tiny`.
@Suite struct QuestionAnsweringTrainingTests {
    private func trainingSet(strict: Bool = false, allowsUnanswerable: Bool? = nil) throws -> QuestionAnsweringTrainingSet {
        let reference = try QATrainingFixtures.load(QATrainingFixtures.Windows.self, "qa/train-windows.json")
        return try QuestionAnsweringTrainingSet(
            dataset: SQuADDataset(contentsOf: QATrainingFixtures.squad), tokenizer: BertTokenizer(modelDirectory: QATrainingFixtures.checkpoint),
            maxSequenceLength: reference.maxLength, stride: reference.stride, allowsUnanswerable: allowsUnanswerable, strict: strict)
    }

    /// run_qa's windows of a long context (answers at every other word, windows of 32 tokens with a stride
    /// of 10, so answers fall across window edges and into a window's last context token), questions with
    /// leading spaces, answers in word pieces, an unanswerable question: the same token ids, types and
    /// start/end positions, window by window; the two answers not at their answer_start skipped.
    @Test func windowsAreRunQAsWindows() throws {
        let reference = try QATrainingFixtures.load(QATrainingFixtures.Windows.self, "qa/train-windows.json")
        let set = try trainingSet()
        #expect(set.skippedQuestionIDs == reference.skipped)
        #expect(set.windows.count == reference.windows.count)
        for (index, (ours, theirs)) in zip(set.windows, reference.windows).enumerated() {
            #expect(ours.questionID == theirs.id, "window \(index)")
            #expect(ours.tokenIDs == theirs.input_ids, "window \(index) of \(theirs.id): token ids")
            #expect(ours.tokenTypeIDs == theirs.token_type_ids, "window \(index) of \(theirs.id): token types")
            #expect(ours.startPosition == theirs.start && ours.endPosition == theirs.end,
                    "window \(index) of \(theirs.id): (\(ours.startPosition), \(ours.endPosition)), run_qa (\(theirs.start), \(theirs.end))")
        }
        #expect(set.unanswerableCount == 1)
        #expect(set.questionCount == Set(reference.windows.map(\.id)).count)
        // Not a fixture that cannot fail: answers inside windows and [CLS] targets both occur.
        #expect(reference.windows.contains { $0.start > 0 } && reference.windows.contains { $0.start == 0 })
    }

    @Test func strictRefusesAnswersNotAtTheirStartNamingThem() throws {
        #expect(throws: QuestionAnsweringTrainingError.answersNotInContext(questionIDs: ["mismatch-1", "mismatch-2"])) {
            try trainingSet(strict: true)
        }
    }

    @Test func aQuestionWithoutAnswerIsRefusedInVersion1NamingIt() throws {
        #expect(throws: QuestionAnsweringTrainingError.unanswerableInVersion1(questionID: "short-2")) {
            try trainingSet(allowsUnanswerable: false)
        }
        let json = #"{"version": "1.1", "data": [{"paragraphs": [{"context": "the fox", "qas": [{"id": "q1", "question": "who?", "answers": []}]}]}]}"#
        let dataset = try SQuADDataset(data: Data(json.utf8), file: "v1.json")
        let tokenizer = try BertTokenizer(modelDirectory: QATrainingFixtures.checkpoint)
        let error = try #require(throws: QuestionAnsweringTrainingError.self) {
            try QuestionAnsweringTrainingSet(dataset: dataset, tokenizer: tokenizer)
        }
        #expect(error.description.contains("question 'q1' has no answer") && error.description.contains("--version-2-with-negative"))
    }

    /// The loss, the start/end logits and every parameter's gradient (encoder and `qa_outputs`) of
    /// BertForQuestionAnswering on three padded windows (two answers, one [CLS] target), against autograd
    /// in float64. Bounds as the encoder's gradient tests (EncoderGradientTests): each parameter within
    /// 1e-5 of its norm (+1e-5 absolute, for the key biases whose exact gradient is zero), each element
    /// within 5e-4 of its magnitude (or 5e-6 absolute near zero).
    @Test func gradientsMatchAutograd() throws {
        let reference = try QATrainingFixtures.load(QATrainingFixtures.Gradients.self, "training/qa-gradients.json")
        let encoder = try TrainableEncoder(checkpoint: QATrainingFixtures.checkpoint, ignoringTaskHead: true)
        let weights = try CheckpointDirectory(QATrainingFixtures.checkpoint).weights()
        let head = try #require(try QuestionAnsweringHead.stored(in: weights, hiddenSize: encoder.configuration.hiddenSize))
        let batch = try reference.batch.encoderBatch()
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        let hidden = try encoder.forward(batch, workspace: workspace)
        let logits = head.logits(hidden)
        for (ours, theirs) in [(logits.start.scalars, reference.start_logits), (logits.end.scalars, reference.end_logits)] {
            let worst = zip(ours, theirs).map { abs(Double($0) - $1) / (abs($1) + 1) }.max() ?? .infinity
            #expect(worst <= 1e-5, "logits off by \(worst)")
        }
        let (loss, headGradients) = head.lossAndGradients(hidden: hidden, startPositions: reference.batch.start_positions,
                                                          endPositions: reference.batch.end_positions)
        #expect(abs(Double(loss) - reference.loss) <= 1e-5 * reference.loss, "loss \(loss), autograd \(reference.loss)")
        encoder.zeroGradients()
        try encoder.backward(headGradients.input, workspace: workspace)

        var ours: [String: Tensor<Float>] = [QuestionAnsweringHead.tensorNames.weight: headGradients.weight]
        ours[QuestionAnsweringHead.tensorNames.bias] = headGradients.bias
        for (index, name) in encoder.parameters.names.enumerated() { ours["bert." + name] = encoder.parameters.gradients[index] }
        #expect(Set(ours.keys) == Set(reference.gradients.keys))
        for (name, expected) in reference.gradients {
            let actual = try #require(ours[name], "no gradient for \(name)")
            #expect(actual.shape == expected.shape, "\(name)")
            var difference = 0.0, norm = 0.0, worst = 0.0
            for (a, e) in zip(actual.scalars, expected.dense) {
                difference += (Double(a) - e) * (Double(a) - e)
                norm += e * e
                worst = max(worst, abs(Double(a) - e) / (abs(e) + 1e-2))
            }
            #expect(difference.squareRoot() <= 1e-5 * norm.squareRoot() + 1e-5, "\(name): off by \(difference.squareRoot()), norm \(norm.squareRoot())")
            #expect(worst <= 5e-4, "\(name): an element off by \(worst) relative")
        }
    }

    /// A position equal to the sequence length is ignored (transformers' `ignored_index`) and one past it
    /// clamped to it; with every row ignored the loss is 0. Hand-worked: two positions, logits 0 → loss ln 2.
    @Test func positionsOutsideTheWindowAreIgnored() throws {
        let head = try QuestionAnsweringHead(linear: Linear(weight: Tensor(shape: [2, 1]), bias: Tensor(shape: [2])))
        let hidden = Tensor<Float>(shape: [2, 2, 1], scalars: [1, 2, 3, 4])
        let kept = head.lossAndGradients(hidden: hidden, startPositions: [1, 2], endPositions: [0, 7]).loss
        #expect(abs(kept - Float(log(2.0))) < 1e-6)
        #expect(head.lossAndGradients(hidden: hidden, startPositions: [2, 9], endPositions: [2, 2]).loss == 0)
    }

    /// The issue's bar: the loss at every one of 20 AdamW steps (warm-up, accumulation 2, clipping at 1,
    /// weight decay) within 1e-5 relative of PyTorch's, and each batch's loss after them. The tiny model
    /// learns the fixture's windows by step 15 (loss 0.0089): there a relative bar on F32 losses measures
    /// rounding, not the step (1.6e-7 absolute is 1.7e-5 relative), so a step also passes within 2e-7 absolute.
    @Test func twentyStepsMatchPyTorch() throws {
        let reference = try QATrainingFixtures.load(QATrainingFixtures.Finetune.self, "training/qa-finetune.json")
        let trainer = try QATrainingFixtures.makeTrainer(reference)
        let steps = try QATrainingFixtures.run(trainer, reference)
        #expect(steps.count == 20)
        var worst: Float = 0
        for (ours, theirs) in zip(steps, reference.steps) {
            let relative = abs(ours.loss - theirs.loss) / abs(theirs.loss)
            worst = max(worst, relative)
            #expect(relative <= 1e-5 || abs(ours.loss - theirs.loss) <= 2e-7, "step \(ours.step): loss \(ours.loss), PyTorch \(theirs.loss)")
            #expect(abs(ours.learningRate - theirs.learningRate) <= 1e-9 + 1e-6 * theirs.learningRate, "step \(ours.step)")
            #expect(abs(ours.gradientNorm - theirs.gradientNorm) <= 1e-4 * theirs.gradientNorm, "step \(ours.step) norm")
        }
        print("QA fine-tuning: largest relative loss difference over 20 steps \(worst)")
        for (batch, loss) in zip(reference.batches, reference.losses) {
            let ours = try trainer.loss(batch.encoderBatch(), startPositions: batch.start_positions, endPositions: batch.end_positions)
            #expect(abs(ours - loss) <= 1e-5 * loss + 1e-7, "loss after 20 steps: \(ours), PyTorch \(loss)")
        }
    }

    /// After the 20 steps the trainer saves a BertForQuestionAnswering folder whose answers through NLUKit's
    /// QuestionAnswerer are those of transformers' pipeline on PyTorch's own 20 steps (texts, starts and ends
    /// equal, scores within 1e-3 relative: the two runs' weights differ by float rounding). With
    /// NLUKIT_QA_FINETUNE_SAVE_TO set the folder is also written there, for
    /// `python3 -P scripts/fixtures/qa_finetune.py --check-saved DIR`, which loads it with
    /// `AutoModelForQuestionAnswering` (no missing or unexpected tensor) and finds the pipeline's answers on
    /// it equal to those on PyTorch's own run (measured: 6 questions, top 2 answers, scores within 8e-6 relative).
    @Test func savedCheckpointAnswersAsThePipeline() throws {
        let reference = try QATrainingFixtures.load(QATrainingFixtures.Finetune.self, "training/qa-finetune.json")
        let trainer = try QATrainingFixtures.makeTrainer(reference)
        _ = try QATrainingFixtures.run(trainer, reference)
        let folder = TestScratch.file("nlukit-qa-train")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("fine-tuned")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try trainer.save(to: destination, source: QATrainingFixtures.checkpoint)
        if let keep = ProcessInfo.processInfo.environment["NLUKIT_QA_FINETUNE_SAVE_TO"] {
            try trainer.save(to: URL(fileURLWithPath: keep), source: QATrainingFixtures.checkpoint)
        }

        let answerer = try QuestionAnswerer(modelDirectory: destination)
        for item in reference.pipeline {
            let answers = try answerer.answers(to: item.question, in: item.context, options: AnswerOptions(topK: 2))
            #expect(answers.count == item.answers.count, "\(item.question)")
            for (ours, theirs) in zip(answers, item.answers) {
                #expect(ours.text == theirs.answer && ours.start == theirs.start && ours.end == theirs.end,
                        "\(item.question): \(ours.text) [\(ours.start), \(ours.end)), pipeline \(theirs.answer) [\(theirs.start), \(theirs.end))")
                #expect(abs(ours.score - theirs.score) <= 1e-3 * theirs.score, "\(item.question): score \(ours.score), pipeline \(theirs.score)")
            }
        }
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: destination.appendingPathComponent("config.json"))) as? [String: Any]
        #expect(config?["architectures"] as? [String] == ["BertForQuestionAnswering"])
        let saved = try SafeTensors(contentsOf: destination.appendingPathComponent("model.safetensors"))
        let source = try SafeTensors(contentsOf: QATrainingFixtures.checkpoint.appendingPathComponent("model.safetensors"))
        #expect(Set(saved.names) == Set(source.names.filter { source.info($0)?.dtype != .I64 }))
        // Saving again replaces the folder it wrote.
        try trainer.save(to: destination, source: QATrainingFixtures.checkpoint)
    }

    /// A bare encoder (a sentence-transformers folder, tensors without `bert.`) becomes a task model with
    /// the task's prefix, as transformers names `BertForQuestionAnswering`'s tensors (it reads a QA head
    /// only from a file whose encoder tensors carry it), and without the sentence-transformers files.
    @Test func bareEncoderIsSavedUnderTheTaskModelsNames() throws {
        let base = QATrainingFixtures.fixtures.appendingPathComponent("embeddings/minilm-tiny")
        let encoder = try TrainableEncoder(checkpoint: TrainableEncoder.checkpointDirectory(ofModel: base), ignoringTaskHead: true)
        var random = SplitMix64(seed: 1)
        let head = QuestionAnsweringHead(hiddenSize: encoder.configuration.hiddenSize, initializerRange: 0.02, using: &random)
        let trainer = try QuestionAnsweringTrainer(encoder: encoder, head: head, learningRate: 1e-3,
                                                   schedule: LinearWarmupSchedule(trainingSteps: 1), batchesPerEpoch: 1)
        let folder = TestScratch.file("nlukit-qa-train")
        defer { try? FileManager.default.removeItem(at: folder) }
        try trainer.save(to: folder, source: base)
        let saved = try SafeTensors(contentsOf: folder.appendingPathComponent("model.safetensors"))
        #expect(saved.names.allSatisfy { $0.hasPrefix("bert.") || $0.hasPrefix("qa_outputs.") })
        #expect(saved.names.contains("bert.embeddings.word_embeddings.weight") && saved.names.contains("qa_outputs.bias"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("modules.json").path))
        let model = try BertQAModel(modelDirectory: folder)
        #expect(model.configuration.hiddenSize == encoder.configuration.hiddenSize)
        // The new head: normal with standard deviation 0.02 (64 draws: within a factor of 2), bias 0.
        let weights = head.linear.weight.scalars
        let deviation = (weights.map { $0 * $0 }.reduce(0, +) / Float(weights.count)).squareRoot()
        #expect(deviation > 0.01 && deviation < 0.04 && head.linear.bias?.scalars == [0, 0])
    }
}

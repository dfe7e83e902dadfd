import Foundation
import NLUCore
@testable import NLUIntents
import NLUTestSupport
import Testing

/// Checkpoints of a fine-tuning run: resumed after epoch 1, a run ends with the weights of the run
/// that was never interrupted; a checkpoint of another dataset or settings is refused, naming which.
@Suite struct IntentFineTuningCheckpointTests {
    static func dataset() -> IntentDataset {
        IntentDataset(intents: [
            Intent(name: "play_music", utterances: ["play some jazz", "put on music", "play a song", "start the radio"]),
            Intent(name: "weather", utterances: ["is it raining", "weather tomorrow", "how cold is it", "will it snow"]),
            Intent(name: "lights_on", utterances: ["turn the lights on", "switch on the lamp", "lights please", "more light"]),
        ])
    }

    static func options() -> IntentFineTuningOptions {
        var options = IntentFineTuningOptions()
        options.epochs = 2
        options.batchSize = 4
        options.learningRate = 5e-3
        options.seed = 5
        return options
    }

    /// Few-shot settings for the tiny encoder: 2 pairs of each kind per utterance, batches of 8, C fixed at 1.
    static func fewShotOptions(epochs: Int, learningRate: Float) -> SetFitOptions {
        var options = SetFitOptions()
        options.iterations = 2
        options.epochs = epochs
        options.batchSize = 8
        options.learningRate = learningRate
        options.headRegularization = 1
        return options
    }

    @Test func resumedRunEndsWithTheUninterruptedRunsWeights() throws {
        let work = try TestScratch.folder("ft-checkpoint")
        defer { try? FileManager.default.removeItem(at: work) }
        let tuner = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options())
        let checkpoint = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("m.nlumodel.checkpoint"))
        let afterFirstEpoch = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("epoch1.checkpoint"))
        var saved: [Int] = []
        let whole = try tuner.train(Self.dataset(), saving: checkpoint) { _ in } checkpointSaved: { epoch in
            saved.append(epoch)
            // What an interruption during epoch 2 would have left.
            if epoch == 1 { try? FileManager.default.copyItem(at: checkpoint.folder, to: afterFirstEpoch.folder) }
        }
        #expect(saved == [1, 2])
        let resumed = try tuner.train(Self.dataset(), saving: afterFirstEpoch, resume: true)
        #expect(resumed.steps == Array(whole.steps.suffix(resumed.steps.count)) && resumed.steps.count == 3)
        // Same seeds, same batches, same optimizer state: the same floats.
        #expect(resumed.trainer.head.linear.tensors[0] == whole.trainer.head.linear.tensors[0])
        #expect(resumed.trainer.encoder.parameters.values == whole.trainer.encoder.parameters.values)

        var other = Self.dataset()
        other.intents[0].utterances.append("some music")
        let error = try #require(throws: TrainingSettingError.self) { try tuner.train(other, saving: afterFirstEpoch, resume: true) }
        #expect(error.setting == "resume" && error.value.contains("another dataset"))
        var longer = Self.options()
        longer.learningRate = 1e-3
        let settings = try #require(throws: TrainingSettingError.self) {
            try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: longer).train(Self.dataset(), saving: afterFirstEpoch, resume: true)
        }
        #expect(settings.value.contains("other settings"))
    }

    /// A few-shot run checkpoints each epoch of its contrastive stage: resumed after epoch 1 it ends with
    /// the uninterrupted run's encoder and head; resumed after the last epoch it fits the head alone, to
    /// the same result; a checkpoint of other settings or of the softmax head's run is refused.
    @Test func resumedFewShotRunEndsWithTheUninterruptedRunsEncoderAndHead() throws {
        let work = try TestScratch.folder("ft-checkpoint")
        defer { try? FileManager.default.removeItem(at: work) }
        let options = Self.fewShotOptions(epochs: 2, learningRate: 5e-3)
        let trainer = try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: options)
        let checkpoint = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("m.nlumodel.checkpoint"))
        let afterFirstEpoch = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("epoch1.checkpoint"))
        var saved: [Int] = []
        let whole = try trainer.train(Self.dataset(), saving: checkpoint) { _ in } checkpointSaved: { epoch in
            saved.append(epoch)
            if epoch == 1 { try? FileManager.default.copyItem(at: checkpoint.folder, to: afterFirstEpoch.folder) }
        }
        #expect(saved == [1, 2])
        let resumed = try trainer.train(Self.dataset(), saving: afterFirstEpoch, resume: true)
        #expect(resumed.encoderSteps.count == whole.encoderSteps.count / 2 && resumed.encoderSteps == Array(whole.encoderSteps.suffix(resumed.encoderSteps.count)))
        #expect(resumed.encoder.parameters.values == whole.encoder.parameters.values)
        #expect(resumed.head.weight == whole.head.weight && resumed.headBias == whole.headBias)
        // After the last epoch: the encoder as saved, the head fitted again.
        let headOnly = try trainer.train(Self.dataset(), saving: checkpoint, resume: true)
        #expect(headOnly.encoderSteps.isEmpty && headOnly.head.weight == whole.head.weight)

        var other = options
        other.iterations = 3
        let settings = try #require(throws: TrainingSettingError.self) {
            try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: other).train(Self.dataset(), saving: afterFirstEpoch, resume: true)
        }
        #expect(settings.setting == "resume" && settings.value.contains("other settings"), "\(settings)")
        // The softmax head's checkpoint is not a few-shot run's, nor the other way round.
        let softmax = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("softmax.checkpoint"))
        _ = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options()).train(Self.dataset(), saving: softmax)
        #expect(throws: TrainingSettingError.self) { try trainer.train(Self.dataset(), saving: softmax, resume: true) }
        #expect(throws: TrainingSettingError.self) {
            try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options()).train(Self.dataset(), saving: afterFirstEpoch, resume: true)
        }
    }

    /// A few-shot run that keeps its best epoch by a validation score, resumed after its second of three epochs,
    /// keeps what the uninterrupted run keeps (the best epoch's encoder, from the checkpoint's `best.*` tensors
    /// when it was an earlier one) and gives the same head; a resume with other validation utterances is refused.
    @Test func resumedFewShotRunKeepsTheUninterruptedRunsBestEpoch() throws {
        let work = try TestScratch.folder("ft-checkpoint")
        defer { try? FileManager.default.removeItem(at: work) }
        var options = Self.fewShotOptions(epochs: 3, learningRate: 2e-2)
        options.keepBest = .loss
        let validation = IntentDataset(intents: [
            Intent(name: "play_music", utterances: ["play the radio", "some music please"]),
            Intent(name: "weather", utterances: ["is it cold outside", "rain tomorrow"]),
            Intent(name: "lights_on", utterances: ["lamp on", "turn on the light"]),
        ])
        let trainer = try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: options)
        let checkpoint = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("m.nlumodel.checkpoint"))
        let afterSecondEpoch = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("epoch2.checkpoint"))
        let whole = try trainer.train(Self.dataset(), validation: validation, saving: checkpoint) { _ in } checkpointSaved: { epoch in
            if epoch == 2 { try? FileManager.default.copyItem(at: checkpoint.folder, to: afterSecondEpoch.folder) }
        }
        #expect(whole.validations.count == 3)
        print("few-shot keep-best resume: losses \(whole.validations.map { $0.loss ?? .nan }), kept epoch \(whole.keptEpoch)")
        let resumed = try trainer.train(Self.dataset(), validation: validation, saving: afterSecondEpoch, resume: true)
        #expect(resumed.keptEpoch == whole.keptEpoch && resumed.validations == Array(whole.validations.suffix(1)))
        #expect(resumed.encoder.parameters.values == whole.encoder.parameters.values)
        #expect(resumed.head.weight == whole.head.weight && resumed.headBias == whole.headBias)
        var other = validation
        other.intents[0].utterances = ["jazz please"]
        let refused = try #require(throws: TrainingSettingError.self) {
            try trainer.train(Self.dataset(), validation: other, saving: afterSecondEpoch, resume: true)
        }
        #expect(refused.setting == "resume" && refused.value.contains("other validation utterances"), "\(refused)")
    }

    @Test func aFolderThatIsNotACheckpointIsNotReplaced() throws {
        let work = TestScratch.file("ft-checkpoint")
        let folder = work.appendingPathComponent("m.nlumodel.checkpoint")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let tuner = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options())
        #expect(throws: ModelPackageError.self) { try tuner.train(Self.dataset(), saving: IntentFineTuningCheckpoint(folder: folder)) }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("notes.txt").path))
    }
}

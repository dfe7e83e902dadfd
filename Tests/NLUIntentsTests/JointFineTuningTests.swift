import Foundation
import NLUCore
@testable import NLUIntents
import NLUTestSupport
import Testing

/// `IntentClassifier.fineTuneJoint` and ``JointIntentSlotFineTuner``'s loop on minilm-tiny: one seed,
/// one run; a run resumed from its epoch checkpoint ends where the uninterrupted one does; the bad
/// inputs of the joint model refused with messages that name what to change.
@Suite struct JointFineTuningTests {
    static let checkpoint = JointIntentSlotFineTunerTests.checkpoint

    static func options(seed: UInt64 = 5, epochs: Int = 2) -> JointIntentSlotOptions {
        var options = JointIntentSlotOptions()
        options.training.epochs = epochs
        options.training.batchSize = 2
        options.training.learningRate = 5e-3
        options.training.seed = seed
        return options
    }

    /// JointBERT's defaults: 10 epochs (the intent head's loop trains 3), the rest of the loop as the
    /// intent head's, slot loss coefficient 1, dropout 0.1 before the heads; but the heads at 1e-3
    /// (the intent head's loop: 1e-2) and a CRF layer; ranges checked.
    @Test func defaultsAreJointBERTsButTheHeadRateAndTheCRF() throws {
        let options = JointIntentSlotOptions()
        var loop = IntentFineTuningOptions()
        #expect(loop.epochs == 3 && options.training.epochs == 10)
        #expect(loop.headLearningRate == 1e-2 && options.training.headLearningRate == 1e-3)
        loop.epochs = 10
        loop.headLearningRate = 1e-3
        #expect(options.training == loop)
        #expect(options.slotLossCoefficient == 1 && options.headDropout == 0.1 && options.crf)
        var bad = options
        bad.slotLossCoefficient = 101
        #expect(throws: TrainingSettingError.self) { try bad.validate() }
        bad = options
        bad.headDropout = 1
        #expect(throws: TrainingSettingError.self) { try bad.validate() }
        // JointBERT's losses have no smoothed form here: label smoothing is refused by name, not ignored.
        bad = options
        bad.training.labelSmoothing = 0.1
        let smoothing = try #require(throws: TrainingSettingError.self) { try bad.validate() }
        #expect(smoothing.setting == "labelSmoothing")
    }

    /// Two runs with one seed take the same steps to the bit (dropout in the encoder and before the
    /// heads, batch order, head initialization all seeded); another seed takes others.
    @Test func trainingRepeatsForASeed() throws {
        let dataset = JointIntentSlotFineTunerTests.dataset()
        let first = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: Self.options()).train(dataset)
        let second = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: Self.options()).train(dataset)
        let other = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: Self.options(seed: 6)).train(dataset)
        #expect(first.steps.count == 6)
        #expect(first.steps == second.steps)
        #expect(first.steps.map(\.loss) != other.steps.map(\.loss))
        #expect(first.tagger.model.slotHead.weight.scalars == second.tagger.model.slotHead.weight.scalars)
    }

    /// Interrupted after epoch 1 (its checkpoint kept) and resumed, the run takes the uninterrupted
    /// run's epoch-2 steps and ends with its weights, to the bit; a checkpoint of other settings is refused.
    @Test(arguments: [false, true])
    func resumedRunEndsAsTheUninterruptedOne(crf: Bool) throws {
        let dataset = JointIntentSlotFineTunerTests.dataset()
        var options = Self.options()
        options.crf = crf
        let work = try TestScratch.folder("joint-ft")
        defer { try? FileManager.default.removeItem(at: work) }
        let whole = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: options).train(dataset)

        var first = options
        first.training.epochs = 1
        let folder = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("m.nlumodel.checkpoint"))
        // The state after epoch 1, copied aside as an interrupted run would have left it.
        let afterFirst = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("stopped.nlumodel.checkpoint"))
        var saved: [Int] = []
        let checkpointed = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: options)
            .train(dataset, saving: folder, checkpointSaved: { epoch in
                saved.append(epoch)
                if epoch == 1 { try? FileManager.default.copyItem(at: folder.folder, to: afterFirst.folder) }
            })
        #expect(saved == [1, 2] && checkpointed.steps == whole.steps)
        let description = try folder.readDescription()
        #expect(description.epoch == 2 && description.joint == options && description.tags == whole.tagger.tags)

        let resumed = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: options)
            .train(dataset, saving: afterFirst, resume: true)
        #expect(resumed.steps.count == 3 && resumed.steps == Array(whole.steps.suffix(3)))
        #expect(resumed.tagger.model.slotHead.weight.scalars == whole.tagger.model.slotHead.weight.scalars)
        #expect(resumed.tagger.model.crf?.transitions.scalars == whole.tagger.model.crf?.transitions.scalars)

        let refused = try #require(throws: TrainingSettingError.self) {
            _ = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: first).train(dataset, saving: afterFirst, resume: true)
        }
        #expect(refused.setting == "resume" && refused.value.contains("joint.training.epochs: 2 in the checkpoint, 1 in this run"), "\(refused)")
    }

    /// A dataset without any entity annotation, spans out of range or overlapping, and more tags than the
    /// model holds: clear errors naming the file, the utterance or the count.
    @Test func badEntityInputIsRefusedNamingIt() throws {
        var plain = JointIntentSlotFineTunerTests.dataset()
        for index in plain.intents.indices {
            for u in plain.intents[index].utterances.indices { plain.intents[index].utterances[u].entities = [] }
        }
        let none = try #require(throws: EntityTaggerError.self) {
            try IntentClassifier.fineTuneJoint(on: plain, checkpoint: Self.checkpoint, options: Self.options(), file: "plain.json")
        }
        #expect("\(none)".contains("plain.json") && "\(none)".contains("no utterance has an entity annotation"), "\(none)")

        var overlapping = JointIntentSlotFineTunerTests.dataset()
        overlapping.intents[1].utterances[0].entities.append(EntityAnnotation(start: 8, end: 12, entity: "place"))
        let overlap = try #require(throws: (any Error).self) {
            try IntentClassifier.fineTuneJoint(on: overlapping, checkpoint: Self.checkpoint, options: Self.options())
        }
        #expect("\(overlap)".contains("weather in oslo today"), "\(overlap)")

        var outside = JointIntentSlotFineTunerTests.dataset()
        outside.intents[0].utterances[2].entities[0].end = 40
        let range = try #require(throws: (any Error).self) {
            try IntentClassifier.fineTuneJoint(on: outside, checkpoint: Self.checkpoint, options: Self.options())
        }
        // The dataset's own check, before any trainer: it names the intent and the utterance's index.
        #expect("\(range)".contains("intent 'book': utterance 2") && "\(range)".contains("outside"), "\(range)")

        // 2,048 entities besides city and date make 4,101 tags (O, B- and I- each): more than the model takes.
        let words = (0..<2048).map { "w\($0)" }
        var offset = 0
        var annotations: [EntityAnnotation] = []
        for (index, word) in words.enumerated() {
            annotations.append(EntityAnnotation(start: offset, end: offset + word.count, entity: "e\(index)"))
            offset += word.count + 1
        }
        var many = JointIntentSlotFineTunerTests.dataset()
        many.intents[0].utterances.append(Utterance(words.joined(separator: " "), entities: annotations))
        let tooMany = try #require(throws: TrainingSettingError.self) {
            try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: Self.options()).train(many)
        }
        #expect(tooMany.value.contains("4101 slot tags") && tooMany.requirement.contains("4096"), "\(tooMany)")

        // The intents must be at least two, each with an utterance, as for the intent head alone.
        let tuner = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: Self.options())
        var one = JointIntentSlotFineTunerTests.dataset()
        one.intents = [one.intents[0]]
        let oneError = try #require(throws: TrainingSettingError.self) { try tuner.train(one) }
        #expect(oneError.setting == "dataset" && oneError.value == "1 intent", "\(oneError)")
        var empty = JointIntentSlotFineTunerTests.dataset()
        empty.intents.append(Intent(name: "bye"))
        let emptyError = try #require(throws: TrainingSettingError.self) { try tuner.train(empty) }
        #expect(emptyError.value == "intent 'bye' with no utterance", "\(emptyError)")
    }
}

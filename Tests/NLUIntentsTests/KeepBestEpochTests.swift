import Foundation
import NLUCore
@testable import NLUIntents
import NLUTestSupport
import NLUTransformers
import Testing

/// `keepBest` (Trainer's `load_best_model_at_end`) and `earlyStoppingPatience` (`EarlyStoppingCallback`):
/// the run ends holding the weights of the epoch with the best held-out score, recomputed here from the
/// kept model; early stopping ends it after that many epochs without improvement, on the same steps as
/// the full run; a resumed run keeps what the uninterrupted one keeps. The held-out set gives every
/// intent's utterances the next intent's name, so that learning the training data worsens its score and
/// the best epoch is an early one.
@Suite struct KeepBestEpochTests {
    static func dataset() throws -> IntentDataset {
        var dataset = try IntentFineTunerTests.dashboardSubset()
        dataset.counterexamples = []
        return dataset
    }

    /// `dataset` with each intent's utterances under the next intent's name.
    static func misnamed(_ dataset: IntentDataset) -> IntentDataset {
        var misnamed = dataset
        for index in misnamed.intents.indices {
            misnamed.intents[index].name = dataset.intents[(index + 1) % dataset.intents.count].name
        }
        return misnamed
    }

    static func options(epochs: Int, keepBest: FineTuningMetric? = nil, patience: Int? = nil) -> IntentFineTuningOptions {
        var options = IntentFineTunerTests.options()
        options.epochs = epochs
        options.keepBest = keepBest
        options.earlyStoppingPatience = patience
        return options
    }

    /// The mean cross-entropy of `trainer` on `validation`'s utterances in one batch, labelled by the
    /// training intents' order.
    static func loss(of trainer: EncoderClassifierTrainer, tuner: IntentFineTuner, on validation: IntentDataset, intents: [String]) throws -> Double {
        let texts = validation.intents.flatMap { $0.utterances.map(\.text) }
        let labels = validation.intents.flatMap { intent in intent.utterances.map { _ in Int32(intents.firstIndex(of: intent.name) ?? -1) } }
        let batch = try EncoderBatch(tokenIDs: texts.map { tuner.tokenIDs($0) }, padID: tuner.padID)
        return Double(try trainer.loss(batch, labels: labels))
    }

    /// Whether each score beats every earlier one (strictly; lower for `loss`).
    static func improvements(_ scores: [Double], greaterIsBetter: Bool) -> [Bool?] {
        scores.indices.map { index in
            scores[..<index].allSatisfy { greaterIsBetter ? scores[index] > $0 : scores[index] < $0 }
        }
    }

    @Test func theRunEndsHoldingItsBestEpochsWeights() throws {
        let dataset = try Self.dataset(), heldOut = Self.misnamed(dataset)
        let intents = dataset.intents.map(\.name)
        let plainTuner = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options(epochs: 3))
        let plain = try plainTuner.train(dataset, validation: heldOut)
        let tuner = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options(epochs: 3, keepBest: .loss))
        let kept = try tuner.train(dataset, validation: heldOut)
        #expect(kept.steps == plain.steps, "keeping an epoch changes no step")
        let losses = kept.validations.map { $0.loss ?? .nan }
        #expect(plain.validations.map(\.loss) == kept.validations.map(\.loss) && plain.validations.allSatisfy { $0.isBest == nil })
        #expect(kept.validations.map(\.isBest) == Self.improvements(losses, greaterIsBetter: false))
        let best = try #require(losses.indices.min { losses[$0] < losses[$1] }) + 1
        #expect(kept.keptEpoch == best && best < 3 && plain.keptEpoch == 3, "losses \(losses)")

        // The kept model scores as its epoch did; the plain run's as the last epoch did.
        let keptLoss = try Self.loss(of: kept.trainer, tuner: tuner, on: heldOut, intents: intents)
        let lastLoss = try Self.loss(of: plain.trainer, tuner: tuner, on: heldOut, intents: intents)
        #expect(abs(keptLoss - losses[best - 1]) <= 1e-5 * losses[best - 1], "kept \(keptLoss), epoch \(best) \(losses)")
        #expect(abs(lastLoss - losses[2]) <= 1e-5 * losses[2], "last \(lastLoss), \(losses)")
        #expect(kept.trainer.encoder.parameters.values != plain.trainer.encoder.parameters.values)

        // Accuracy picks its own best epoch: the first of equal scores (only a strictly better one replaces it).
        let byAccuracy = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options(epochs: 3, keepBest: .accuracy))
            .train(dataset, validation: heldOut)
        let accuracies = byAccuracy.validations.map(\.intentAccuracy)
        #expect(byAccuracy.keptEpoch == (accuracies.indices.max { accuracies[$0] < accuracies[$1] }.map { $0 + 1 }))
        #expect(byAccuracy.keptEpoch == accuracies.firstIndex(of: accuracies.max() ?? 0).map { $0 + 1 })
    }

    /// With a patience of 1 the run stops after the first epoch that does not improve, on the full run's
    /// steps so far (the schedule is the full run's); the best epoch's weights are kept.
    @Test func earlyStoppingEndsTheRunAfterThePatience() throws {
        let dataset = try Self.dataset(), heldOut = Self.misnamed(dataset)
        let full = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options(epochs: 4, keepBest: .loss))
            .train(dataset, validation: heldOut)
        let stopped = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options(epochs: 4, keepBest: .loss, patience: 1))
            .train(dataset, validation: heldOut)
        let stepsPerEpoch = full.steps.count / 4
        let losses = stopped.validations.map { $0.loss ?? .nan }
        #expect(stopped.keptEpoch == (losses.indices.min { losses[$0] < losses[$1] }.map { $0 + 1 }))
        #expect(stopped.validations.count == stopped.keptEpoch + 1 && stopped.validations.count < 4, "\(stopped.validations)")
        #expect(stopped.steps == Array(full.steps.prefix(stopped.validations.count * stepsPerEpoch)))
        #expect(stopped.validations == Array(full.validations.prefix(stopped.validations.count)))
        if stopped.keptEpoch == full.keptEpoch {
            #expect(stopped.trainer.encoder.parameters.values == full.trainer.encoder.parameters.values)
            #expect(stopped.trainer.head.linear.tensors == full.trainer.head.linear.tensors)
        }
    }

    /// A checkpoint taken after an epoch that is not the best carries the best one's weights (`best.*`):
    /// resumed from it, the run keeps what the uninterrupted run keeps, to the bit; resumed from the epoch
    /// early stopping ended at, it trains nothing and keeps the same. Another validation set is refused.
    @Test func aResumedRunKeepsWhatTheUninterruptedRunKeeps() throws {
        let work = try TestScratch.folder("keep-best")
        defer { try? FileManager.default.removeItem(at: work) }
        let dataset = try Self.dataset(), heldOut = Self.misnamed(dataset)
        let tuner = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options(epochs: 3, keepBest: .loss))
        let checkpoint = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("m.nlumodel.checkpoint"))
        let afterSecond = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("epoch2.checkpoint"))
        let whole = try tuner.train(dataset, validation: heldOut, saving: checkpoint) { _ in } checkpointSaved: { epoch in
            if epoch == 2 { try? FileManager.default.copyItem(at: checkpoint.folder, to: afterSecond.folder) }
        }
        #expect(whole.keptEpoch < 2, "\(whole.validations)")
        let state = try SafeTensors(contentsOf: afterSecond.folder.appendingPathComponent(IntentFineTuningCheckpoint.stateFileName))
        #expect(state.names.filter { $0.hasPrefix("best.") }.count == whole.trainer.steps.parameterNames.count)
        let resumed = try tuner.train(dataset, validation: heldOut, saving: afterSecond, resume: true)
        #expect(resumed.keptEpoch == whole.keptEpoch && resumed.validations.map(\.epoch) == [3])
        #expect(resumed.trainer.encoder.parameters.values == whole.trainer.encoder.parameters.values)
        #expect(resumed.trainer.head.linear.tensors == whole.trainer.head.linear.tensors)
        let keptLoss = try #require(whole.validations[whole.keptEpoch - 1].loss)
        let resumedLoss = try Self.loss(of: resumed.trainer, tuner: tuner, on: heldOut, intents: dataset.intents.map(\.name))
        #expect(abs(resumedLoss - keptLoss) <= 1e-5 * keptLoss, "resumed \(resumedLoss), kept epoch's \(keptLoss)")

        var other = heldOut
        other.intents[0].utterances.removeLast()
        let error = try #require(throws: TrainingSettingError.self) {
            try tuner.train(dataset, validation: other, saving: afterSecond, resume: true)
        }
        #expect(error.setting == "resume" && error.value.contains("other validation utterances"), "\(error)")

        let stopping = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options(epochs: 3, keepBest: .loss, patience: 1))
        let stoppingFolder = IntentFineTuningCheckpoint(folder: work.appendingPathComponent("stopped.checkpoint"))
        let stopped = try stopping.train(dataset, validation: heldOut, saving: stoppingFolder)
        #expect(stopped.validations.count == 2)
        let again = try stopping.train(dataset, validation: heldOut, saving: stoppingFolder, resume: true)
        #expect(again.steps.isEmpty && again.validations.isEmpty && again.keptEpoch == stopped.keptEpoch)
        #expect(again.trainer.encoder.parameters.values == stopped.trainer.encoder.parameters.values)
    }

    /// The joint model keeps its best epoch by a slot score or the intents', heads and CRF included: the
    /// kept tagger's own parses score as that epoch did.
    @Test func theJointModelKeepsItsBestEpoch() throws {
        let dataset = JointIntentSlotFineTunerTests.dataset()
        var heldOut = dataset
        heldOut.intents[0].name = dataset.intents[1].name
        heldOut.intents[1].name = dataset.intents[0].name
        var options = JointFineTuningTests.options(epochs: 3)
        options.training.keepBest = .accuracy
        let result = try JointIntentSlotFineTuner(checkpoint: JointIntentSlotFineTunerTests.checkpoint, options: options)
            .train(dataset, validation: heldOut)
        options.training.keepBest = nil
        let last = try JointIntentSlotFineTuner(checkpoint: JointIntentSlotFineTunerTests.checkpoint, options: options)
            .train(dataset, validation: heldOut)
        #expect(last.keptEpoch == 3 && last.steps == result.steps)
        for (kept, trained) in zip(result.tagger.model.headTensors, last.tagger.model.headTensors) { #expect(kept != trained) }
        #expect(result.tagger.model.encoder.parameters.values != last.tagger.model.encoder.parameters.values)
        let accuracies = result.validations.map(\.intentAccuracy)
        #expect(result.keptEpoch == accuracies.firstIndex(of: accuracies.max() ?? 0).map { $0 + 1 })
        #expect(result.keptEpoch < 3, "\(result.validations)")

        let (right, slots) = try FineTuningValidationTests.parseScores(of: result.tagger, on: heldOut)
        let kept = result.validations[result.keptEpoch - 1]
        #expect(Double(right) / 6 == kept.intentAccuracy && kept.isBest == true)
        #expect(slots.microF1 == kept.slots?.f1, "\(result.validations)")
    }

    /// Out of place: no validation set, a slot score for the intent model, a patience without a score or
    /// out of range.
    @Test func settingsOutOfPlaceAreRefused() throws {
        let dataset = try Self.dataset()
        let noValidation = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options(epochs: 1, keepBest: .loss))
        #expect(throws: TrainingSettingError(setting: "keepBest", value: "loss", requirement: "validation utterances to score each epoch")) {
            try noValidation.train(dataset)
        }
        let slots = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: Self.options(epochs: 1, keepBest: .slotF1))
        let error = try #require(throws: TrainingSettingError.self) { try slots.train(dataset, validation: dataset) }
        #expect(error.setting == "keepBest" && error.requirement.contains("joint model"))
        // A score the validation set cannot give: the loss of intents the head lacks, slots of unannotated utterances.
        let unknown = IntentDataset(intents: [Intent(name: "unheard_of", utterances: ["hello there"])])
        let noLoss = try #require(throws: TrainingSettingError.self) { try noValidation.train(dataset, validation: unknown) }
        #expect(noLoss.setting == "keepBest" && noLoss.requirement.contains("use accuracy"), "\(noLoss)")
        var joint = JointFineTuningTests.options()
        joint.training.keepBest = .slotF1
        let jointData = JointIntentSlotFineTunerTests.dataset()
        var unannotated = jointData
        for index in unannotated.intents.indices {
            unannotated.intents[index].utterances = unannotated.intents[index].utterances.map { Utterance($0.text) }
        }
        let noSlots = try #require(throws: TrainingSettingError.self) {
            try JointIntentSlotFineTuner(checkpoint: JointIntentSlotFineTunerTests.checkpoint, options: joint).train(jointData, validation: unannotated)
        }
        #expect(noSlots.setting == "keepBest" && noSlots.requirement.contains("annotated entities"), "\(noSlots)")
        for (metric, patience) in [(nil, 2), (FineTuningMetric.loss, 0), (.loss, 1001)] as [(FineTuningMetric?, Int)] {
            #expect(throws: TrainingSettingError.self) { try Self.options(epochs: 1, keepBest: metric, patience: patience).validate() }
        }
        try Self.options(epochs: 1, keepBest: .accuracy, patience: 1000).validate()
    }

    /// The keeper's rule alone: strictly better (lower for a loss), never a missing or non-finite score;
    /// the patience counts epochs since the best.
    @Test func theKeeperCountsFromItsBestEpoch() {
        let keeper = BestEpochKeeper(greaterIsBetter: false, patience: 2, best: .init(epoch: 3, score: 0.5), weights: [])
        #expect(keeper.improves(0.4) && !keeper.improves(0.5) && !keeper.improves(0.6) && !keeper.improves(nil) && !keeper.improves(.nan))
        #expect(!keeper.shouldStop(after: 4) && keeper.shouldStop(after: 5))
        let higher = BestEpochKeeper(greaterIsBetter: true)
        #expect(higher.improves(0) && !higher.improves(-.infinity) && !higher.shouldStop(after: 100))
    }
}

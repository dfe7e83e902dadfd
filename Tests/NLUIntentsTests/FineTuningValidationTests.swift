import Foundation
import NLUCore
@testable import NLUIntents
import NLUText
import NLUTransformers
import Testing

/// Held-out utterances scored after each epoch of a fine-tuning run (``FineTuningValidation``): the
/// scores are the model's at that point, recomputed here by another path (one batch, or the trained
/// tagger's own parses), and the run takes the same steps to the bit with or without them.
@Suite struct FineTuningValidationTests {
    /// The softmax-head run: the last epoch's loss equals the trained trainer's cross-entropy over all the
    /// utterances in one batch (within 1e-5 relative: the validation sums batches of 8), its accuracy the
    /// share of rows whose highest logit is the utterance's intent.
    @Test func intentRunScoresEachEpochWithoutChangingTheRun() throws {
        var dataset = try IntentFineTunerTests.dashboardSubset()
        dataset.counterexamples = []   // the tuner alone has no "none" class (IntentClassifier.fineTune adds it)
        var options = IntentFineTunerTests.options()
        options.epochs = 3
        let tuner = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: options)
        let plain = try tuner.train(dataset)
        var handed: [FineTuningValidation] = []
        let scored = try tuner.train(dataset, validation: dataset, validated: { handed.append($0) })
        #expect(scored.steps == plain.steps)
        #expect(scored.trainer.head.linear.tensors[0] == plain.trainer.head.linear.tensors[0])
        #expect(plain.validations.isEmpty && handed == scored.validations && handed.map(\.epoch) == [1, 2, 3])
        #expect(handed.allSatisfy { $0.utterances == 48 && $0.slots == nil })

        let texts = dataset.intents.flatMap { $0.utterances.map(\.text) }
        let labels = dataset.intents.indices.flatMap { index in dataset.intents[index].utterances.map { _ in Int32(index) } }
        let batch = try EncoderBatch(tokenIDs: texts.map { tuner.tokenIDs($0) }, padID: tuner.padID)
        let loss = Double(try scored.trainer.loss(batch, labels: labels))
        let logits = try scored.trainer.logits(batch)
        let classes = logits.shape[1]
        var right = 0
        for (row, label) in labels.enumerated() {
            let scores = Array(logits.scalars[(row * classes)..<((row + 1) * classes)])
            if scores.indices.max(by: { scores[$0] < scores[$1] }) == Int(label) { right += 1 }
        }
        let last = try #require(handed.last)
        let lastLoss = try #require(last.loss)
        #expect(abs(lastLoss - loss) <= 1e-5 * max(1, loss), "validation \(lastLoss), one batch \(loss)")
        #expect(last.intentAccuracy == Double(right) / Double(labels.count), "\(last)")
        #expect((handed[0].loss ?? 0) > lastLoss, "\(handed)")
    }

    /// The joint run: the last epoch's intent accuracy and slot scores equal those of the trained tagger's
    /// own parses of the same utterances (best intent; CoNLL mentions of its word tags against the annotations').
    @Test func jointRunScoresIntentsAndSlotsWithoutChangingTheRun() throws {
        let dataset = JointIntentSlotFineTunerTests.dataset()
        let tuner = try JointIntentSlotFineTuner(checkpoint: JointIntentSlotFineTunerTests.checkpoint, options: JointFineTuningTests.options())
        let plain = try tuner.train(dataset)
        var handed: [FineTuningValidation] = []
        let scored = try tuner.train(dataset, validation: dataset, validated: { handed.append($0) })
        #expect(scored.steps == plain.steps)
        #expect(scored.tagger.model.slotHead.weight.scalars == plain.tagger.model.slotHead.weight.scalars)
        #expect(handed == scored.validations && handed.map(\.epoch) == [1, 2])

        let (right, reference) = try Self.parseScores(of: scored.tagger, on: dataset)
        let last = try #require(handed.last)
        let slots = try #require(last.slots)
        #expect(last.utterances == 6 && last.intentAccuracy == Double(right) / 6, "\(last)")
        #expect(slots.f1 == reference.microF1 && slots.precision == reference.microPrecision && slots.recall == reference.microRecall,
                "\(slots) against \(reference.microF1)")
        #expect(slots.exactUtterances == reference.exactUtterances)
        let frames = try Self.frames(of: scored.tagger, on: dataset)
        #expect(slots.frameAccuracy == Double(frames) / 6, "\(slots) against \(frames) frames of 6")
        #expect(FineTuningMetric.frameAccuracy.score(last) == slots.frameAccuracy && FineTuningMetric.exactSlots.score(last) == slots.exactUtterances)
        #expect((last.loss ?? .nan).isFinite && (last.loss ?? 0) > 0)
    }

    /// The intents `tagger`'s own parses of `dataset` get right, and the CoNLL scores of their word tags'
    /// mentions against the annotations'.
    static func parseScores(of tagger: JointIntentSlotTagger, on dataset: IntentDataset) throws -> (right: Int, slots: EntityEvaluation) {
        var right = 0
        var expected: [[EntityEvaluation.Mention]] = [], predicted: [[EntityEvaluation.Mention]] = []
        func mentions(_ tags: [String]) -> [EntityEvaluation.Mention] {
            SlotTagScheme.spans(tags).map { EntityEvaluation.Mention(entity: $0.slot, start: $0.tokens.lowerBound, end: $0.tokens.upperBound) }
        }
        for intent in dataset.intents {
            for utterance in intent.utterances {
                let parse = try tagger.parse(utterance.text)
                if parse.intents.first?.name == intent.name { right += 1 }
                expected.append(mentions(SlotTagScheme.tags(for: utterance, tokens: WordTokenizer().tokens(in: utterance.text))))
                predicted.append(mentions(parse.wordTags))
            }
        }
        return (right, EntityEvaluation(expected: expected, predicted: predicted))
    }

    /// The utterances of `dataset` whose parse by `tagger` has the intent and every mention right.
    static func frames(of tagger: JointIntentSlotTagger, on dataset: IntentDataset) throws -> Int {
        var frames = 0
        for intent in dataset.intents {
            for utterance in intent.utterances {
                let parse = try tagger.parse(utterance.text)
                let tags = SlotTagScheme.tags(for: utterance, tokens: WordTokenizer().tokens(in: utterance.text))
                func mentions(_ tags: [String]) -> Set<String> { Set(SlotTagScheme.spans(tags).map { "\($0.slot) \($0.tokens)" }) }
                if parse.intents.first?.name == intent.name, mentions(tags) == mentions(parse.wordTags) { frames += 1 }
            }
        }
        return frames
    }

    /// Utterances whose intent the head lacks (an intent the training data does not have, counterexamples
    /// without a "none" class) count as wrong and stay out of the loss, named in the score: the known ones
    /// score as they do alone. A validation set with no utterance is refused before training.
    @Test func utterancesOfIntentsTheHeadLacksCountAsWrong() throws {
        var dataset = try IntentFineTunerTests.dashboardSubset()
        dataset.counterexamples = []
        var options = IntentFineTunerTests.options()
        options.epochs = 1
        let tuner = try IntentFineTuner(checkpoint: IntentFineTunerTests.checkpoint, options: options)
        var unknown = dataset
        unknown.intents[0].name = "unheard_of"
        unknown.counterexamples = [Utterance("what is the meaning of life")]
        var known = dataset
        known.intents.removeFirst()
        let mixed = try #require(try tuner.train(dataset, validation: unknown).validations.last)
        let alone = try #require(try tuner.train(dataset, validation: known).validations.last)
        #expect(mixed.utterances == 49 && mixed.unknownIntentUtterances == 9 && mixed.unknownIntents == ["(none)", "unheard_of"], "\(mixed)")
        #expect(alone.utterances == 40 && alone.unknownIntentUtterances == 0 && alone.unknownIntents.isEmpty)
        #expect(abs(mixed.intentAccuracy * 49 - alone.intentAccuracy * 40) < 1e-9, "\(mixed) against \(alone)")
        let mixedLoss = try #require(mixed.loss), aloneLoss = try #require(alone.loss)
        #expect(abs(mixedLoss - aloneLoss) <= 1e-6 * aloneLoss, "\(mixedLoss) against \(aloneLoss)")
        var none = IntentDataset(intents: [Intent(name: "unheard_of", utterances: ["hello there"])])
        #expect(try tuner.train(dataset, validation: none).validations.last?.loss == nil)
        none.intents = []
        #expect(throws: TrainingSettingError(setting: "validation", value: "no utterance", requirement: "at least one utterance to score")) {
            try tuner.train(dataset, validation: none)
        }
    }
}

import NLUCore
import NLUTransformers

/// How the model under fine-tuning scores on held-out utterances at the end of an epoch, as Hugging
/// Face `Trainer` evaluates each epoch: the share of intents right (the head's best class) and the
/// training loss on them, and for the joint model the slots: micro precision, recall and F1 over exact
/// mentions (slot and words, CoNLL's reading of the BIO tags) of the words the slot head reads, and the
/// share of utterances with every mention right.
///
/// Alone it is a report, not a choice: the run keeps its last epoch whatever the scores say, unless
/// ``IntentFineTuningOptions/keepBest`` names the score that picks the epoch. Validation runs without
/// dropout and draws no random number, so a run takes the same steps with or without it.
///
///     let result = try tuner.train(dataset, validation: heldOut) { _ in }
///     result.validations.last?.intentAccuracy   // 0.97
public struct FineTuningValidation: Sendable, Equatable, Encodable, EpochValidation {
    /// The slots' scores of the joint model.
    public struct Slots: Sendable, Equatable, Encodable {
        public var precision: Double
        public var recall: Double
        public var f1: Double
        /// Share of utterances whose predicted mentions are exactly the annotated ones.
        public var exactUtterances: Double
        /// Share of utterances with the intent right and every mention exactly right (JointBERT's semantic
        /// frame accuracy).
        public var frameAccuracy: Double
    }

    /// The epoch just finished, from 1.
    public var epoch: Int
    /// Held-out utterances scored.
    public var utterances: Int
    /// Share of them whose intent is the head's best class.
    public var intentAccuracy: Double
    /// The training loss over those whose intent the head has (mean per utterance; for the joint model the
    /// intents' plus the slots' as training weighs them, a tag the training data never had counted as `O`);
    /// nil when none has.
    public var loss: Double?
    /// The slots' scores (the joint model only; every utterance counts).
    public var slots: Slots?
    /// Held-out utterances whose intent the training data lacks (counterexamples, without a "none" class):
    /// counted as wrong intents, since the head cannot give theirs, and left out of the loss.
    public var unknownIntentUtterances: Int = 0
    /// Those intents' names, sorted (``IntentClassifier/noneLabel`` for counterexamples).
    public var unknownIntents: [String] = []
    /// With ``IntentFineTuningOptions/keepBest``: whether this epoch's score is the best so far (its
    /// weights are kept); nil without it.
    public var isBest: Bool?

    /// The held-out utterances of `validation` with their class in `intents` (the head's order), nil for
    /// an intent the head does not have; counterexamples as the class named ``IntentClassifier/noneLabel``.
    /// - Throws: ``TrainingSettingError`` (setting "validation") when `validation` has no utterance.
    static func labelled(_ validation: IntentDataset, intents: [String]) throws -> [(utterance: Utterance, label: Int32?, intent: String)] {
        let classes = Dictionary(intents.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
        var labelled: [(utterance: Utterance, label: Int32?, intent: String)] = []
        for intent in validation.intents {
            labelled += intent.utterances.map { ($0, classes[intent.name], intent.name) }
        }
        labelled += validation.counterexamples.map { ($0, classes[IntentClassifier.noneLabel], IntentClassifier.noneLabel) }
        guard !labelled.isEmpty else {
            throw TrainingSettingError(setting: "validation", value: "no utterance", requirement: "at least one utterance to score")
        }
        return labelled
    }

    /// A score of `utterances` held-out utterances with `labels` (nil: an intent the head lacks, named in `intents`).
    init(epoch: Int, labels: [Int32?], intents: [String], right: Int, loss: Double, slots: Slots? = nil) {
        let known = labels.filter { $0 != nil }.count
        self.epoch = epoch
        utterances = labels.count
        intentAccuracy = Double(right) / Double(max(1, labels.count))
        self.loss = known > 0 ? loss / Double(known) : nil
        self.slots = slots
        unknownIntentUtterances = labels.count - known
        unknownIntents = Set(zip(labels, intents).filter { $0.0 == nil }.map(\.1)).sorted()
    }

    /// Batches of at most `batchSize` of the sequences of `lengths`, shortest first, so that little is
    /// padding; no random order, as scores do not depend on it.
    static func batches(lengths: [Int], batchSize: Int) -> [[Int]] {
        let order = lengths.indices.sorted { (lengths[$0], $0) < (lengths[$1], $1) }
        return stride(from: 0, to: order.count, by: batchSize).map { Array(order[$0..<min($0 + batchSize, order.count)]) }
    }

    /// The class of each row of `logits` [rows, classes] with the highest score (the first of ties).
    static func bestClasses(_ logits: Tensor<Float>) -> [Int32] {
        let classes = logits.shape[1], scalars = logits.scalars
        return (0..<logits.shape[0]).map { row in
            var best = 0
            for column in 1..<max(1, classes) where scalars[row * classes + column] > scalars[row * classes + best] { best = column }
            return Int32(best)
        }
    }
}

import NLUCore

/// How the model under fine-tuning scores on held-out utterances at the end of an epoch, as Hugging
/// Face `Trainer` evaluates each epoch: the share of intents right (the head's best class) and the
/// training loss on them, and for the joint model the slots: micro precision, recall and F1 over exact
/// mentions (slot and words, CoNLL's reading of the BIO tags) of the words the slot head reads, and the
/// share of utterances with every mention right.
///
/// It is a report, not a choice: the run keeps its last epoch whatever the scores say. Validation runs
/// without dropout and draws no random number, so a run takes the same steps with or without it.
///
///     let result = try tuner.train(dataset, validation: heldOut) { _ in }
///     result.validations.last?.intentAccuracy   // 0.97
public struct FineTuningValidation: Sendable, Equatable, Encodable {
    /// The slots' scores of the joint model.
    public struct Slots: Sendable, Equatable, Encodable {
        public var precision: Double
        public var recall: Double
        public var f1: Double
        /// Share of utterances whose predicted mentions are exactly the annotated ones.
        public var exactUtterances: Double
    }

    /// The epoch just finished, from 1.
    public var epoch: Int
    /// Held-out utterances scored.
    public var utterances: Int
    /// Share of them whose intent is the head's best class.
    public var intentAccuracy: Double
    /// The training loss over them (mean per utterance; for the joint model the intents' plus the
    /// slots' as training weighs them, a tag the training data never had counted as `O`).
    public var loss: Double
    /// The slots' scores (the joint model only).
    public var slots: Slots?

    /// The held-out utterances of `validation` with their class in `intents` (the head's order),
    /// counterexamples as the class named ``IntentClassifier/noneLabel`` when the head has one.
    /// - Throws: ``TrainingSettingError`` (setting "validation") for an intent the training data does
    ///   not have, counterexamples without a "none" class, or no utterance at all.
    static func labelled(_ validation: IntentDataset, intents: [String]) throws -> [(utterance: Utterance, label: Int32)] {
        let classes = Dictionary(intents.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { first, _ in first })
        var labelled: [(utterance: Utterance, label: Int32)] = []
        for intent in validation.intents where !intent.utterances.isEmpty {
            guard let label = classes[intent.name] else {
                throw TrainingSettingError(setting: "validation", value: "intent '\(intent.name)'",
                                           requirement: "one of the \(intents.count) intents of the training data")
            }
            labelled += intent.utterances.map { ($0, label) }
        }
        if !validation.counterexamples.isEmpty {
            guard let none = classes[IntentClassifier.noneLabel] else {
                throw TrainingSettingError(setting: "validation", value: "\(validation.counterexamples.count) counterexamples",
                                           requirement: "none: the training data has no counterexamples, so no \"none\" class to score them against")
            }
            labelled += validation.counterexamples.map { ($0, none) }
        }
        guard !labelled.isEmpty else {
            throw TrainingSettingError(setting: "validation", value: "no utterance", requirement: "at least one utterance to score")
        }
        return labelled
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

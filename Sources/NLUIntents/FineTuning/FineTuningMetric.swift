import NLUCore

/// The held-out score that picks the epoch a fine-tuning run keeps (``IntentFineTuningOptions/keepBest``),
/// as Hugging Face Trainer's `metric_for_best_model`: one of ``FineTuningValidation``'s.
public enum FineTuningMetric: String, Codable, Sendable, CaseIterable {
    /// The share of intents right (higher is better).
    case accuracy
    /// The training loss on the held-out utterances (lower is better; Trainer's default metric).
    case loss
    /// The joint model's slot F1 (higher is better).
    case slotF1 = "slot-f1"
    /// The joint model's share of utterances with every slot right (higher is better).
    case exactSlots = "exact-slots"
    /// The joint model's share of utterances with the intent and every slot right (JointBERT's semantic frame
    /// accuracy; higher is better).
    case frameAccuracy = "frame-accuracy"

    /// Whether a higher score is better.
    public var greaterIsBetter: Bool { self != .loss }

    /// Whether only the joint intent + slot model has the score.
    public var needsSlots: Bool { self == .slotF1 || self == .exactSlots || self == .frameAccuracy }

    /// Refuses a score the validation utterances cannot give, which would keep the first epoch whatever
    /// happens: the loss when none has an intent the training data has, a slot score when none has an entity
    /// (`entityMentions` nil: a model without slots, whose slot scores are refused for that).
    /// - Throws: ``TrainingSettingError`` (setting `keepBest`) saying what the validation set lacks.
    func checkScorable(knownIntentUtterances: Int, entityMentions: Int?) throws {
        if self == .loss, knownIntentUtterances == 0 {
            throw TrainingSettingError(setting: "keepBest", value: rawValue,
                                       requirement: "validation utterances of intents the training data has (none has one: use accuracy)")
        }
        if needsSlots, let entityMentions, entityMentions == 0 {
            throw TrainingSettingError(setting: "keepBest", value: rawValue,
                                       requirement: "validation utterances with annotated entities (none has one: use accuracy or loss)")
        }
    }

    /// The score of `validation`, nil when it has none (no utterance of a known intent for the loss, no
    /// slots for the intent model).
    public func score(_ validation: FineTuningValidation) -> Double? {
        switch self {
        case .accuracy: validation.intentAccuracy
        case .loss: validation.loss
        case .slotF1: validation.slots?.f1
        case .exactSlots: validation.slots?.exactUtterances
        case .frameAccuracy: validation.slots?.frameAccuracy
        }
    }
}

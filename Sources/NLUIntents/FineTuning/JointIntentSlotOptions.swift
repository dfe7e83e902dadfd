import NLUCore

/// The settings of ``JointIntentSlotFineTuner``: the fine-tuning loop's (``IntentFineTuningOptions``:
/// epochs, batch size, learning rate, warm-up, weight decay, clipping, accumulation, seed, length,
/// encoder dropout) and the joint model's own, with JointBERT's defaults (slot loss coefficient 1,
/// dropout 0.1 before the heads, no CRF).
///
///     var options = JointIntentSlotOptions()
///     options.crf = true
///     options.training.epochs = 5
public struct JointIntentSlotOptions: Codable, Sendable, Equatable {
    /// The loop's settings.
    public var training = IntentFineTuningOptions()
    /// Whether a CRF layer scores the words' tag sequence (decoded by Viterbi) instead of a softmax per word.
    public var crf = false
    /// JointBERT's `slot_loss_coef`: the slot loss's weight beside the intent loss (0 ... 100).
    public var slotLossCoefficient: Float = 1
    /// The probability of dropout on the pooled vector and the word states before the heads (0 ..< 1).
    public var headDropout: Float = 0.1

    /// The defaults.
    public init() {}

    /// Throws for the first option outside its range.
    /// - Throws: ``TrainingSettingError`` naming the option, its value and the range.
    public func validate() throws {
        try training.validate()
        guard slotLossCoefficient.isFinite, (0...100).contains(slotLossCoefficient) else {
            throw TrainingSettingError(setting: "slotLossCoefficient", value: "\(slotLossCoefficient)", requirement: "between 0 and 100")
        }
        guard headDropout.isFinite, headDropout >= 0, headDropout < 1 else {
            throw TrainingSettingError(setting: "headDropout", value: "\(headDropout)", requirement: "at least 0 and below 1")
        }
    }
}

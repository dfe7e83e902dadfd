import NLUCore

/// The settings of ``JointIntentSlotFineTuner``: the fine-tuning loop's (``IntentFineTuningOptions``:
/// epochs, batch size, learning rate, warm-up, weight decay, clipping, accumulation, seed, length,
/// encoder dropout) and the joint model's own, with JointBERT's defaults (10 epochs, slot loss
/// coefficient 1, dropout 0.1 before the heads, no CRF).
///
///     var options = JointIntentSlotOptions()
///     options.crf = true
///     options.training.epochs = 5
public struct JointIntentSlotOptions: Codable, Sendable, Equatable {
    /// The loop's settings: ``IntentFineTuningOptions``' defaults but ``defaultEpochs``.
    public var training: IntentFineTuningOptions = {
        var training = IntentFineTuningOptions()
        training.epochs = JointIntentSlotOptions.defaultEpochs
        return training
    }()
    /// Whether a CRF layer scores the words' tag sequence (decoded by Viterbi) instead of a softmax per word.
    public var crf = false
    /// JointBERT's `slot_loss_coef`: the slot loss's weight beside the intent loss (0 ... 100).
    public var slotLossCoefficient: Float = 1
    /// The probability of dropout on the pooled vector and the word states before the heads (0 ..< 1).
    public var headDropout: Float = 0.1

    /// JointBERT's `num_train_epochs`: the slot head starts from nothing and needs them. On Snips
    /// with all-MiniLM-L6-v2 (docs/entities.md) 3 epochs reach slot F1 0.898, 10 epochs 0.950.
    public static let defaultEpochs = 10

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

import NLUCore

/// The settings of ``JointIntentSlotFineTuner``: the fine-tuning loop's (``IntentFineTuningOptions``:
/// epochs, batch size, learning rate, warm-up, weight decay, clipping, accumulation, seed, length,
/// encoder dropout) and the joint model's own. JointBERT's defaults (10 epochs, slot loss coefficient 1,
/// dropout 0.1 before the heads, the encoder at 5e-5) but three, which measured better
/// (docs/entities.md): the heads and the CRF at their own rate, 1e-3, a CRF layer over the tags, and
/// the words' shapes (``WordShape``) beside their states in the slot head.
///
///     var options = JointIntentSlotOptions()
///     options.crf = false
///     options.training.epochs = 5
public struct JointIntentSlotOptions: Codable, Sendable, Equatable {
    /// The loop's settings: ``IntentFineTuningOptions``' defaults but ``defaultEpochs`` and
    /// ``defaultHeadLearningRate``.
    public var training: IntentFineTuningOptions = {
        var training = IntentFineTuningOptions()
        training.epochs = JointIntentSlotOptions.defaultEpochs
        training.headLearningRate = JointIntentSlotOptions.defaultHeadLearningRate
        return training
    }()
    /// Whether a CRF layer scores the words' tag sequence (decoded by Viterbi) instead of a softmax per
    /// word. On by default: a softmax per word splits mentions (`B-date B-date` for "this sunday") where
    /// the transitions keep them whole (HWU64, all-MiniLM-L6-v2, 3 epochs: slot F1 0.723 without, 0.775 with).
    public var crf = true
    /// JointBERT's `slot_loss_coef`: the slot loss's weight beside the intent loss (0 ... 100).
    public var slotLossCoefficient: Float = 1
    /// The probability of dropout on the pooled vector and the word states before the heads (0 ..< 1).
    public var headDropout: Float = 0.1
    /// Whether the slot head reads each word's case (``WordShape``) beside its hidden state: an uncased
    /// encoder cannot see that "The" opens a title and "the" does not.
    public var wordShapes = true

    /// JointBERT's `num_train_epochs`: the slot head starts from nothing and needs them. On Snips
    /// with all-MiniLM-L6-v2 (docs/entities.md) 3 epochs reach slot F1 0.898, 10 epochs 0.950.
    public static let defaultEpochs = 10

    /// The heads' and the CRF's peak learning rate: they start from random weights and, at the
    /// encoder's rate, learn too slowly (HWU64's slots, all-MiniLM-L6-v2, 3 epochs at 1e-4: slot F1
    /// 0.575 with the heads at 1e-4, 0.723 at 1e-3; PyTorch's run of the same recipe: 0.604 and 0.735).
    public static let defaultHeadLearningRate: Float = 1e-3

    /// The defaults.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case training, crf, slotLossCoefficient, headDropout, wordShapes
    }

    /// Reads options as written; those of models and checkpoints saved before word shapes existed read
    /// as without them (`wordShapes` absent: false), which is how those models were trained.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        training = try container.decode(IntentFineTuningOptions.self, forKey: .training)
        crf = try container.decode(Bool.self, forKey: .crf)
        slotLossCoefficient = try container.decode(Float.self, forKey: .slotLossCoefficient)
        headDropout = try container.decode(Float.self, forKey: .headDropout)
        wordShapes = try container.decodeIfPresent(Bool.self, forKey: .wordShapes) ?? false
    }

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
        // JointBERT's losses are plain cross-entropy and the CRF's likelihood, which has no smoothed form.
        if let smoothing = training.labelSmoothing, smoothing != 0 {
            throw TrainingSettingError(setting: "labelSmoothing", value: "\(smoothing)",
                                       requirement: "0 for the joint intent + slot model (label smoothing is the softmax intent head's)")
        }
    }
}

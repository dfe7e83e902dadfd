/// How an ``IntentClassifier`` is trained: network shape, optimizer, regularization and stopping.
///
///     var options = TrainingOptions()
///     options.hiddenSizes = [256, 128]
///     options.seed = 7
public struct TrainingOptions: Codable, Sendable, Equatable {
    /// How classes are weighted in the loss.
    public enum ClassWeighting: String, Codable, Sendable, CaseIterable {
        /// Every utterance counts the same.
        case none
        /// Weight `n / (classes × n_c)`, as scikit-learn's `class_weight="balanced"`, so a rare intent
        /// counts as much as a frequent one.
        case balanced
    }

    /// Sizes of the ReLU hidden layers (the first one is fed by the sparse features).
    public var hiddenSizes: [Int] = [256]
    /// The most passes over the training data.
    public var epochs: Int = 30
    /// Utterances per mini-batch.
    public var batchSize: Int = 32
    /// Adam's learning rate.
    public var learningRate: Float = 0.003
    /// L2 penalty on weights (added to their gradients, as scikit-learn's `alpha`).
    public var weightDecay: Float = 1e-6
    /// Probability of dropping a hidden activation while training.
    public var dropout: Float = 0.3
    /// Fraction of each intent's utterances held out to choose the epoch (0 for none: all epochs run).
    public var validationSplit: Double = 0.1
    /// Epochs without a lower validation loss before stopping.
    public var patience: Int = 4
    /// Class weighting in the loss.
    public var classWeighting: ClassWeighting = .balanced
    /// Seed for initialization, shuffling, dropout and the validation split: same seed, same model.
    public var seed: UInt64 = 42

    /// The defaults (tuned on the Snips benchmark).
    public init() {}
}

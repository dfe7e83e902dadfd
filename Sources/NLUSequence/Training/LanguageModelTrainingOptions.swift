import NLUCore
import NLUInputOutput

/// Everything ``LanguageModelTrainer`` needs to know: the model's shape, the vocabulary rule and the
/// optimization (truncated BPTT over `sequenceLength` steps, `batchSize` parallel streams, Adam,
/// gradient clipping, dropout, a validation split).
///
///     var options = LanguageModelTrainingOptions(level: .character, epochs: 3)
///     options.hiddenSize = 128
public struct LanguageModelTrainingOptions: Codable, Sendable, Equatable {
    /// `lstm` or `gru`.
    public var cell: RecurrentCell
    /// Word or character tokens.
    public var level: LanguageModelConfiguration.Level
    /// Lowercase the text first.
    public var lowercase: Bool
    /// Stacked recurrent layers.
    public var layers: Int
    /// Hidden features per layer.
    public var hiddenSize: Int
    /// Embedding features.
    public var embeddingSize: Int
    /// Passes over the training text.
    public var epochs: Int
    /// Steps of truncated back-propagation through time.
    public var sequenceLength: Int
    /// Parallel streams per mini-batch.
    public var batchSize: Int
    /// Adam's learning rate.
    public var learningRate: Float
    /// Dropout on embeddings, between layers and on the RNN output (0 = none).
    public var dropout: Float
    /// The most tokens in the vocabulary (unknown and end token included).
    public var maxVocabulary: Int
    /// Tokens seen fewer times become the unknown token.
    public var minimumCount: Int
    /// The fraction of the text (its end) held out to measure perplexity after each epoch.
    public var validationSplit: Float
    /// Seeds the initialization and dropout.
    public var seed: UInt64
    /// The largest global gradient norm; larger gradients are scaled down.
    public var clipNorm: Float

    public init(cell: RecurrentCell = .lstm, level: LanguageModelConfiguration.Level = .word, lowercase: Bool = true,
                layers: Int = 2, hiddenSize: Int = 256, embeddingSize: Int = 128, epochs: Int = 10,
                sequenceLength: Int = 35, batchSize: Int = 20, learningRate: Float = 0.002, dropout: Float = 0.2,
                maxVocabulary: Int = 10_000, minimumCount: Int = 1, validationSplit: Float = 0.1,
                seed: UInt64 = 42, clipNorm: Float = 5) {
        self.cell = cell
        self.level = level
        self.lowercase = lowercase
        self.layers = layers
        self.hiddenSize = hiddenSize
        self.embeddingSize = embeddingSize
        self.epochs = epochs
        self.sequenceLength = sequenceLength
        self.batchSize = batchSize
        self.learningRate = learningRate
        self.dropout = dropout
        self.maxVocabulary = maxVocabulary
        self.minimumCount = minimumCount
        self.validationSplit = validationSplit
        self.seed = seed
        self.clipNorm = clipNorm
    }

    /// The epochs a training run may have (and a checkpoint may say it completed).
    public static let epochsRange = 1...1_000_000

    /// Checks every option's range.
    /// - Throws: ``LanguageModelError/invalidOption(_:_:)`` naming the option.
    public func validate() throws {
        func check(_ condition: Bool, _ name: String, _ expectation: String, _ value: Any) throws {
            if !condition { throw LanguageModelError.invalidOption(name, "must be \(expectation), got \(value)") }
        }
        func check(_ value: Int, _ range: ClosedRange<Int>, _ name: String) throws {
            try check(range.contains(value), name, "between \(range.lowerBound) and \(range.upperBound)", value)
        }
        try check(layers, LanguageModelConfiguration.layersRange, "layers")
        try check(hiddenSize, LanguageModelConfiguration.hiddenSizeRange, "hiddenSize")
        try check(embeddingSize, LanguageModelConfiguration.embeddingSizeRange, "embeddingSize")
        try check(epochs, Self.epochsRange, "epochs")
        try check(sequenceLength, 1...100_000, "sequenceLength")
        try check(batchSize, 1...100_000, "batchSize")
        // One step's activations: batch × steps × hidden per layer and gate.
        do {
            try InputLimits.checkMemory(elements: InputLimits.product([batchSize, sequenceLength, max(hiddenSize, embeddingSize), layers, 8]),
                                        what: "one training step (batch × sequence length × hidden × layers)")
        } catch let error as OutOfRangeError {
            throw LanguageModelError.invalidOption("batchSize", "× sequenceLength is too large: \(error.description)")
        }
        try check(learningRate > 0 && learningRate.isFinite, "learningRate", "positive", learningRate)
        try check(dropout >= 0 && dropout < 1, "dropout", "in [0, 1)", dropout)
        try check(maxVocabulary >= 3 && maxVocabulary <= 10_000_000, "maxVocabulary",
                  "between 3 (unknown, end and one token) and 10000000", maxVocabulary)
        try check(minimumCount >= 1, "minimumCount", "at least 1", minimumCount)
        try check(validationSplit >= 0 && validationSplit < 1, "validationSplit", "in [0, 1)", validationSplit)
        try check(clipNorm > 0 && clipNorm.isFinite, "clipNorm", "positive", clipNorm)
    }
}

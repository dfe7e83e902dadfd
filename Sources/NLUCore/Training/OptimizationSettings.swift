/// The ranges every encoder fine-tuning recipe checks its optimizer settings against, in one place so
/// that intents, sentence embeddings, QA and the joint tagger refuse the same values with the same words.
public enum OptimizationSettings {
    /// Throws for the first setting outside its range; `accumulationSteps` nil where a recipe has none.
    /// - Parameter usualLearningRate: the recipe's default, quoted in the message.
    /// - Throws: ``TrainingSettingError`` naming the setting, its value and the range.
    public static func validate(epochs: Int, batchSize: Int, learningRate: Float, usualLearningRate: String,
                                warmupRatio: Double, weightDecay: Float, maxGradientNorm: Float,
                                accumulationSteps: Int?, dropout: Float, maxSequenceLength: Int?) throws {
        try check((1...1000).contains(epochs), "epochs", "\(epochs)", "between 1 and 1000")
        try check((1...4096).contains(batchSize), "batchSize", "\(batchSize)", "between 1 and 4096")
        // A rate of 1e30 is accepted by the arithmetic and diverges at the first step.
        try check(learningRate.isFinite && learningRate > 0 && learningRate <= 1, "learningRate", "\(learningRate)",
                  "a number above 0 and at most 1 (\(usualLearningRate) is the usual choice)")
        try check(warmupRatio.isFinite && (0...1).contains(warmupRatio), "warmupRatio", "\(warmupRatio)", "between 0 and 1")
        try check(weightDecay.isFinite && (0...1).contains(weightDecay), "weightDecay", "\(weightDecay)", "between 0 and 1")
        try check(maxGradientNorm.isFinite && maxGradientNorm > 0, "maxGradientNorm", "\(maxGradientNorm)", "a finite number above 0")
        if let accumulationSteps {
            try check((1...1024).contains(accumulationSteps), "accumulationSteps", "\(accumulationSteps)", "between 1 and 1024")
        }
        try check(dropout.isFinite && dropout >= 0 && dropout < 1, "dropout", "\(dropout)", "at least 0 and below 1")
        if let maxSequenceLength {
            try check(maxSequenceLength >= 3, "maxSequenceLength", "\(maxSequenceLength)", "at least 3 ([CLS], a token, [SEP])")
        }
    }

    /// Throws ``TrainingSettingError`` unless `ok`.
    public static func check(_ ok: Bool, _ setting: String, _ value: String, _ requirement: String) throws {
        if !ok { throw TrainingSettingError(setting: setting, value: value, requirement: requirement) }
    }
}

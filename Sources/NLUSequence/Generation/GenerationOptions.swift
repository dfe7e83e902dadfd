/// How ``LanguageModel/generate(prompt:options:onToken:)`` picks each next token.
///
/// Temperature 0 is greedy (always the most probable token). Otherwise tokens are sampled from the
/// softmax of logits / temperature, optionally restricted to the `topK` most probable and to the
/// smallest set whose probabilities add up to `topP` (nucleus sampling), with a seeded generator so
/// the same seed gives the same text.
///
///     var options = GenerationOptions(maxTokens: 40, temperature: 0.8, topK: 20, seed: 7)
///     options.topP = 0.95
public struct GenerationOptions: Sendable, Equatable {
    /// The most tokens to generate (generation also stops at the end token).
    public var maxTokens: Int
    /// Softmax temperature; 0 means greedy.
    public var temperature: Float
    /// Sample only among the `topK` most probable tokens (nil: all).
    public var topK: Int?
    /// Sample only among the most probable tokens whose probabilities add up to `topP` (nil: all).
    public var topP: Float?
    /// The random generator's seed (SplitMix64).
    public var seed: UInt64
    /// Whether the unknown token may be generated.
    public var allowUnknown: Bool

    public init(maxTokens: Int = 50, temperature: Float = 1, topK: Int? = nil, topP: Float? = nil,
                seed: UInt64 = 0, allowUnknown: Bool = false) {
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.topK = topK
        self.topP = topP
        self.seed = seed
        self.allowUnknown = allowUnknown
    }

    /// The most tokens one call may generate: the generated tokens and text are kept for the result, so an
    /// unbounded count (`--max-tokens 1000000000000`) grew without end while it streamed.
    public static let maxTokensRange = 0...1_000_000

    /// Checks the ranges.
    /// - Throws: ``LanguageModelError/invalidOption(_:_:)`` naming the option.
    public func validate() throws {
        guard Self.maxTokensRange.contains(maxTokens) else {
            throw LanguageModelError.invalidOption(
                "maxTokens", "must be between \(Self.maxTokensRange.lowerBound) and \(Self.maxTokensRange.upperBound), got \(maxTokens)")
        }
        guard temperature >= 0, temperature.isFinite else {
            throw LanguageModelError.invalidOption("temperature", "must be 0 (greedy) or positive, got \(temperature)")
        }
        if let topK, topK < 1 { throw LanguageModelError.invalidOption("topK", "must be at least 1, got \(topK)") }
        if let topP, !(topP > 0 && topP <= 1) {
            throw LanguageModelError.invalidOption("topP", "must be in (0, 1], got \(topP)")
        }
    }
}

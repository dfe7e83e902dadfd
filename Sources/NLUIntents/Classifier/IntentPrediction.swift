/// The answer for one utterance: the intent (or none), its confidence, and the ranking of intents.
///
///     let prediction = classifier.predict("turn on the radio", top: 3, threshold: 0.4)
///     prediction.intent        // "turn_on", or nil for "no intent" (Watson's irrelevant)
///     prediction.ranking[0]    // ("turn_on", 0.97)
public struct IntentPrediction: Sendable, Equatable, Encodable {
    /// One intent of the ranking with its probability.
    public struct RankedIntent: Sendable, Equatable, Encodable {
        /// The intent's name.
        public var intent: String
        /// Its probability (the classes' probabilities sum to 1).
        public var confidence: Float
    }

    /// The utterance.
    public var text: String
    /// The intent, or `nil` when the "none" class wins or the best intent is under the threshold.
    public var intent: String?
    /// The probability of the best intent (also when ``intent`` is `nil`).
    public var confidence: Float
    /// The top intents by probability (the "none" class is not listed).
    public var ranking: [RankedIntent]
    /// The entities found in the utterance, in text order (empty for a model without entities).
    public var entities: [ExtractedEntity] = []
    /// What may be missing from this prediction and why: a regex entity pattern that ran past its time
    /// budget on this utterance (``RegexEntityMatcher/Timeout/message``) matched nothing in it.
    /// Encoded only when there are some.
    public var warnings: [String] = []

    private enum CodingKeys: String, CodingKey { case text, intent, confidence, ranking, entities, warnings }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(intent, forKey: .intent)   // null when there is no intent
        try container.encode(confidence, forKey: .confidence)
        try container.encode(ranking, forKey: .ranking)
        try container.encode(entities, forKey: .entities)
        if !warnings.isEmpty { try container.encode(warnings, forKey: .warnings) }
    }
}

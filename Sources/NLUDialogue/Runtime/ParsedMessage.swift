/// One user turn as the dialogue sees it: the text, the intents ranked with their confidences, and the
/// entities found (dictionary, tagged and built-in ones alike). A classifier produces it (the `nlu` CLI
/// converts an intent model's prediction); a test or an app can also write it by hand.
///
///     let message = ParsedMessage(text: "turn on the lights",
///                                 intents: [.init(intent: "turn_on", confidence: 0.93)],
///                                 entities: [.init(entity: "appliance", value: "lights", text: "lights")])
public struct ParsedMessage: Sendable, Equatable, Codable {
    /// One intent of the ranking.
    public struct Intent: Sendable, Equatable, Codable {
        public var intent: String
        /// The classifier's probability, 0...1.
        public var confidence: Double
        public init(intent: String, confidence: Double) {
            self.intent = intent
            self.confidence = confidence
        }
    }
    /// One entity mention.
    public struct Entity: Sendable, Equatable, Codable {
        /// The entity's name (`appliance`, or a built-in's name such as `sys-number`).
        public var entity: String
        /// The canonical value (the dictionary value for a synonym, the resolved value of a built-in).
        public var value: String
        /// The words as written (defaults to `value`).
        public var text: String?
        /// Offsets of the mention in Unicode scalars, when known.
        public var start: Int?
        public var end: Int?
        public var confidence: Double?
        /// The number a numeric built-in (a number, a percentage, an amount) resolved to: `@sys-number`
        /// then is that number in comparisons and in the context, as on the platforms.
        public var number: Double?
        /// The mention's role and group (Rasa's entity roles and groups), when the extractor gives them.
        public var role: String?
        public var group: String?
        public init(entity: String, value: String, text: String? = nil, start: Int? = nil, end: Int? = nil,
                    confidence: Double? = nil, number: Double? = nil, role: String? = nil, group: String? = nil) {
            self.role = role
            self.group = group
            self.entity = entity
            self.value = value
            self.number = number
            self.text = text
            self.start = start
            self.end = end
            self.confidence = confidence
        }
    }

    /// The text the user typed (empty for the turn that opens a conversation).
    public var text: String
    /// Intents by decreasing confidence; empty when nothing was recognized.
    public var intents: [Intent]
    /// Entity mentions in text order.
    public var entities: [Entity]

    public init(text: String, intents: [Intent] = [], entities: [Entity] = []) {
        self.text = text
        self.intents = intents
        self.entities = entities
    }

    private enum CodingKeys: String, CodingKey { case text, intents, entities }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
        intents = try container.decodeIfPresent([Intent].self, forKey: .intents) ?? []
        entities = try container.decodeIfPresent([Entity].self, forKey: .entities) ?? []
    }
}

/// A slot of a rule dialogue: a named value of the conversation (kept in the state's context), its type,
/// and the mappings that fill it from a user message (Rasa's slot mappings).
///
///     {"name": "cuisine", "type": "text",
///      "mappings": [{"type": "fromEntity", "entity": "cuisine", "notIntent": ["chitchat"]}]}
public struct RuleSlot: Sendable, Equatable, Codable {
    /// How a value is stored.
    public enum ValueType: String, Sendable, Codable {
        /// Text as given.
        case text
        /// A number (a value that does not read as one is not taken).
        case float
        /// `true` / `false` (also from the texts "true", "false", "yes", "no").
        case bool
        /// Every value of the message's matching entities, as a list.
        case list
        /// Text, one of a closed set in the source platform.
        case categorical
        /// Any value, as given.
        case any
    }
    public var name: String
    public var type: ValueType
    /// The value before anything fills it.
    public var initialValue: DialogueValue?
    public var mappings: [SlotMapping]
    public init(name: String, type: ValueType = .text, initialValue: DialogueValue? = nil, mappings: [SlotMapping] = []) {
        self.name = name
        self.type = type
        self.initialValue = initialValue
        self.mappings = mappings
    }
}

/// One way a message fills a slot. The first mapping of a slot that applies to a message gives its value.
public struct SlotMapping: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// The value of the first mention of `entity` (with `role` and `group` when given).
        case fromEntity
        /// The message's text.
        case fromText
        /// `value`, when the message's intent is allowed.
        case fromIntent
        /// `value`, when the form is activated by a message with an allowed intent.
        case fromTriggerIntent
    }
    /// Where the mapping applies: while `activeLoop` runs (`nil`: while no form runs) and, when set, only
    /// while it asks for `requestedSlot`.
    public struct Condition: Sendable, Equatable, Codable {
        public var activeLoop: String?
        public var requestedSlot: String?
        public init(activeLoop: String?, requestedSlot: String? = nil) {
            self.activeLoop = activeLoop
            self.requestedSlot = requestedSlot
        }
    }
    public var type: Kind
    public var entity: String?
    public var role: String?
    public var group: String?
    /// Only messages with one of these intents (none: any intent but `notIntent`).
    public var intent: [String]?
    public var notIntent: [String]?
    /// The value of `fromIntent` and `fromTriggerIntent`.
    public var value: DialogueValue?
    /// None: anywhere; else at least one must hold.
    public var conditions: [Condition]?
    public init(type: Kind, entity: String? = nil, role: String? = nil, group: String? = nil, intent: [String]? = nil,
                notIntent: [String]? = nil, value: DialogueValue? = nil, conditions: [Condition]? = nil) {
        self.type = type
        self.entity = entity
        self.role = role
        self.group = group
        self.intent = intent
        self.notIntent = notIntent
        self.value = value
        self.conditions = conditions
    }
}

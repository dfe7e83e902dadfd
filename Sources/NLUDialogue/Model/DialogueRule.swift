/// A rule or a story of a rule dialogue: a sequence of steps (user intents, actions, a form starting or
/// ending, slots set). When the conversation so far ends with the steps before one of its actions, that
/// action comes next; after its last action the bot waits for the user (unless `waitForUserInput` is false).
///
///     {"name": "greet", "steps": [{"intent": "greet"}, {"action": "utter_greet"}]}
public struct DialogueRule: Sendable, Equatable, Codable {
    /// Rules predict before stories; among each, the longest match wins.
    public enum Kind: String, Sendable, Codable { case rule, story }

    /// One step. Exactly one of `intent`, `action`, `activeLoop`, `slot` is set; `activeLoop` holds `""` for
    /// "no form runs" (Rasa's `active_loop: null`).
    public struct Step: Sendable, Equatable, Codable {
        /// The user's intent; `entities` (when set) must all be mentioned.
        public var intent: String?
        public var entities: [String]?
        public var action: String?
        public var activeLoop: String?
        /// A slot set (to `value`, or to anything when `value` is nil).
        public var slot: String?
        public var value: DialogueValue?
        public init(intent: String? = nil, entities: [String]? = nil, action: String? = nil, activeLoop: String? = nil,
                    slot: String? = nil, value: DialogueValue? = nil) {
            self.intent = intent
            self.entities = entities
            self.action = action
            self.activeLoop = activeLoop
            self.slot = slot
            self.value = value
        }
        public static func user(_ intent: String, entities: [String]? = nil) -> Step { Step(intent: intent, entities: entities) }
        public static func action(_ name: String) -> Step { Step(action: name) }
        public static func loop(_ name: String?) -> Step { Step(activeLoop: name ?? "") }
    }

    public var name: String
    public var kind: Kind
    /// What must hold where the rule starts: an `activeLoop` step (which form runs, `""`: none) and `slot`
    /// steps (the slot's value, or any value when `value` is nil).
    public var condition: [Step]
    public var steps: [Step]
    /// The rule applies only to a conversation's first steps.
    public var conversationStart: Bool
    /// `false`: after the last action, the next action is predicted at once instead of waiting.
    public var waitForUserInput: Bool

    public init(name: String, kind: Kind = .rule, condition: [Step] = [], steps: [Step], conversationStart: Bool = false,
                waitForUserInput: Bool = true) {
        self.name = name
        self.kind = kind
        self.condition = condition
        self.steps = steps
        self.conversationStart = conversationStart
        self.waitForUserInput = waitForUserInput
    }

    private enum CodingKeys: String, CodingKey { case name, kind, condition, steps, conversationStart, waitForUserInput }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        kind = try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .rule
        condition = try container.decodeIfPresent([Step].self, forKey: .condition) ?? []
        steps = try container.decode([Step].self, forKey: .steps)
        conversationStart = try container.decodeIfPresent(Bool.self, forKey: .conversationStart) ?? false
        waitForUserInput = try container.decodeIfPresent(Bool.self, forKey: .waitForUserInput) ?? true
    }
}

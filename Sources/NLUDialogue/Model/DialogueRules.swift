/// A dialogue driven by rules instead of a node tree (Rasa's shape): named responses that actions give,
/// slots with the mappings that fill them from a message, forms that ask for their required slots, and
/// rules (then stories) that say which action follows which conversation. A ``DialogueModel`` holds
/// either nodes or rules; ``Dialogue`` runs each with its own turn loop.
///
///     {"responses": {"utter_greet": [{"type": "text", "values": ["Hi!"]}]},
///      "rules": [{"name": "greet", "steps": [{"intent": "greet"}, {"action": "utter_greet"}]}]}
public struct DialogueRules: Sendable, Equatable, Codable {
    /// Responses by action name (`utter_greet`): running the action gives them. Texts may hold `$slot`.
    public var responses: [String: [DialogueResponse]]
    /// Slots and how messages fill them.
    public var slots: [RuleSlot]
    /// Forms: actions that ask for their required slots until all are filled.
    public var forms: [DialogueForm]
    /// Rules, then stories (``DialogueRule/kind``): a conversation's last steps predict the next action.
    public var rules: [DialogueRule]
    /// The action run when nothing predicts one, after a user message or a bot action (then the bot waits); none:
    /// just wait. `action_default_fallback` (Rasa's) says `utter_default` and takes the user's message back.
    public var fallbackAction: String?
    /// When a conversation starts a new session (Rasa's `session_config`); none: it never does, but on `/session_start`.
    public var session: DialogueSession?

    public init(responses: [String: [DialogueResponse]] = [:], slots: [RuleSlot] = [], forms: [DialogueForm] = [],
                rules: [DialogueRule] = [], fallbackAction: String? = nil, session: DialogueSession? = nil) {
        self.responses = responses
        self.slots = slots
        self.forms = forms
        self.rules = rules
        self.fallbackAction = fallbackAction
        self.session = session
    }
}

/// A form (Rasa's form loop): once run, it asks for each required slot in turn (the response
/// `utter_ask_<form>_<slot>` or `utter_ask_<slot>`), takes the user's answers through the slots' mappings,
/// and deactivates itself when every required slot has a value.
public struct DialogueForm: Sendable, Equatable, Codable {
    public var name: String
    /// Asked in this order.
    public var requiredSlots: [String]
    /// Intents whose messages never fill the form's slots.
    public var ignoredIntents: [String]?
    public init(name: String, requiredSlots: [String], ignoredIntents: [String]? = nil) {
        self.name = name
        self.requiredSlots = requiredSlots
        self.ignoredIntents = ignoredIntents
    }
}

/// One node of the dialogue tree, as the dialogue file holds it. Nodes are listed flat; `parent` places a
/// node under another, and siblings are evaluated in the order they are listed. Conditions and text
/// references are expressions of ``ExpressionParser`` (Watson Assistant's syntax).
///
///     {"id": "lights_on", "parent": "turn_on", "condition": "@appliance:lights",
///      "context": {"lights": "on"}, "responses": [{"type": "text", "values": ["Lights on."]}]}
public struct DialogueNode: Sendable, Equatable, Codable {
    /// A node answers (`standard`) or only groups its children (`folder`: its condition, when set, gates
    /// them; they are evaluated in the folder's place among its siblings).
    public enum Kind: String, Sendable, Codable { case standard, folder }

    /// What follows once the node has answered.
    public struct Next: Sendable, Equatable, Codable {
        public enum Action: String, Sendable, Codable {
            /// Wait for the user: the next turn is evaluated against the node's children, if it has any.
            case wait
            /// Evaluate the node's children at once, with the same message.
            case skipUserInput
            /// Go to `target`.
            case jump
        }
        /// Which part of the jump target runs.
        public enum Selector: String, Sendable, Codable {
            /// Evaluate the target's condition (then its following siblings' if false) with the same message.
            case condition
            /// Run the target's answer without checking its condition.
            case body
            /// Wait for the user, then evaluate the target (and its following siblings) first.
            case userInput
        }
        public var action: Action
        public var target: String?
        public var selector: Selector?
        public init(action: Action, target: String? = nil, selector: Selector? = nil) {
            self.action = action
            self.target = target
            self.selector = selector
        }
    }

    /// Whether a node may be entered from elsewhere in the middle of another flow (a digression), and
    /// whether the conversation goes back afterwards.
    public enum DigressIn: String, Sendable, Codable { case doesNotReturn, returns, notAvailable }
    /// Where the conversation may go when the user's turn matches none of a node's children.
    public enum DigressOut: String, Sendable, Codable { case allowReturning, allowAll, allowAllNeverReturn }
    /// Whether, while slots are being filled, a turn that fills none may leave for another node.
    public enum DigressOutSlots: String, Sendable, Codable { case notAllowed, allowReturning, allowAll }

    /// A unique id (jumps name it).
    public var id: String
    public var title: String?
    /// The parent node's id; `nil` for a root node.
    public var parent: String?
    public var kind: Kind
    /// When the node answers. No condition: never by evaluation, only as a jump's `body` target (a folder
    /// without condition is always open).
    public var condition: String?
    /// Context variables set when the node answers (strings may hold references).
    public var context: [String: DialogueValue]
    /// What the node says.
    public var responses: [DialogueResponse]
    /// Answers chosen by condition (the first that holds) after ``responses``; each may set context and
    /// replace the node's next step.
    public var conditionalResponses: [ConditionalResponse]
    /// Slots filled before the node answers.
    public var slots: [DialogueSlot]
    /// Checked on every turn while slots are being filled, before the slots themselves.
    public var slotHandlers: [SlotHandler]
    /// A yes/no question asked once every required slot is filled.
    public var confirmation: SlotConfirmation?
    public var next: Next
    public var digressIn: DigressIn
    public var digressOut: DigressOut
    public var digressOutSlots: DigressOutSlots
    /// A disabled node is skipped.
    public var disabled: Bool

    public init(id: String, title: String? = nil, parent: String? = nil, kind: Kind = .standard, condition: String? = nil,
                context: [String: DialogueValue] = [:], responses: [DialogueResponse] = [],
                conditionalResponses: [ConditionalResponse] = [], slots: [DialogueSlot] = [], slotHandlers: [SlotHandler] = [],
                confirmation: SlotConfirmation? = nil, next: Next = Next(action: .wait), digressIn: DigressIn = .doesNotReturn,
                digressOut: DigressOut = .allowReturning, digressOutSlots: DigressOutSlots = .notAllowed, disabled: Bool = false) {
        self.id = id
        self.title = title
        self.parent = parent
        self.kind = kind
        self.condition = condition
        self.context = context
        self.responses = responses
        self.conditionalResponses = conditionalResponses
        self.slots = slots
        self.slotHandlers = slotHandlers
        self.confirmation = confirmation
        self.next = next
        self.digressIn = digressIn
        self.digressOut = digressOut
        self.digressOutSlots = digressOutSlots
        self.disabled = disabled
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, parent, kind, condition, context, responses, conditionalResponses, slots, slotHandlers, confirmation,
             next, digressIn, digressOut, digressOutSlots, disabled
    }

    /// Every member but `id` may be left out (the defaults of ``init(id:title:parent:kind:condition:context:responses:conditionalResponses:slots:slotHandlers:confirmation:next:digressIn:digressOut:digressOutSlots:disabled:)``).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        parent = try container.decodeIfPresent(String.self, forKey: .parent)
        kind = try container.decodeIfPresent(Kind.self, forKey: .kind) ?? .standard
        condition = try container.decodeIfPresent(String.self, forKey: .condition)
        context = try container.decodeIfPresent([String: DialogueValue].self, forKey: .context) ?? [:]
        responses = try container.decodeIfPresent([DialogueResponse].self, forKey: .responses) ?? []
        conditionalResponses = try container.decodeIfPresent([ConditionalResponse].self, forKey: .conditionalResponses) ?? []
        slots = try container.decodeIfPresent([DialogueSlot].self, forKey: .slots) ?? []
        slotHandlers = try container.decodeIfPresent([SlotHandler].self, forKey: .slotHandlers) ?? []
        confirmation = try container.decodeIfPresent(SlotConfirmation.self, forKey: .confirmation)
        next = try container.decodeIfPresent(Next.self, forKey: .next) ?? Next(action: .wait)
        digressIn = try container.decodeIfPresent(DigressIn.self, forKey: .digressIn) ?? .doesNotReturn
        digressOut = try container.decodeIfPresent(DigressOut.self, forKey: .digressOut) ?? .allowReturning
        digressOutSlots = try container.decodeIfPresent(DigressOutSlots.self, forKey: .digressOutSlots) ?? .notAllowed
        disabled = try container.decodeIfPresent(Bool.self, forKey: .disabled) ?? false
    }

    /// Writes only what differs from the defaults, so a dialogue file stays short.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(parent, forKey: .parent)
        if kind != .standard { try container.encode(kind, forKey: .kind) }
        try container.encodeIfPresent(condition, forKey: .condition)
        if !context.isEmpty { try container.encode(context, forKey: .context) }
        if !responses.isEmpty { try container.encode(responses, forKey: .responses) }
        if !conditionalResponses.isEmpty { try container.encode(conditionalResponses, forKey: .conditionalResponses) }
        if !slots.isEmpty { try container.encode(slots, forKey: .slots) }
        if !slotHandlers.isEmpty { try container.encode(slotHandlers, forKey: .slotHandlers) }
        try container.encodeIfPresent(confirmation, forKey: .confirmation)
        if next != Next(action: .wait) { try container.encode(next, forKey: .next) }
        if digressIn != .doesNotReturn { try container.encode(digressIn, forKey: .digressIn) }
        if digressOut != .allowReturning { try container.encode(digressOut, forKey: .digressOut) }
        if digressOutSlots != .notAllowed { try container.encode(digressOutSlots, forKey: .digressOutSlots) }
        if disabled { try container.encode(disabled, forKey: .disabled) }
    }
}

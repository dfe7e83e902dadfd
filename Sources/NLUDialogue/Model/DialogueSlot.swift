/// A value a node collects before it answers, stored in the context variable `variable`. Each turn while
/// the node's slots are being filled, every slot whose `condition` holds takes `value` (the user may give
/// several at once, or correct one); the first required slot still empty is asked for with `prompt`.
/// `entity` is the short form of `"condition": "@E", "value": "@E"`: the slot accepts only a mention of that
/// entity or built-in (`sys-date`, `sys-number`…), which is how a slot's input is validated by type.
///
///     {"variable": "date", "entity": "sys-date", "prompt": [{"type": "text", "values": ["Which day?"]}]}
public struct DialogueSlot: Sendable, Equatable, Codable {
    /// The context variable the slot fills (without `$`).
    public var variable: String
    /// The entity or built-in whose first mention fills the slot.
    public var entity: String?
    /// When a turn fills the slot (default: `@entity`).
    public var condition: String?
    /// What the slot takes (default: `@entity`); strings may hold references.
    public var value: DialogueValue?
    /// More context set when the slot is filled.
    public var context: [String: DialogueValue]?
    /// A required slot is asked for until filled; an optional one (no prompt) is only taken when given.
    public var prompt: [DialogueResponse]
    /// Said when the slot is filled (the first whose condition holds).
    public var filled: [ConditionalResponse]
    /// Said instead of the prompt again when a turn does not fill the slot that was asked for.
    public var noMatch: [ConditionalResponse]

    public init(variable: String, entity: String? = nil, condition: String? = nil, value: DialogueValue? = nil,
                context: [String: DialogueValue]? = nil, prompt: [DialogueResponse] = [],
                filled: [ConditionalResponse] = [], noMatch: [ConditionalResponse] = []) {
        self.variable = variable
        self.entity = entity
        self.condition = condition
        self.value = value
        self.context = context
        self.prompt = prompt
        self.filled = filled
        self.noMatch = noMatch
    }

    /// A slot is required when it has a prompt.
    public var isRequired: Bool { !prompt.isEmpty }

    private enum CodingKeys: String, CodingKey { case variable, entity, condition, value, context, prompt, filled, noMatch }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        variable = try container.decode(String.self, forKey: .variable)
        entity = try container.decodeIfPresent(String.self, forKey: .entity)
        condition = try container.decodeIfPresent(String.self, forKey: .condition)
        value = try container.decodeIfPresent(DialogueValue.self, forKey: .value)
        context = try container.decodeIfPresent([String: DialogueValue].self, forKey: .context)
        prompt = try container.decodeIfPresent([DialogueResponse].self, forKey: .prompt) ?? []
        filled = try container.decodeIfPresent([ConditionalResponse].self, forKey: .filled) ?? []
        noMatch = try container.decodeIfPresent([ConditionalResponse].self, forKey: .noMatch) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(variable, forKey: .variable)
        try container.encodeIfPresent(entity, forKey: .entity)
        try container.encodeIfPresent(condition, forKey: .condition)
        try container.encodeIfPresent(value, forKey: .value)
        try container.encodeIfPresent(context, forKey: .context)
        if !prompt.isEmpty { try container.encode(prompt, forKey: .prompt) }
        if !filled.isEmpty { try container.encode(filled, forKey: .filled) }
        if !noMatch.isEmpty { try container.encode(noMatch, forKey: .noMatch) }
    }
}

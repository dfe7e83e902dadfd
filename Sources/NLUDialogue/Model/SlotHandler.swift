/// Checked on each turn while a node's slots are being filled, before the slots (Watson's node-level
/// handlers): "cancel", "help", "start over". With `next`, the handler leaves the node instead: the values
/// filled so far stay, and the step is followed as a node's `next` (a Dialogflow CX intent route taken in the
/// middle of a form).
///
///     {"condition": "#cancel", "responses": [{"type": "text", "values": ["Cancelled."]}], "action": "skipAllSlots"}
///     {"condition": "#order_cancel", "responses": [], "next": {"action": "jump", "target": "goodbye", "selector": "body"}}
public struct SlotHandler: Sendable, Equatable, Codable {
    /// What follows the handler's responses.
    public enum Action: String, Sendable, Codable {
        /// Ask for the slot again.
        case reprompt
        /// Stop asking: the node answers with what it has.
        case skipAllSlots
        /// Stop asking and forget the slots' values: the node does not answer.
        case cancel
    }
    public var condition: String
    public var context: [String: DialogueValue]?
    public var responses: [DialogueResponse]
    public var action: Action
    /// Followed instead of `action` when set: the node stops collecting (its values kept) and goes on as
    /// this step says (`wait` waits at the node's children, if it has any).
    public var next: DialogueNode.Next?
    public init(condition: String, context: [String: DialogueValue]? = nil, responses: [DialogueResponse], action: Action = .reprompt,
                next: DialogueNode.Next? = nil) {
        self.condition = condition
        self.context = context
        self.responses = responses
        self.action = action
        self.next = next
    }

    private enum CodingKeys: String, CodingKey { case condition, context, responses, action, next }

    /// `action` may be left out (`reprompt`), as may `context` and `next`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        condition = try container.decode(String.self, forKey: .condition)
        context = try container.decodeIfPresent([String: DialogueValue].self, forKey: .context)
        responses = try container.decodeIfPresent([DialogueResponse].self, forKey: .responses) ?? []
        action = try container.decodeIfPresent(Action.self, forKey: .action) ?? .reprompt
        next = try container.decodeIfPresent(DialogueNode.Next.self, forKey: .next)
    }
}

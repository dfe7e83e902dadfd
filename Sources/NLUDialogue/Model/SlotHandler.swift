/// Checked on each turn while a node's slots are being filled, before the slots (Watson's node-level
/// handlers): "cancel", "help", "start over".
///
///     {"condition": "#cancel", "responses": [{"type": "text", "values": ["Cancelled."]}], "action": "skipAllSlots"}
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
    public init(condition: String, context: [String: DialogueValue]? = nil, responses: [DialogueResponse], action: Action = .reprompt) {
        self.condition = condition
        self.context = context
        self.responses = responses
        self.action = action
    }
}

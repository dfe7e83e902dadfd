/// Responses given when a condition holds (a node's conditional responses, a slot's `filled` and `noMatch`
/// answers).
public struct ConditionalResponse: Sendable, Equatable, Codable {
    /// An id for reports (Watson's `response_condition` node id).
    public var id: String?
    /// No condition: always.
    public var condition: String?
    public var context: [String: DialogueValue]?
    public var responses: [DialogueResponse]
    /// Replaces the node's next step when set.
    public var next: DialogueNode.Next?
    public init(id: String? = nil, condition: String? = nil, context: [String: DialogueValue]? = nil,
                responses: [DialogueResponse], next: DialogueNode.Next? = nil) {
        self.id = id
        self.condition = condition
        self.context = context
        self.responses = responses
        self.next = next
    }
}

/// What one turn produced: the responses to show, the state to keep for the next turn, the nodes that ran
/// (Watson's `nodes_visited`), and warnings (references to variables or entities that had no value).
public struct DialogueTurn: Sendable, Equatable, Codable {
    public var responses: [DialogueOutput]
    public var state: DialogueState
    public var visited: [String]
    public var warnings: [String]

    /// The texts of the text responses, in order.
    public var texts: [String] { responses.compactMap(\.text) }
}

/// A dialogue file that cannot run: names the node (when one is at fault), the field, and why.
///
///     // node 'order', field 'slots[0].condition': offset 4 in '@sys-date &&': expected a value, found the end of the expression
public struct DialogueModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The node's id, `nil` for a problem of the whole dialogue.
    public var node: String?
    /// The field within the node (or the file), as a path.
    public var field: String
    public var reason: String

    public init(node: String?, field: String, reason: String) {
        self.node = node
        self.field = field
        self.reason = reason
    }

    public var description: String {
        (node.map { "node '\($0)', " } ?? "") + (field.isEmpty ? reason : "field '\(field)': \(reason)")
    }
}

/// A turn that cannot run.
public enum DialogueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state was made by another dialogue (or another version of this one).
    case stateFromAnotherDialogue(expected: String, found: String)
    /// The state names something this dialogue does not have, or was edited into something it cannot be.
    case invalidState(String)
    /// The turn ran more nodes than the dialogue's `maxStepsPerTurn`: a loop of jumps; the nodes last run are named.
    case stepLimitExceeded(limit: Int, lastNodes: [String])

    public var description: String {
        switch self {
        case .stateFromAnotherDialogue(let expected, let found):
            return "the conversation state belongs to another dialogue (state for \(found), this dialogue is \(expected))"
        case .invalidState(let reason):
            return "the conversation state is not valid for this dialogue: \(reason)"
        case .stepLimitExceeded(let limit, let nodes):
            return "the turn ran more than \(limit) nodes (a loop of jumps?); last nodes: \(nodes.joined(separator: " → "))"
        }
    }
}

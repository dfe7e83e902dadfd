/// What a conversation answered to one message: the turns run (the opening turn first when the message
/// started the conversation) and the state stored after them.
public struct ConversationReply: Sendable, Equatable {
    /// The turns, in order: one, or two when the conversation was new (its opening turn, then the message's).
    public var turns: [DialogueTurn]
    /// Whether this message started the conversation (there was none, or it had expired).
    public var started: Bool

    /// The state after the last turn.
    public var state: DialogueState { turns[turns.count - 1].state }
    /// Every turn's responses, in order.
    public var responses: [DialogueOutput] { turns.flatMap(\.responses) }
    /// Every turn's visited nodes, in order.
    public var visited: [String] { turns.flatMap(\.visited) }
    /// Every turn's warnings, in order.
    public var warnings: [String] { turns.flatMap(\.warnings) }
}

extension ConversationStore {
    /// Runs `message` in conversation `id` of `dialogue`, as `nlu dialogue chat` does: a conversation not
    /// started (or expired) first takes the opening turn (an empty message: `welcome` and
    /// `conversation_start` conditions), then the message unless it is empty too. A restart (`/restart`) of a
    /// conversation not started is its start: the restart alone runs (it ends with the opening turn).
    /// - Throws: ``DialogueError`` when the stored state is not `dialogue`'s (a conversation started with
    ///   another dialogue) or the turn loops; ``ConversationStoreError``.
    public func respond(to message: ParsedMessage, in id: ConversationID, dialogue: Dialogue,
                        seed: UInt64 = 0) async throws -> ConversationReply {
        try await update(id) { current in
            var turns: [DialogueTurn] = []
            var state = current ?? dialogue.newState(seed: seed)
            if current == nil, !dialogue.restarts(on: message) {
                let opening = try dialogue.respond(to: ParsedMessage(text: ""), state: state)
                turns.append(opening)
                state = opening.state
            }
            if current != nil || !message.text.isEmpty || !message.intents.isEmpty || !message.entities.isEmpty {
                turns.append(try dialogue.respond(to: message, state: state))
            }
            let reply = ConversationReply(turns: turns, started: current == nil)
            return (reply.state, reply)
        }
    }
}

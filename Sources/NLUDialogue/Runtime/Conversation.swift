import Foundation

/// One conversation: a dialogue and this conversation's state, kept together for an app that holds one
/// conversation at a time (an iOS app saves ``state`` between launches, as it is `Codable`). A state kept where
/// someone else can change it goes out signed and comes back verified (``signedState(using:conversation:)``,
/// ``init(dialogue:signedState:signer:conversation:)``).
///
///     var conversation = Conversation(dialogue: dialogue)
///     let greeting = try conversation.send(ParsedMessage(text: ""))
///     let answer = try conversation.send(parsedUserMessage)
///     UserDefaults.standard.set(try conversation.signedState(using: signer).jsonData(), forKey: "conversation")
public struct Conversation: Sendable {
    public let dialogue: Dialogue
    /// The state after the last turn.
    public private(set) var state: DialogueState

    /// A conversation with `dialogue`, new, or continuing `state` (checked at the first ``send(_:)``).
    public init(dialogue: Dialogue, state: DialogueState? = nil, seed: UInt64 = 0) {
        self.dialogue = dialogue
        self.state = state ?? dialogue.newState(seed: seed)
    }

    /// Runs one turn (`message` sent at `now`: a rule dialogue's session may have expired); the state moves on only
    /// when the turn succeeds.
    public mutating func send(_ message: ParsedMessage, at now: Date = Date()) throws(DialogueError) -> DialogueTurn {
        let turn = try dialogue.respond(to: message, state: state, at: now)
        state = turn.state
        return turn
    }

    /// Starts the conversation over (``Dialogue/restart(_:)``): the state cleared, the opening turn run again;
    /// its turn is returned. Sending the message `/restart` does the same.
    public mutating func restart() throws(DialogueError) -> DialogueTurn {
        let turn = try dialogue.restart(state)
        state = turn.state
        return turn
    }
}

import Foundation
import NLUDialogue

/// The conversation API of NLUKit's own: `POST /conversations/{id}/messages`, `GET` and `DELETE /conversations/{id}`.
///
/// A message is text, parsed by the intents model: `{"text": "turn on the lights"}`, or already parsed by the
/// client: `{"message": {"text", "intents": [{"intent", "confidence"}], "entities": [{"entity", "value", ...}]}}`.
/// The answer: `{"id", "started", "message", "responses", "visited", "warnings", "state"}` — `started` when the
/// message began the conversation (its opening turn's responses come first), `message` as the dialogue saw it.
/// The state is the server's: clients read it, they never send it back (so no state of another dialogue, or
/// edited, can be handed in, and states need no signature here). A request that carries a `state` is refused
/// rather than silently ignored: a client that believes it restores a conversation that way learns it does not.
enum ConversationAPI {
    /// The most intents or entities an already parsed message may hold.
    static let maxParsedItems = 1000

    struct Request: Decodable, Sendable {
        var text: String?
        var message: ParsedMessage?
        /// Present when the client sent a `state` member, whatever its value (never decoded: it is refused).
        var state: PresentMember?
    }

    /// A member whose presence alone matters: any JSON value is accepted and dropped unread.
    struct PresentMember: Decodable, Sendable {
        init(from decoder: any Decoder) throws {}
    }

    /// 400 for a request body that hands the server a state.
    static let clientStateRefusal = "field 'state': the conversation's state stays on the server and is never taken from a request "
        + "(a state a client edited would be accepted); read it with GET /conversations/{id}, and send only 'text' or 'message'"

    struct Reply: Encodable, Sendable {
        var id: String
        var started: Bool
        var message: ParsedMessage
        var responses: [DialogueOutput]
        var visited: [String]
        var warnings: [String]
        var state: DialogueState
    }

    struct Conversation: Encodable, Sendable {
        var id: String
        /// When its last turn was stored, ISO 8601 in UTC.
        var updated: String
        var state: DialogueState
    }

    /// `parsing`: what reading the text warned of (a payload's entities left out), before the turns' warnings.
    static func reply(_ reply: ConversationReply, id: ConversationID, message: ParsedMessage, warnings parsing: [String] = []) -> Reply {
        Reply(id: id.value, started: reply.started, message: message, responses: reply.responses, visited: reply.visited,
              warnings: parsing + reply.warnings, state: reply.state)
    }

    static func conversation(_ stored: StoredConversation) -> Conversation {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return Conversation(id: stored.id.value, updated: formatter.string(from: stored.updated), state: stored.state)
    }

    /// 422 for a parsed message with too many items or a confidence that is no probability.
    static func check(_ message: ParsedMessage) throws {
        if message.intents.count > maxParsedItems || message.entities.count > maxParsedItems {
            throw APIError.unprocessable("field 'message': \(message.intents.count) intents and \(message.entities.count) entities; "
                + "at most \(maxParsedItems) of each are accepted")
        }
        for (index, intent) in message.intents.enumerated() where !(intent.confidence.isFinite && (0...1).contains(intent.confidence)) {
            throw APIError.unprocessable("field 'message.intents[\(index)].confidence': \(intent.confidence) is not a probability in 0...1")
        }
        for (index, entity) in message.entities.enumerated() {
            if let confidence = entity.confidence, !(confidence.isFinite && (0...1).contains(confidence)) {
                throw APIError.unprocessable("field 'message.entities[\(index)].confidence': \(confidence) is not a probability in 0...1")
            }
            if let number = entity.number, !number.isFinite {
                throw APIError.unprocessable("field 'message.entities[\(index)].number': not a finite number")
            }
        }
    }
}

import Foundation

/// Where a server keeps its conversations' ``DialogueState`` between turns: in memory
/// (``MemoryConversationStore``), in a SQLite file or in PostgreSQL (the `NLUDialogueSQLite` and
/// `NLUDialoguePostgres` modules), so that replicas behind a load balancer share them.
///
/// Every store runs a turn as one unit: ``update(_:_:)`` hands the current state to the turn and keeps the
/// state it returns, with no other update of the same conversation in between (a lock, a transaction or a
/// version check, by store), so concurrent messages for one conversation are applied one after the other and
/// none is lost; a turn that throws leaves the conversation as it was.
///
///     let store = MemoryConversationStore(expiry: try ConversationExpiry())
///     let reply = try await store.respond(to: message, in: try ConversationID("user-42"), dialogue: dialogue)
public protocol ConversationStore: Sendable {
    /// The conversation `id` as last stored, `nil` when there is none (never started, deleted, or expired).
    func conversation(_ id: ConversationID) async throws -> StoredConversation?

    /// Runs `turn` on the current state of `id` (`nil` for a conversation not started or expired) and stores the
    /// state it returns, atomically for that conversation; returns the turn's result.
    /// - Throws: what `turn` throws (nothing is stored then), or ``ConversationStoreError``.
    func update<Result: Sendable>(_ id: ConversationID,
                                  _ turn: @escaping @Sendable (DialogueState?) throws -> (DialogueState, Result)) async throws -> Result

    /// Forgets `id`; whether there was such a conversation.
    func delete(_ id: ConversationID) async throws -> Bool
}

/// One conversation as a store holds it.
public struct StoredConversation: Sendable, Equatable {
    public var id: ConversationID
    public var state: DialogueState
    /// When its last turn was stored.
    public var updated: Date

    public init(id: ConversationID, state: DialogueState, updated: Date) {
        self.id = id
        self.state = state
        self.updated = updated
    }
}

/// A store that cannot do what was asked.
public enum ConversationStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A setting out of range (the idle time, the number of conversations, a location).
    case invalidArgument(String)
    /// The database failed or refused: where, and why.
    case storage(location: String, message: String)
    /// A stored state that does not decode (written by something else, or damaged).
    case damagedState(id: String, reason: String)
    /// The conversation kept changing under the turn (a version check failed this many times in a row).
    case contention(id: String, attempts: Int)

    public var description: String {
        switch self {
        case .invalidArgument(let message): return message
        case .storage(let location, let message): return "\(location): \(message)"
        case .damagedState(let id, let reason): return "the stored state of conversation '\(id)' cannot be read: \(reason)"
        case .contention(let id, let attempts):
            return "conversation '\(id)' changed under \(attempts) attempts in a row to store a turn; retry"
        }
    }
}

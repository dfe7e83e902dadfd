import Foundation
import NLUDialogue
import NLUDialoguePostgres
import NLUDialogueSQLite
import NLUSearchPostgres

/// Where a server keeps its conversations, as a user names it (`nlu serve --conversations`): `memory`
/// (the default: this process only), a file path (a SQLite file, shared by the processes of one machine) or a
/// `postgres://` URL (shared by replicas on several machines).
///
///     let store = try await ConversationStoreLocation.open("postgres://app@db/bot", expiry: try ConversationExpiry())
public enum ConversationStoreLocation {
    /// The location of the in-memory store.
    public static let memory = "memory"

    /// Opens (or creates) the store at `location`.
    /// - Throws: ``ConversationStoreError`` naming the location (a PostgreSQL URL without its password).
    public static func open(_ location: String, expiry: ConversationExpiry) async throws -> any ConversationStore {
        if location == memory { return MemoryConversationStore(expiry: expiry) }
        if PostgresLocation.looksLikeURL(location) {
            throw ConversationStoreError.invalidArgument("\"\(PostgresLocation.redacted(location))\" is not a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)")
        }
        if PostgresLocation.isURL(location) { return try await PostgresConversationStore(url: location, expiry: expiry) }
        if let scheme = location.range(of: "://"), location[..<scheme.lowerBound].allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ConversationStoreError.invalidArgument("\(PostgresLocation.redacted(location)): not a conversation store: give memory, a file path or a postgres:// URL")
        }
        return try SQLiteConversationStore(path: location, expiry: expiry)
    }

    /// How messages and `/status` name the store: a PostgreSQL URL without its password.
    public static func name(_ location: String) -> String {
        PostgresLocation.isURL(location) ? PostgresLocation.redacted(location) : location
    }
}

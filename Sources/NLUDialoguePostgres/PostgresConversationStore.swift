import Foundation
import Logging
import NLUDialogue
import NLUSearch
import NLUSearchPostgres
import PostgresNIO

/// Conversations in PostgreSQL, shared by every replica of a server behind a load balancer: a replica
/// killed mid-conversation loses nothing, the next message goes to another one and continues.
///
/// Each turn is one transaction holding the conversation's row lock (`SELECT ... FOR UPDATE`, after an
/// `INSERT ... ON CONFLICT DO NOTHING` so that a new conversation has a row to lock too): concurrent messages
/// for one conversation, on any replica, are serialised; a turn that fails, or a replica that dies before
/// `COMMIT`, leaves the previous state. The table `conversations` is in the URL's schema (`?schema=NAME`,
/// default `nlukit`), created when missing.
///
/// The expiry is enforced in the same transactions: an expired row is never read as a conversation; a
/// conversation starting first deletes the expired rows and then the least recently used ones beyond
/// ``ConversationExpiry/maxConversations`` — one replica's transaction at a time (a transaction advisory lock
/// it only tries for), skipping rows other turns hold locked (`FOR UPDATE SKIP LOCKED`), so none waits for
/// another nor deadlocks, and a conversation in the middle of a turn is never taken; a
/// state over ``ConversationExpiry/maxStateBytes`` is refused before it is written. ``purgeExpired()`` does
/// both for conversations nobody touches again (a server runs it on a schedule; every replica may).
///
///     let store = try await PostgresConversationStore(url: "postgres://app@db/bot", expiry: try ConversationExpiry())
///     defer { store.close() }
public final class PostgresConversationStore: ConversationStore, @unchecked Sendable {
    public let location: PostgresLocation
    public let expiry: ConversationExpiry
    private let client: PostgresClient
    private let running: Task<Void, Never>
    private let now: @Sendable () -> Date
    private let table: String
    private let logger: Logger

    /// Connects (a pool of up to `connections`) and creates the table when missing.
    /// - Throws: ``ConversationStoreError`` naming the URL (without its password) and why.
    public init(url: String, expiry: ConversationExpiry, connections: Int = 16,
                now: @escaping @Sendable () -> Date = Date.init) async throws {
        do {
            location = try PostgresLocation(url: url)
        } catch {
            throw ConversationStoreError.invalidArgument("\(error)")
        }
        guard (1...1000).contains(connections) else {
            throw ConversationStoreError.invalidArgument("the PostgreSQL connections of a conversation store must be 1...1000; got \(connections)")
        }
        self.expiry = expiry
        self.now = now
        table = "\"\(location.schema)\".conversations"
        var logger = Logger(label: "nlukit.conversations.postgres")
        logger.logLevel = .critical
        self.logger = logger
        var configuration = PostgresClient.Configuration(host: location.host, port: location.port, username: location.user,
                                                         password: location.password, database: location.database, tls: .disable)
        configuration.options.maximumConnections = connections
        configuration.options.connectTimeout = .seconds(10)
        // One connection first: an address that does not answer fails here at once, said in words (the pool
        // would retry it behind a circuit breaker for minutes).
        let location = self.location
        do {
            let connection = try await PostgresConnection.connect(
                configuration: .init(host: location.host, port: location.port, username: location.user, password: location.password,
                                     database: location.database, tls: .disable),
                id: 0, logger: logger)
            try await connection.close()
        } catch {
            throw ConversationStoreError.storage(location: location.description, message: PostgresFailure.reason(error, location: location))
        }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        running = Task { await client.run() }
        do {
            try await prepare()
        } catch {
            running.cancel()
            throw error
        }
    }

    deinit { running.cancel() }

    /// Stops the connection pool (its connections close).
    public func close() { running.cancel() }

    private func prepare() async throws {
        let schema = "\"\(location.schema)\""
        try await access {
            try await client.withTransaction(logger: logger) { connection in
                // Replicas starting together: one creates, the others wait and find the table.
                try await connection.query("SELECT pg_advisory_xact_lock(7346102817)", logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: """
                    CREATE TABLE IF NOT EXISTS \(table) (
                        id text PRIMARY KEY,
                        state text,
                        updated double precision NOT NULL)
                    """), logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE INDEX IF NOT EXISTS conversations_updated ON \(table) (updated)"), logger: logger)
            }
        }
    }

    public func conversation(_ id: ConversationID) async throws -> StoredConversation? {
        let cutoff = expiry.cutoff(at: now().timeIntervalSince1970)
        let rows = try await access {
            try await client.query("SELECT state, updated FROM \(unescaped: table) WHERE id = \(id.value) AND state IS NOT NULL AND updated >= \(cutoff)",
                                   logger: logger)
                .collect()
        }
        guard let row = rows.first else { return nil }
        let (text, updated) = try row.decode((String, Double).self)
        return StoredConversation(id: id, state: try StoredStateCoding.decode(text, id: id.value), updated: Date(timeIntervalSince1970: updated))
    }

    public func update<Result: Sendable>(_ id: ConversationID,
                                         _ turn: @escaping @Sendable (DialogueState?) throws -> (DialogueState, Result)) async throws -> Result {
        let now = self.now().timeIntervalSince1970
        let expiry = self.expiry
        let cutoff = expiry.cutoff(at: now)
        let table = self.table, logger = self.logger
        return try await access {
            try await client.withTransaction(logger: logger) { connection -> Result in
                try await connection.query("INSERT INTO \(unescaped: table) (id, state, updated) VALUES (\(id.value), NULL, \(now)) ON CONFLICT (id) DO NOTHING",
                                           logger: logger)
                let rows = try await connection.query("SELECT state, updated FROM \(unescaped: table) WHERE id = \(id.value) FOR UPDATE", logger: logger)
                    .collect()
                var current: DialogueState?
                if let row = rows.first {
                    let (text, updated) = try row.decode((String?, Double).self)
                    if let text, updated >= cutoff { current = try StoredStateCoding.decode(text, id: id.value) }
                }
                let (state, result) = try turn(current)
                let encoded = try StoredStateCoding.encode(state, id: id.value, limit: expiry.maxStateBytes)
                try await connection.query("UPDATE \(unescaped: table) SET state = \(encoded), updated = \(now) WHERE id = \(id.value)", logger: logger)
                // Only a conversation starting adds a row: it makes room, the others leave the count as it was.
                if current == nil { _ = try await Self.makeRoom(connection, table: table, expiry: expiry, now: now, keeping: id.value, logger: logger) }
                return result
            }
        }
    }

    /// Forgets the conversations idle past the expiry, then the least recently used beyond the limit; how many.
    /// Rows other turns hold are skipped (the next purge takes them if they are still due).
    @discardableResult
    public func purgeExpired() async throws -> Int {
        let now = self.now().timeIntervalSince1970
        let expiry = self.expiry, table = self.table, logger = self.logger
        return try await access {
            try await client.withTransaction(logger: logger) { connection in
                try await Self.makeRoom(connection, table: table, expiry: expiry, now: now, keeping: nil, logger: logger)
            }
        }
    }

    /// Deletes the expired rows, then the oldest beyond the limit, never `keeping` and never a row another
    /// transaction holds; how many.
    private static func makeRoom(_ connection: PostgresConnection, table: String, expiry: ConversationExpiry, now: Double,
                                 keeping: String?, logger: Logger) async throws -> Int {
        let cutoff = expiry.cutoff(at: now)
        let keep = keeping ?? ""
        var purged = 0
        if expiry.idleSeconds != nil {
            purged += try await count(connection.query("""
                WITH gone AS (DELETE FROM \(unescaped: table) WHERE id IN (
                    SELECT id FROM \(unescaped: table) WHERE updated < \(cutoff) AND id <> \(keep) FOR UPDATE SKIP LOCKED) RETURNING 1)
                SELECT count(*)::bigint FROM gone
                """, logger: logger))
        }
        guard expiry.maxConversations != nil else { return purged }
        // One trimmer at a time: two counting at once would each delete the whole excess (SKIP LOCKED hands them
        // different rows) and leave fewer conversations than the limit. A start that finds another trimming leaves
        // the work to it; rows not yet committed elsewhere may exceed the limit until the next start or purge.
        let trimming = try await connection.query("SELECT pg_try_advisory_xact_lock(hashtextextended(\(table), 0))", logger: logger)
            .collect().first?.decode(Bool.self) ?? false
        guard trimming else { return purged }
        let excess = expiry.excess(over: try await count(connection.query("SELECT count(*)::bigint FROM \(unescaped: table)", logger: logger)))
        guard excess > 0 else { return purged }
        purged += try await count(connection.query("""
            WITH gone AS (DELETE FROM \(unescaped: table) WHERE id IN (
                SELECT id FROM \(unescaped: table) WHERE id <> \(keep) ORDER BY updated LIMIT \(excess) FOR UPDATE SKIP LOCKED) RETURNING 1)
            SELECT count(*)::bigint FROM gone
            """, logger: logger))
        return purged
    }

    /// The single `bigint` a `count(*)` query answers.
    private static func count(_ rows: PostgresRowSequence) async throws -> Int {
        Int(try await rows.collect().first?.decode(Int64.self) ?? 0)
    }

    public func delete(_ id: ConversationID) async throws -> Bool {
        let cutoff = expiry.cutoff(at: now().timeIntervalSince1970)
        let rows = try await access {
            try await client.query("DELETE FROM \(unescaped: table) WHERE id = \(id.value) RETURNING state IS NOT NULL AND updated >= \(cutoff)",
                                   logger: logger).collect()
        }
        return try rows.first?.decode(Bool.self) ?? false
    }

    /// `body`, with postgres-nio's errors said in words and named after the URL.
    private func access<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError {
            throw ConversationStoreError.storage(location: location.description, message: PostgresFailure.reason(error, location: location))
        } catch let error as PostgresTransactionError {
            // The turn's own error (a state of another dialogue) as it was thrown; the database's, said in words.
            if let closureError = error.closureError, !(closureError is PSQLError) { throw closureError }
            let failure = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error
            throw ConversationStoreError.storage(location: location.description, message: PostgresFailure.reason(failure, location: location))
        }
    }
}

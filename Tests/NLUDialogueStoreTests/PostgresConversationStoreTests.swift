import Foundation
import NLUDialogue
import NLUDialoguePostgres
import Testing

/// The server to test against, from the environment (scripts/postgres-test-server.sh starts one).
let postgresTestServerURL = ProcessInfo.processInfo.environment["NLUKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

@Suite(.serialized, .enabled(if: postgresTestServerURL != nil,
                             "NLUKIT_TEST_POSTGRES_URL is not set: no PostgreSQL server to test against (scripts/postgres-test-server.sh starts one)"))
struct PostgresConversationStoreTests {
    /// A fresh schema per store, so tests never see each other's rows.
    static func url() -> String {
        (postgresTestServerURL ?? "") + "?schema=c_\(ProcessInfo.processInfo.processIdentifier)_\(UInt32.random(in: 0...UInt32.max))"
    }

    static func store(_ url: String = url(), idle: Double? = 3600, max: Int? = nil, stateBytes: Int? = nil,
                      clock: TestClock = TestClock()) async throws -> PostgresConversationStore {
        try await PostgresConversationStore(url: url, expiry: try ConversationExpiry(idleSeconds: idle, maxConversations: max, maxStateBytes: stateBytes),
                                            connections: 8, now: { clock.now })
    }

    @Test func conversationsContinue() async throws {
        let store = try await Self.store()
        defer { store.close() }
        try await StoreBehaviour.conversationsContinue(store)
    }
    @Test func concurrentMessagesAreSerialised() async throws {
        let store = try await Self.store()
        defer { store.close() }
        try await StoreBehaviour.concurrentMessagesAreSerialised(store)
    }
    @Test func idleConversationsExpire() async throws {
        let clock = TestClock()
        let store = try await Self.store(idle: 60, clock: clock)
        defer { store.close() }
        try await StoreBehaviour.idleConversationsExpire(store, clock: clock)
        clock.advance(61)
        #expect(try await store.purgeExpired() == 1)
    }
    @Test func leastRecentlyUsedConversationGoesPastTheLimit() async throws {
        let clock = TestClock()
        let store = try await Self.store(max: 2, clock: clock)
        defer { store.close() }
        try await StoreBehaviour.leastRecentlyUsedGoesPastTheLimit(store, clock: clock)
    }
    @Test func oversizedStateIsRefused() async throws {
        let store = try await Self.store(stateBytes: 1024)
        defer { store.close() }
        try await StoreBehaviour.oversizedStateIsRefused(store)
    }
    @Test func purgeForgetsIdleConversations() async throws {
        let clock = TestClock()
        let store = try await Self.store(idle: 60, clock: clock)
        defer { store.close() }
        try await StoreBehaviour.purgeForgetsIdleConversations(store, clock: clock)
    }
    @Test func scheduledPurgeRuns() async throws {
        let clock = TestClock()
        let store = try await Self.store(idle: 60, clock: clock)
        defer { store.close() }
        try await StoreBehaviour.scheduledPurgeRuns(store, clock: clock)
    }

    /// Two replicas on one database, each starting conversations concurrently under a limit of 5: the count
    /// ends within the limit once a purge has run, the newest kept; no turn fails, none waits for another's lock.
    @Test func theLimitHoldsAcrossReplicas() async throws {
        let clock = TestClock()
        let url = Self.url()
        let (one, two) = (try await Self.store(url, max: 5, clock: clock), try await Self.store(url, max: 5, clock: clock))
        defer { one.close(); two.close() }
        for round in 0..<4 {
            clock.advance(1)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 0..<6 {
                    group.addTask {
                        _ = try await (number % 2 == 0 ? one : two).respond(to: StoreBehaviour.say("x"), in: try ConversationID("r\(round)-\(number)"),
                                                                              dialogue: StoreBehaviour.counter)
                    }
                }
                try await group.waitForAll()
            }
        }
        _ = try await one.purgeExpired()
        var kept = 0
        for round in 0..<4 {
            for number in 0..<6 where try await two.conversation(try ConversationID("r\(round)-\(number)")) != nil {
                kept += 1
                #expect(round == 3, "an older conversation r\(round)-\(number) outlived the newest round")
            }
        }
        #expect(kept == 5)
    }
    @Test func deletion() async throws {
        let store = try await Self.store()
        defer { store.close() }
        try await StoreBehaviour.deletion(store)
    }
    @Test func anotherDialoguesStateIsRefused() async throws {
        let store = try await Self.store()
        defer { store.close() }
        try await StoreBehaviour.anotherDialoguesStateIsRefused(store)
    }

    /// Two replicas on one database: one stops (its pool closed, as a killed process's connections are)
    /// mid-conversation; the other continues from the last turn stored; concurrent turns from both are
    /// serialised by the row lock.
    @Test func replicasShareConversationsAndAStoppedOneLosesNothing() async throws {
        let url = Self.url()
        let (one, two) = (try await Self.store(url), try await Self.store(url))
        defer { two.close() }
        let id = try ConversationID("shared")
        _ = try await one.respond(to: StoreBehaviour.say("a"), in: id, dialogue: StoreBehaviour.counter)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<20 {
                group.addTask {
                    _ = try await (number % 2 == 0 ? one : two).respond(to: StoreBehaviour.say("c"), in: id, dialogue: StoreBehaviour.counter)
                }
            }
            try await group.waitForAll()
        }
        one.close()
        let reply = try await two.respond(to: StoreBehaviour.say("b"), in: id, dialogue: StoreBehaviour.counter)
        #expect(!reply.started && reply.state.context["count"] == 22)
    }

    @Test func aBadURLIsNamedWithoutItsPassword() async throws {
        await #expect(throws: ConversationStoreError.self) {
            _ = try await PostgresConversationStore(url: "postgres://app:Hunter2@127.0.0.1:1/x", expiry: try ConversationExpiry())
        }
        do { _ = try await PostgresConversationStore(url: "postgres://app:Hunter2@127.0.0.1:1/x", expiry: try ConversationExpiry()) } catch {
            #expect(!"\(error)".contains("Hunter2") && "\(error)".contains("127.0.0.1:1"))
        }
    }
}

import Foundation
import NLUDialogue
import Testing

@Suite struct MemoryConversationStoreTests {
    static func store(idle: Double? = 3600, max: Int? = 1000, stateBytes: Int? = nil, clock: TestClock = TestClock()) throws -> MemoryConversationStore {
        MemoryConversationStore(expiry: try ConversationExpiry(idleSeconds: idle, maxConversations: max, maxStateBytes: stateBytes), now: { clock.now })
    }

    @Test func conversationsContinue() async throws { try await StoreBehaviour.conversationsContinue(try Self.store()) }
    @Test func concurrentMessagesAreSerialised() async throws {
        try await StoreBehaviour.concurrentMessagesAreSerialised(try Self.store(), count: 200)
    }
    @Test func idleConversationsExpire() async throws {
        let clock = TestClock()
        try await StoreBehaviour.idleConversationsExpire(try Self.store(idle: 60, clock: clock), clock: clock)
    }
    @Test func deletion() async throws { try await StoreBehaviour.deletion(try Self.store()) }
    @Test func anotherDialoguesStateIsRefused() async throws { try await StoreBehaviour.anotherDialoguesStateIsRefused(try Self.store()) }

    /// Past the limit, the conversation whose last message is the oldest goes.
    @Test func leastRecentlyUsedConversationGoesPastTheLimit() async throws {
        let clock = TestClock()
        let store = try Self.store(max: 2, clock: clock)
        try await StoreBehaviour.leastRecentlyUsedGoesPastTheLimit(store, clock: clock)
        #expect(store.count == 2)
    }
    @Test func oversizedStateIsRefused() async throws {
        try await StoreBehaviour.oversizedStateIsRefused(try Self.store(stateBytes: 1024))
    }
    @Test func purgeForgetsIdleConversations() async throws {
        let clock = TestClock()
        try await StoreBehaviour.purgeForgetsIdleConversations(try Self.store(idle: 60, clock: clock), clock: clock)
    }
    @Test func scheduledPurgeRuns() async throws {
        let clock = TestClock()
        try await StoreBehaviour.scheduledPurgeRuns(try Self.store(idle: 60, clock: clock), clock: clock)
    }

    @Test func limitsAreRangeChecked() throws {
        #expect(throws: ConversationStoreError.invalidArgument("the idle time of a conversation must be 1 ... 31622400 seconds; got 0.5")) {
            try ConversationExpiry(idleSeconds: 0.5)
        }
        #expect(throws: ConversationStoreError.self) { try ConversationExpiry(idleSeconds: .nan) }
        #expect(throws: ConversationStoreError.self) { try ConversationExpiry(maxConversations: 0) }
        #expect(throws: ConversationStoreError.invalidArgument("the largest state of a conversation must be 256 ... 67108864 bytes; got 100")) {
            try ConversationExpiry(maxStateBytes: 100)
        }
        #expect(try ConversationExpiry(idleSeconds: 3600).purgeInterval == 60)
        #expect(try ConversationExpiry(idleSeconds: 60).purgeInterval == 6)
        #expect(try ConversationExpiry(idleSeconds: 1).purgeInterval == 1)
        #expect(throws: ConversationIDError.self) { try ConversationID("") }
        #expect(throws: ConversationIDError(reason: "has 129 characters; at most 128 are accepted")) {
            try ConversationID(String(repeating: "a", count: 129))
        }
        #expect(throws: ConversationIDError(reason: "has a character that is not allowed at offset 2 (U+2F); allowed: ASCII letters, digits and +-.:@_")) {
            try ConversationID("../etc")
        }
        #expect(try ConversationID("+44 20".replacingOccurrences(of: " ", with: "")).value == "+4420")
    }
}

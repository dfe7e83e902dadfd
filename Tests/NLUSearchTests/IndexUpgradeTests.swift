import Foundation
import GRDB
import NLUSearch
import Testing

/// A schema-1 index file written by the previous code (Tests/Fixtures/search-index-v1) opens, is
/// searched as before, and its first write upgrades it to schema 2 in the same transaction.
@Suite struct IndexUpgradeTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/search-index-v1")

    func copyOfFixture() throws -> URL {
        let url = try temporaryIndexURL()
        try FileManager.default.copyItem(at: Self.fixture.appendingPathComponent("index-v1.db"), to: url)
        return url
    }

    func vectors(_ url: URL) throws -> [Data] {
        try DatabaseQueue(path: url.path).read { db in try Data.fetchAll(db, sql: "SELECT vector FROM chunks ORDER BY number") }
    }

    func fixtureDocuments() throws -> [IndexDocument] {
        var reader = DocumentFileReader()
        return try reader.read(path: Self.fixture.appendingPathComponent("docs.jsonl").path)
    }

    @Test func aSchema1FileIsSearchedAsBeforeThenUpgradedByItsFirstAdd() throws {
        let url = try copyOfFixture()
        let embedder = try HashingEmbedder(dimension: 384)
        let old = try DocumentIndex(at: url, embedder: embedder)
        #expect(try old.info().schemaVersion == 1)
        // What the schema-1 code answered (porter tokenizer over the text): `nlu index search` at 63903ca.
        let before = try old.search("connecting routers password cafe", options: SearchOptions(k: 10, mode: .keyword))
        #expect(before.map(\.documentID) == ["note-4", "faq-3", "faq-1"] && before.map(\.chunk) == [0, 1, 0])
        #expect(abs(before[0].score - 4.096364536752887) < 1e-12)
        #expect(try DocumentIndex(at: url, readOnly: true).search("routers", options: SearchOptions(k: 1, mode: .keyword)).first?.documentID == "note-4")
        let vectorsBefore = try vectors(url)

        try old.add([try IndexDocument(id: "new", text: "A new router manual.")])
        #expect(try old.info().schemaVersion == 2)
        #expect(try vectors(url).prefix(vectorsBefore.count) == vectorsBefore[...])

        // The same as an index made new with the same documents.
        let fresh = try DocumentIndex.create(at: try temporaryIndexURL(), embedder: embedder,
                                             chunking: try ChunkingOptions(size: 8, overlap: 2))
        try fresh.add(try fixtureDocuments())
        try fresh.add([try IndexDocument(id: "new", text: "A new router manual.")])
        for query in ["connecting routers password cafe", "résumé", "emailed invoices", "router"] {
            for mode in [SearchMode.keyword, .vector, .hybrid] {
                let a = try old.search(query, options: SearchOptions(k: 10, mode: mode))
                let b = try fresh.search(query, options: SearchOptions(k: 10, mode: mode))
                #expect(!a.isEmpty && a == b, "\(query) \(mode)")
            }
        }
        // Stemmed and folded now: "cafe" finds "Café", "connecting" the chunk with "connected".
        #expect(try old.search("cafe", options: SearchOptions(k: 3, mode: .keyword)).map(\.documentID) == ["faq-3"])
    }

    @Test func aDeleteUpgradesTooAndReadOnlyOpeningsLeaveTheFileAlone() throws {
        let url = try copyOfFixture()
        _ = try DocumentIndex(at: url, readOnly: true).search("router", options: SearchOptions(k: 3, mode: .keyword))
        #expect(try DocumentIndex(at: url).info().schemaVersion == 1)
        let index = try DocumentIndex(at: url)
        #expect(try index.delete(ids: ["faq-2"]) == 1)
        #expect(try index.info().schemaVersion == 2 && (try index.info().documentCount) == 3)
        #expect(try index.search("settings", options: SearchOptions(k: 3, mode: .keyword)).first?.documentID == "faq-1")
    }
}

import Foundation
import NLUCore
import NLUSearch
@testable import NLUSearchPostgres
import Testing

/// The PostgreSQL backend against a real server with pgvector: scripts/test.sh starts one
/// (scripts/postgres-test-server.sh) and sets NLUKIT_TEST_POSTGRES_URL; without it these tests are
/// skipped, and the script prints why the server could not start.
/// The server to test against, from the environment.
let postgresTestServerURL = ProcessInfo.processInfo.environment["NLUKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

@Suite(.serialized, .enabled(if: postgresTestServerURL != nil,
                             "NLUKIT_TEST_POSTGRES_URL is not set: no PostgreSQL server with pgvector to test against (scripts/postgres-test-server.sh starts one)"))
struct PostgresIndexTests {
    static let serverURL = postgresTestServerURL

    /// A fresh schema per test, so tests never see each other's rows.
    static func url(_ name: String) -> String {
        let unique = "t_\(name)_\(ProcessInfo.processInfo.processIdentifier)_\(UInt32.random(in: 0...UInt32.max))"
        return (serverURL ?? "") + "?schema=\(unique)"
    }

    /// Real sentences and near-duplicates (so vector ranks are close), with metadata to filter on.
    static func makeDocuments() throws -> [IndexDocument] {
        let texts = [
            "The invoice is sent on the first business day of every month.",
            "Invoices are emailed at the start of each month to the billing contact.",
            "To reset your password, open Settings and choose Security.",
            "Forgot your login? Use the reset link on the sign-in page.",
            "Refunds are processed within five business days of the request.",
            "Our office in Lisbon is open from nine to five on weekdays.",
            "The mobile app supports offline mode for reading saved articles.",
            "Two-factor authentication protects your account with a second code.",
            "Shipping to Canada takes between seven and ten business days.",
            "You can export your data as CSV or JSON from the account page.",
            "The invoice is sent on the first business day of every month.",
            "Refunds are processed within five working days of the request.",
        ]
        return try texts.enumerated().map { number, text in
            try IndexDocument(id: "doc-\(String(format: "%02d", number))", text: text,
                               metadataJSON: #"{"lang": "en", "team": "\#(number % 3 == 0 ? "billing" : "support")", "n": \#(number)}"#)
        }
    }

    static let queries = ["invoice month", "password reset", "refund business days", "Lisbon office hours",
                          "export data CSV", "second code account", "shipping Canada", "offline articles"]

    @Test func bothBackendsReturnTheSameResultsOnTheSameData() throws {
        let embedder = try HashingEmbedder(dimension: 64)
        let chunking = try ChunkingOptions(size: 6, overlap: 2)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nlukit-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try DocumentIndex.create(at: directory.appendingPathComponent("index.db"), embedder: embedder, chunking: chunking)
        let postgres = try PostgresDocumentIndex.create(url: Self.url("same"), embedder: embedder, chunking: chunking)
        for index in [sqlite, postgres] as [any SearchableIndex] { try index.add((try Self.makeDocuments()), progress: nil) }
        #expect(try postgres.info().documentCount == (try Self.makeDocuments()).count)
        #expect(try postgres.info().chunkCount == (try sqlite.info().chunkCount))
        for query in Self.queries {
            for k in [1, 3, 10] {
                let options = SearchOptions(k: k, mode: .vector)
                let a = try sqlite.search(query, embedding: nil, options: options)
                let b = try postgres.search(query, embedding: nil, options: options)
                #expect(a == b, "vector \"\(query)\" k \(k)")
            }
            // Keyword scores differ (FTS5's BM25 weighs rare words up, PostgreSQL's ts_rank has no
            // IDF), so only queries whose words all meet in one chunk must agree on the best match.
            guard query != "refund business days" else { continue }
            let keyword = SearchOptions(k: 1, mode: .keyword)
            let a = try sqlite.search(query, embedding: nil, options: keyword).map(\.documentID)
            let b = try postgres.search(query, embedding: nil, options: keyword).map(\.documentID)
            #expect(a == b, "keyword \"\(query)\"")
            #expect(!a.isEmpty)
        }
        // Hybrid: the same fusion code over the two rankings; with equal rankings, equal results.
        let hybrid = SearchOptions(k: 3, mode: .hybrid, fusion: FusionOptions(keywordWeight: 0))
        #expect(try sqlite.search("invoice month", embedding: nil, options: hybrid)
                == postgres.search("invoice month", embedding: nil, options: hybrid))
        // Filters as the SQLite backend reads them, numbers included.
        for filter in [["team": "billing"], ["n": "4"], ["lang": "en", "team": "support"]] {
            let options = SearchOptions(k: 5, mode: .vector, filter: filter)
            #expect(try sqlite.search("refund", embedding: nil, options: options) == postgres.search("refund", embedding: nil, options: options),
                    "filter \(filter)")
        }
    }

    @Test func vectorSearchIsExactOverManyNearTies() throws {
        // 600 chunks whose vectors are small moves of a few bases: many pgvector F32 distances are
        // within its rounding of each other, so the re-ranking decides; the SQLite backend is the reference.
        let embedder = FixedEmbedder(seed: 3)
        let chunking = try ChunkingOptions(size: 200, overlap: 0)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nlukit-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try DocumentIndex.create(at: directory.appendingPathComponent("index.db"), embedder: embedder, chunking: chunking)
        let postgres = try PostgresDocumentIndex.create(url: Self.url("ties"), embedder: embedder, chunking: chunking)
        let documents = try (0..<600).map { try IndexDocument(id: String(format: "v%03d", $0), text: "item \($0)") }
        try sqlite.add(documents, progress: nil)
        try postgres.add(documents, progress: nil)
        for probe in 0..<6 {
            let query = embedder.vector(for: "item \(probe * 97)")
            let options = SearchOptions(k: 40, mode: .vector)
            #expect(try sqlite.search("q", embedding: query, options: options) == postgres.search("q", embedding: query, options: options))
        }
    }

    @Test func hnswIndexFindsTheNearestDocuments() throws {
        let embedder = try HashingEmbedder(dimension: 64)
        let index = try PostgresDocumentIndex.create(url: Self.url("hnsw"), embedder: embedder, chunking: try ChunkingOptions(size: 50, overlap: 0), hnsw: true)
        #expect(index.usesHNSW)
        try index.add((try Self.makeDocuments()), progress: nil)
        let reopened = try PostgresDocumentIndex(url: index.location.contains("?") ? Self.serverURL! + "?" + index.location.split(separator: "?")[1] : index.location, embedder: embedder)
        #expect(reopened.usesHNSW)
        let results = try reopened.search("reset your password", embedding: nil, options: SearchOptions(k: 2, mode: .vector))
        #expect(results.first?.documentID == "doc-02")
    }

    @Test func addReplacesDeleteRemovesAndBadInputWritesNothing() throws {
        let embedder = try HashingEmbedder(dimension: 32)
        let index = try PostgresDocumentIndex.create(url: Self.url("writes"), embedder: embedder)
        try index.add(Array((try Self.makeDocuments()).prefix(4)), progress: nil)
        try index.add([try IndexDocument(id: "doc-00", text: "Replaced text about penguins.")], progress: nil)
        #expect(try index.documentText(id: "doc-00") == "Replaced text about penguins.")
        #expect(try index.info().documentCount == 4)
        #expect(try index.search("penguins", embedding: nil, options: SearchOptions(k: 1, mode: .keyword)).first?.documentID == "doc-00")
        #expect(try index.delete(ids: ["doc-01", "nope"]) == 1)
        #expect(try !index.contains(id: "doc-01"))
        // Duplicate ids and empty texts are refused before anything is written.
        let duplicate = [try IndexDocument(id: "new", text: "a"), try IndexDocument(id: "new", text: "b")]
        #expect(throws: SearchError.invalidDocument(id: "new", reason: "the id appears twice in one add")) { try index.add(duplicate, progress: nil) }
        #expect(throws: SearchError.invalidDocument(id: "blank", reason: "the text is empty")) {
            try index.add([try IndexDocument(id: "x", text: "fine"), try IndexDocument(id: "blank", text: "  ")], progress: nil)
        }
        #expect(try index.info().documentCount == 3)
        // A second create in the same schema is refused; another model's embedder too.
        #expect(throws: SearchError.self) { try PostgresDocumentIndex.create(url: index.location, embedder: embedder) }
        let other = try HashingEmbedder(dimension: 16)
        #expect(throws: SearchError.modelMismatch(index: embedder.identity, given: other.identity)) {
            try PostgresDocumentIndex(url: Self.serverURL! + "?" + index.location.split(separator: "?")[1], embedder: other)
        }
        #expect(throws: SearchError.invalidArgument("k must be in 1...\(SearchOptions.maximumK), got 0")) {
            try index.search("x", embedding: nil, options: SearchOptions(k: 0, mode: .keyword))
        }
    }

    /// On words that the two stemmers (Porter, Snowball) do not split differently, the two backends
    /// tokenise alike, stop words included (the index's configuration keeps them, as FTS5 does), so
    /// the server's BM25 (lengths and totals kept by triggers, document frequencies from the GIN
    /// index) must give FTS5's scores, also after a replace and a delete.
    @Test func keywordScoresEqualSQLiteBM25AfterAddsReplacesAndDeletes() throws {
        let texts = ["jazz piano lamp", "jazz jazz river stone desk", "piano garden", "the violin by the river river river stone lamp desk garden",
                     "stone", "lamp lamp jazz of the", "garden garden violin piano jazz desk river"]
        let documents = try texts.enumerated().map { try IndexDocument(id: "k\($0.offset)", text: $0.element) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nlukit-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try DocumentIndex.create(at: directory.appendingPathComponent("index.db"), embedder: nil)
        let postgres = try PostgresDocumentIndex.create(url: Self.url("bm25"), embedder: nil)
        for index in [sqlite, postgres] as [any SearchableIndex] {
            try index.add(documents, progress: nil)
            try index.add([try IndexDocument(id: "k2", text: "piano piano stone river")], progress: nil)
            try index.delete(ids: ["k4"])
        }
        for query in ["jazz piano", "river stone lamp", "garden violin desk", "jazz", "stone desk piano violin", "the jazz of", "the",
                      "the jazz of the river, the stone", "jazz jazz piano"] {
            let options = SearchOptions(k: 10, mode: .keyword)
            let a = try sqlite.search(query, embedding: nil, options: options)
            let b = try postgres.search(query, embedding: nil, options: options)
            #expect(a.map(\.documentID) == b.map(\.documentID), "\(query)")
            #expect(a.count == b.count && !a.isEmpty, "\(query)")
            for (x, y) in zip(a, b) { #expect(abs(x.score - y.score) <= 1e-9 * max(1, abs(x.score)), "\(query): \(x.documentID) \(x.score) vs \(y.score)") }
        }
    }

    /// `info()` (so `nlu index info`) reports the version recorded in the schema, not the newest
    /// this code writes: a version 1 index is still read; a newer one is refused, naming both.
    @Test func infoReportsTheSchemaVersionRecordedInTheIndex() throws {
        let created = try PostgresDocumentIndex.create(url: Self.url("version"), embedder: nil)
        #expect(try created.info().schemaVersion == 2)
        let url = Self.serverURL! + "?" + created.location.split(separator: "?")[1]
        for recorded in [1, 2] {
            try created.session.query("UPDATE \(created.schema).index_info SET value = '\(recorded)' WHERE key = 'schema_version'")
            #expect(try PostgresDocumentIndex(url: url).info().schemaVersion == recorded)
        }
        try created.session.query("UPDATE \(created.schema).index_info SET value = '3' WHERE key = 'schema_version'")
        #expect(throws: SearchError.newerSchema(path: created.location, found: 3, supported: 2)) { try PostgresDocumentIndex(url: url) }
        try created.session.query("UPDATE \(created.schema).index_info SET value = '0' WHERE key = 'schema_version'")
        #expect(throws: SearchError.self) { try PostgresDocumentIndex(url: url) }
    }

    @Test func aSchemaWithoutAnIndexIsNotAnIndex() throws {
        #expect {
            try PostgresDocumentIndex(url: Self.url("missing"))
        } throws: { error in
            guard case let SearchError.notAnIndex(_, reason) = error else { return false }
            return reason.contains("no index_info")
        }
    }
}

/// URLs and connections that fail say what and why (no server needed).
@Suite struct PostgresLocationTests {
    @Test func urlsAreReadAndPasswordsNeverShown() throws {
        let location = try PostgresLocation(url: "postgres://app:secret@db.example:6543/search?schema=manuals")
        #expect(location.host == "db.example" && location.port == 6543 && location.user == "app")
        #expect(location.password == "secret" && location.database == "search" && location.schema == "manuals")
        #expect(location.description == "postgres://app@db.example:6543/search?schema=manuals")
        #expect(try PostgresLocation(url: "postgresql://localhost").database == "postgres")
        #expect(throws: SearchError.self) { try PostgresLocation(url: "postgres:///nohost") }
        #expect(throws: SearchError.self) { try PostgresLocation(url: "postgres://h/db?schema=Bad-Name") }
        #expect(throws: SearchError.self) { try PostgresLocation(url: "postgres://h/db?sslmode=require") }
    }

    @Test func aServerThatCannotBeReachedIsNamedWithItsPortAndTheReason() throws {
        // A loopback port nothing listens on: bind one, close it, connect to it.
        let port = closedLoopbackPort()
        #expect {
            try PostgresDocumentIndex(url: "postgres://postgres:pw@127.0.0.1:\(port)/postgres")
        } throws: { error in
            let text = "\(error)"
            return text.contains("cannot connect to PostgreSQL at 127.0.0.1:\(port)") && text.lowercased().contains("refused")
                && !text.contains("pw")
        }
    }

    func closedLoopbackPort() -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Vectors clustered around a few bases with tiny moves: near-ties for the exactness test.
struct FixedEmbedder: TextEmbedder {
    let identity = EmbedderIdentity(name: "fixed-near-ties", dimension: 48, revision: "1")
    let seed: UInt64

    func vector(for text: String) -> [Float] {
        let number = UInt64(text.split(separator: " ").last.flatMap { Int($0) } ?? 0)
        var base = SplitMix64(seed: seed &+ number % 5)
        var move = SplitMix64(seed: seed &+ 1000 &+ number)
        return (0..<48).map { _ in Float.random(in: -1..<1, using: &base) + 1e-3 * Float.random(in: -1..<1, using: &move) }
    }

    func embed(_ texts: [String]) throws -> [[Float]] { texts.map(vector(for:)) }
}

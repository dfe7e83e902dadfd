import Foundation
import NLUCore
import NLUSearch
@testable import NLUSearchPostgres
import NLUTestSupport
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
        let directory = try TestScratch.folder("nlukit-pg")
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
        let directory = try TestScratch.folder("nlukit-pg")
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
        let reopened = Self.serverURL! + "?" + index.location.split(separator: "?")[1]
        #expect(throws: SearchError.modelMismatch(path: try PostgresDocumentIndex(url: reopened).location.description,
                                                  index: embedder.identity, given: other.identity)) {
            try PostgresDocumentIndex(url: reopened, embedder: other)
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
                     "stone", "lamp lamp jazz of the", "garden garden violin piano jazz desk river",
                     "Café crème at the connected café", "connections connecting CAFE résumé", "!!! ---", "naïve jazz 2024 pianos"]
        let documents = try texts.enumerated().map { try IndexDocument(id: "k\($0.offset)", text: $0.element) }
        let directory = try TestScratch.folder("nlukit-pg")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try DocumentIndex.create(at: directory.appendingPathComponent("index.db"), embedder: nil)
        let postgres = try PostgresDocumentIndex.create(url: Self.url("bm25"), embedder: nil)
        for index in [sqlite, postgres] as [any SearchableIndex] {
            try index.add(documents, progress: nil)
            try index.add([try IndexDocument(id: "k2", text: "piano piano stone river")], progress: nil)
            try index.delete(ids: ["k4"])
        }
        for query in ["jazz piano", "river stone lamp", "garden violin desk", "jazz", "stone desk piano violin", "the jazz of", "the",
                      "the jazz of the river, the stone", "jazz jazz piano", "cafe", "CAFÉ connect", "resume naive piano 2024",
                      "\"jazz\" OR NEAR(piano) AND NOT -stone*", "unknownword jazz"] {
            let options = SearchOptions(k: 20, mode: .keyword)
            let a = try sqlite.search(query, embedding: nil, options: options)
            let b = try postgres.search(query, embedding: nil, options: options)
            #expect(a.map(\.documentID) == b.map(\.documentID) && a.map(\.chunk) == b.map(\.chunk), "\(query)")
            #expect(a.count == b.count && !a.isEmpty, "\(query)")
            // The same terms and the same operations in the same order: the same doubles, not merely close ones.
            for (x, y) in zip(a, b) { #expect(x.score == y.score, "\(query): \(x.documentID) \(x.score) vs \(y.score)") }
        }
        // Diacritics folded and words stemmed alike in both: "cafe" finds "Café" and "CAFE", "connect" all three forms.
        let cafe = try postgres.search("cafe", embedding: nil, options: SearchOptions(k: 5, mode: .keyword)).map(\.documentID)
        #expect(Set(cafe) == ["k7", "k8"])
        // Words absent from the index, or no word at all: no results, in both.
        for query in ["unknownword", "!!!"] {
            #expect(try sqlite.search(query, embedding: nil, options: SearchOptions(k: 5, mode: .keyword)).isEmpty)
            #expect(try postgres.search(query, embedding: nil, options: SearchOptions(k: 5, mode: .keyword)).isEmpty)
        }
    }

    /// An index written by the schema-2 code (its DDL below, as main had it, tsvector keywords) is
    /// upgraded in one transaction when opened: schema version 3, the same documents, chunks and
    /// vectors, and keyword results equal to an SQLite index's of the same documents. A newer
    /// version is refused, naming both.
    @Test func aSchemaVersion2IndexIsUpgradedWhenOpened() throws {
        let name = "t_upgrade_\(ProcessInfo.processInfo.processIdentifier)_\(UInt32.random(in: 0...UInt32.max))"
        let url = (Self.serverURL ?? "") + "?schema=\(name)"
        let texts = ["The connected routers connect through connections.", "Café crème and a résumé.", "Invoices are emailed monthly.",
                     "The router in the basement.", "Connecting invoices to routers", "naïve cafe"]
        do {
            // A plain connection through a keyword-only index in another schema, to run the old DDL.
            let helper = try PostgresDocumentIndex.create(url: Self.url("helper"), embedder: nil)
            for statement in Self.schemaVersion2Statements(schema: "\"\(name)\"") { try helper.session.query(statement) }
            for (number, text) in texts.enumerated() {
                try helper.session.query("INSERT INTO \"\(name)\".documents (id, text) VALUES ($1, $2)", [.init(string: "d\(number)"), .init(string: text)])
                try helper.session.query("""
                    INSERT INTO "\(name)".chunks (document, position, start, "end", text, vector)
                    SELECT number, 0, 0, length(text), text, '[1,\(number),2]'::vector FROM "\(name)".documents WHERE id = $1
                    """, [.init(string: "d\(number)")])
            }
        }
        let embedder = FixedVectorEmbedder()
        let upgraded = try PostgresDocumentIndex(url: url, embedder: embedder)
        #expect(upgraded.schemaVersion == 3)
        let info = try upgraded.info()
        #expect(info.schemaVersion == 3 && info.documentCount == texts.count && info.chunkCount == texts.count)
        let vectors = try upgraded.session.query("SELECT vector::text FROM \(upgraded.schema).chunks ORDER BY number").map { try $0.decode(String.self) }
        #expect(vectors == texts.indices.map { "[1,\($0),2]" })

        let directory = try TestScratch.folder("nlukit-pg")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try DocumentIndex.create(at: directory.appendingPathComponent("index.db"), embedder: nil)
        try sqlite.add(try texts.enumerated().map { try IndexDocument(id: "d\($0.offset)", text: $0.element) })
        for query in ["connecting router", "cafe resume", "invoice", "naive basement"] {
            let a = try sqlite.search(query, options: SearchOptions(k: 10, mode: .keyword))
            let b = try upgraded.search(query, options: SearchOptions(k: 10, mode: .keyword))
            #expect(!a.isEmpty && a.map(\.documentID) == b.map(\.documentID) && a.map(\.score) == b.map(\.score), "\(query)")
        }
        // Writes after the upgrade keep the totals BM25 reads.
        try upgraded.add([try IndexDocument(id: "d9", text: "routers")])
        try sqlite.add([try IndexDocument(id: "d9", text: "routers")])
        #expect(try sqlite.search("router", options: SearchOptions(k: 10, mode: .keyword)).map(\.score)
                == (try upgraded.search("router", options: SearchOptions(k: 10, mode: .keyword)).map(\.score)))
        // Opening again finds it current.
        #expect(try PostgresDocumentIndex(url: url).schemaVersion == 3)

        try upgraded.session.query("UPDATE \(upgraded.schema).index_info SET value = '4' WHERE key = 'schema_version'")
        #expect(throws: SearchError.newerSchema(path: upgraded.location, found: 4, supported: 3)) { try PostgresDocumentIndex(url: url) }
        try upgraded.session.query("UPDATE \(upgraded.schema).index_info SET value = '0' WHERE key = 'schema_version'")
        #expect(throws: SearchError.self) { try PostgresDocumentIndex(url: url) }
    }

    /// What `PostgresDocumentIndex.create` ran for a schema-2 index with 3-dimensional vectors (main at 63903ca).
    static func schemaVersion2Statements(schema: String) -> [String] {
        [
            "CREATE SCHEMA \(schema)",
            "CREATE TABLE \(schema).index_info (key text PRIMARY KEY, value text NOT NULL)",
            "CREATE TEXT SEARCH DICTIONARY \(schema).english_all_words (TEMPLATE = snowball, Language = english)",
            "CREATE TEXT SEARCH CONFIGURATION \(schema).nlukit_english (COPY = english)",
            """
            ALTER TEXT SEARCH CONFIGURATION \(schema).nlukit_english ALTER MAPPING
            FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH \(schema).english_all_words
            """,
            """
            CREATE FUNCTION \(schema).token_count(tsvector) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
            AS $$ SELECT coalesce(sum(array_length(positions, 1)), 0)::integer FROM unnest($1) $$
            """,
            """
            CREATE TABLE \(schema).documents (
                number bigserial PRIMARY KEY,
                id text NOT NULL UNIQUE,
                text text NOT NULL,
                metadata jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'))
            """,
            """
            CREATE TABLE \(schema).chunks (
                number bigserial PRIMARY KEY,
                document bigint NOT NULL REFERENCES \(schema).documents(number) ON DELETE CASCADE,
                position integer NOT NULL,
                start integer NOT NULL,
                "end" integer NOT NULL,
                text text NOT NULL,
                vector vector(3),
                keywords tsvector GENERATED ALWAYS AS (to_tsvector('\(schema).nlukit_english', text)) STORED,
                keyword_length integer GENERATED ALWAYS AS (\(schema).token_count(to_tsvector('\(schema).nlukit_english', text))) STORED,
                UNIQUE (document, position))
            """,
            "CREATE INDEX chunks_keywords ON \(schema).chunks USING gin (keywords)",
            "CREATE TABLE \(schema).keyword_totals (chunks bigint NOT NULL, tokens bigint NOT NULL)",
            "INSERT INTO \(schema).keyword_totals VALUES (0, 0)",
            """
            CREATE FUNCTION \(schema).keyword_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE \(schema).keyword_totals SET chunks = chunks + s.n, tokens = tokens + s.t
                FROM (SELECT count(*) AS n, coalesce(sum(keyword_length), 0) AS t FROM added) s;
                RETURN NULL;
            END $$
            """,
            """
            CREATE FUNCTION \(schema).keyword_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE \(schema).keyword_totals SET chunks = chunks - s.n, tokens = tokens - s.t
                FROM (SELECT count(*) AS n, coalesce(sum(keyword_length), 0) AS t FROM removed) s;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER chunks_added AFTER INSERT ON \(schema).chunks REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION \(schema).keyword_totals_added()
            """,
            """
            CREATE TRIGGER chunks_removed AFTER DELETE ON \(schema).chunks REFERENCING OLD TABLE AS removed
            FOR EACH STATEMENT EXECUTE FUNCTION \(schema).keyword_totals_removed()
            """,
            """
            INSERT INTO \(schema).index_info (key, value) VALUES ('format', 'nlukit-index'), ('schema_version', '2'),
                ('chunk_size', '100'), ('chunk_overlap', '20'), ('vector_index', 'exact'),
                ('model_name', 'fixed'), ('model_dimension', '3'), ('model_revision', '1')
            """,
        ]
    }

    /// A zero query vector ("!!!" has no term the hashing embedder knows; pgvector's cosine distance
    /// to it is NaN) has no vector results, as in the SQLite backend; hybrid keeps its keyword side.
    @Test func aZeroQueryVectorHasNoVectorHits() throws {
        let embedder = try HashingEmbedder(dimension: 64)
        let chunking = try ChunkingOptions(size: 50, overlap: 0)
        for hnsw in [false, true] {
            let index = try PostgresDocumentIndex.create(url: Self.url("zero"), embedder: embedder, chunking: chunking, hnsw: hnsw)
            try index.add(try Self.makeDocuments(), progress: nil)
            let zero = try #require(try index.embedQueries(["!!!"]).first)
            #expect(VectorMatrix.isZero(zero) && zero.count == 64)
            #expect(try index.search("!!!", embedding: nil, options: SearchOptions(k: 3, mode: .vector)).isEmpty, "hnsw \(hnsw)")
            #expect(try index.search("password", embedding: zero, options: SearchOptions(k: 3, mode: .vector)).isEmpty, "hnsw \(hnsw)")
            let keyword = try index.search("password reset", embedding: nil, options: SearchOptions(k: 3, mode: .keyword))
            let hybrid = try index.search("password reset", embedding: zero, options: SearchOptions(k: 3, mode: .hybrid))
            #expect(!keyword.isEmpty && hybrid.map(\.documentID) == keyword.map(\.documentID), "hnsw \(hnsw)")
            // A query with a term the embedder knows still has a direction ("!!!" adds nothing to it).
            let withTerm = try index.search("!!! password", embedding: nil, options: SearchOptions(k: 3, mode: .vector))
            let termOnly = try index.search("password", embedding: nil, options: SearchOptions(k: 3, mode: .vector))
            #expect(!withTerm.isEmpty && withTerm == termOnly)
        }
    }

    /// Chunk offsets damaged in the tables (start after end, past the document, negative, shifted,
    /// or a chunk text its document does not hold there) are an error naming the index, the chunk and
    /// its document in every mode, as in the SQLite backend.
    @Test func damagedChunkOffsetsAreAnErrorNamingTheChunk() throws {
        let index = try PostgresDocumentIndex.create(url: Self.url("damaged"), embedder: try HashingEmbedder(dimension: 32),
                                                     chunking: try ChunkingOptions(size: 50, overlap: 0))
        try index.add(try Self.makeDocuments(), progress: nil)
        let chunkOfDoc02 = "FROM \(index.schema).documents d WHERE d.number = c.document AND d.id = 'doc-02'"
        for (change, message) in [("start = \"end\" + 1", "has the offsets 59..<58, which are no range in a document (0 ≤ start ≤ end)"),
                                  ("start = -7", "has the offsets -7..<58, which are no range in a document (0 ≤ start ≤ end)"),
                                  ("\"end\" = 5000, start = 4990", "has the offsets 4990..<5000, beyond the end of its document (58 Unicode scalars)"),
                                  ("start = 1", "has the offsets 1..<58 (57 Unicode scalars) but a text of 58"),
                                  ("text = upper(c.text)", "has the offsets 0..<58, where its document does not hold its text")] {
            try index.session.query("UPDATE \(index.schema).chunks c SET \(change) \(chunkOfDoc02)")
            for mode in SearchMode.allCases {
                let error = #expect(throws: SearchError.self, "\(change), \(mode)") {
                    try index.search("reset your password", embedding: nil, options: SearchOptions(k: 3, mode: mode))
                }
                #expect("\(error.map { "\($0)" } ?? "")" == "\(index.location): the index is damaged: chunk 0 of \"doc-02\" \(message)", "\(mode)")
            }
            try index.session.query("UPDATE \(index.schema).chunks c SET start = 0, \"end\" = length(d.text), text = d.text \(chunkOfDoc02)")
            #expect(try index.search("reset your password", embedding: nil, options: SearchOptions(k: 1, mode: .hybrid)).first?.documentID == "doc-02")
        }
    }

    /// `withEmbedder` attaches the model to an index opened without one, on the same connection,
    /// with the same checks as opening with it.
    @Test func withEmbedderAttachesTheModelOnTheSameConnection() throws {
        let embedder = try HashingEmbedder(dimension: 32)
        let created = try PostgresDocumentIndex.create(url: Self.url("attach"), embedder: embedder)
        try created.add(try Self.makeDocuments(), progress: nil)
        let plain = try PostgresDocumentIndex(url: Self.serverURL! + "?" + created.location.split(separator: "?")[1])
        #expect(!plain.canSearchVectors)
        let index = try plain.withEmbedder(embedder)
        #expect(index.session === plain.session && index.canSearchVectors)
        #expect(try index.search("reset password", embedding: nil, options: SearchOptions(k: 3, mode: .hybrid))
                == created.search("reset password", embedding: nil, options: SearchOptions(k: 3, mode: .hybrid)))
        let other = try HashingEmbedder(dimension: 16)
        #expect(throws: SearchError.modelMismatch(path: plain.location, index: embedder.identity, given: other.identity)) {
            try plain.withEmbedder(other)
        }
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

/// The 3-dimensional model of the schema-2 index built in ``PostgresIndexTests/aSchemaVersion2IndexIsUpgradedWhenOpened()``.
struct FixedVectorEmbedder: TextEmbedder {
    let identity = EmbedderIdentity(name: "fixed", dimension: 3, revision: "1")
    func embed(_ texts: [String]) throws -> [[Float]] { texts.map { _ in [1, 1, 1] } }
}

import Foundation
import GRDB
import NLUSearch
import NLUTestSupport
import Testing

/// An embedder whose vectors are fixed by hand: the word "north" points one way, "south" another.
struct CompassEmbedder: TextEmbedder {
    var identity = EmbedderIdentity(name: "compass", dimension: 3, revision: "1")
    func embed(_ texts: [String]) throws -> [[Float]] {
        texts.map { text in
            let words = KeywordTerms.terms(text)
            return [Float(words.filter { $0 == "north" }.count), Float(words.filter { $0 == "south" }.count), 0.5]
        }
    }
}

/// Fails on the batch after the first, to show a failed add leaves no trace.
struct FailingEmbedder: TextEmbedder {
    let identity = EmbedderIdentity(name: "compass", dimension: 3, revision: "1")
    struct Failure: Error {}
    func embed(_ texts: [String]) throws -> [[Float]] {
        if texts.contains(where: { $0.contains("poison") }) { throw Failure() }
        return try CompassEmbedder().embed(texts)
    }
}

/// Where a new index file goes: in a scratch folder of its own, since SQLite writes its side files
/// (`-wal`, `-shm`, `-journal`) beside it.
func temporaryIndexURL() throws -> URL {
    try TestScratch.folder("nlu-search").appendingPathComponent("index.sqlite")
}

@Suite struct DocumentIndexTests {
    static let documents = [
        ("b-doc", "Head north to the old lighthouse; the keeper Ansgar lives there.", #"{"lang": "en", "year": 2020}"#),
        ("a-doc", "Sail south past the reef and north again at the cape.", #"{"lang": "en", "draft": true}"#),
        ("c-doc", "Le phare est au sud, près du récif.", #"{"lang": "fr"}"#),
    ]

    func makeIndex(embedder: (any TextEmbedder)? = CompassEmbedder()) throws -> (DocumentIndex, URL) {
        let url = try temporaryIndexURL()
        let index = try DocumentIndex.create(at: url, embedder: embedder, modelSource: "compass",
                                             chunking: try ChunkingOptions(size: 6, overlap: 2))
        try index.add(Self.documents.map { try IndexDocument(id: $0.0, text: $0.1, metadataJSON: $0.2) })
        return (index, url)
    }

    @Test func keywordSearchFindsTheRareNameWithOffsets() throws {
        let (index, _) = try makeIndex()
        let results = try index.search("Who is Ansgar?", options: SearchOptions(k: 3, mode: .keyword))
        #expect(results.first?.documentID == "b-doc")
        let first = try #require(results.first)
        let text = try #require(try index.documentText(id: "b-doc"))
        let scalars = Array(text.unicodeScalars)
        #expect(String(String.UnicodeScalarView(scalars[first.start..<first.end])) == first.text)
        #expect(first.text.contains("Ansgar") && first.score > 0)
        // Porter stemming: "lighthouses" finds "lighthouse"; diacritics are ignored: "recif" finds "récif".
        #expect(try index.search("lighthouses", options: SearchOptions(k: 1, mode: .keyword)).first?.documentID == "b-doc")
        #expect(try index.search("recif", options: SearchOptions(k: 1, mode: .keyword)).first?.documentID == "c-doc")
    }

    @Test func vectorSearchRanksByCosineWithTiesById() throws {
        let (index, _) = try makeIndex()
        let info = try index.info()
        #expect(info.documentCount == 3 && info.chunkCount == 8)  // 11, 11 and 8 words: 3 + 3 + 2 chunks of 6 with overlap 2
        // Every chunk with one "north" and no "south" has the vector (1, 0, 0.5): they tie, and go by id then position.
        let results = try index.search("north", options: SearchOptions(k: 6, mode: .vector))
        let expected = CompassEmbedder().embed
        let scores = try results.map { result -> Double in
            let v = try expected([result.text])[0], q: [Float] = [1, 0, 0.5]
            let dot = zip(v, q).map { Double($0 * $1) }.reduce(0, +)
            return dot / (v.map { Double($0 * $0) }.reduce(0, +).squareRoot() * 1.25.squareRoot())
        }
        for (result, score) in zip(results, scores) { #expect(abs(result.score - score) < 1e-6) }
        #expect(results.map(\.score) == results.map(\.score).sorted(by: >))
        let keys = results.map { "\($0.documentID)#\($0.chunk)" }
        #expect(keys.prefix(2) == ["a-doc#1", "b-doc#0"])
    }

    /// "!!!" has no term the hashing embedder knows: its vector is zero and its cosine with every chunk
    /// 0, so a vector ranking would be arbitrary. No vector hits; hybrid keeps its keyword side.
    @Test func aZeroQueryVectorHasNoVectorHits() throws {
        let url = try temporaryIndexURL()
        let index = try DocumentIndex.create(at: url, embedder: try HashingEmbedder(dimension: 384))
        try index.add(Self.documents.map { try IndexDocument(id: $0.0, text: $0.1, metadataJSON: $0.2) })
        #expect(try index.embedQueries(["!!!"]).first?.allSatisfy { $0 == 0 } == true)
        #expect(try index.search("!!!", options: SearchOptions(k: 3, mode: .vector)).isEmpty)
        #expect(try index.search("!!! lighthouse", options: SearchOptions(k: 1, mode: .vector)).map(\.documentID) == ["b-doc"])
        let keyword = try index.search("Ansgar", options: SearchOptions(k: 3, mode: .keyword))
        let hybrid = try index.search("Ansgar", embedding: [Float](repeating: 0, count: 384), options: SearchOptions(k: 3, mode: .hybrid))
        #expect(hybrid.map(\.documentID) == keyword.map(\.documentID))
        #expect(!keyword.isEmpty)
    }

    @Test func hybridFusesBothRankings() throws {
        let (index, _) = try makeIndex()
        let keyword = try index.search("keeper north", options: SearchOptions(k: 10, mode: .keyword))
        let vector = try index.search("keeper north", options: SearchOptions(k: 10, mode: .vector))
        func key(_ result: SearchResult) -> String { "\(result.documentID)#\(result.chunk)" }
        let rrf = try index.search("keeper north", options: SearchOptions(k: 10, mode: .hybrid, fusion: FusionOptions(function: .rrf, k: 60, keywordWeight: 1)))
        let ranks = ReciprocalRankFusion.fuse([(1, keyword.map(key)), (1, vector.map(key))], k: 60)
        #expect(rrf.map(key) == ranks.map(\.item))
        for (result, entry) in zip(rrf, ranks) { #expect(abs(result.score - entry.score) < 1e-12) }
        // Convex: the two lists' scores min-max normalised, weighted 0.65 and 0.35 by default.
        let convex = try index.search("keeper north", options: SearchOptions(k: 10, mode: .hybrid, fusion: FusionOptions(function: .convex)))
        let weights = (keyword: 0.65, vector: 0.35)
        #expect(FusionOptions(function: .convex).keywordWeight == weights.keyword && FusionOptions(function: .convex).vectorWeight == weights.vector)
        let scores = ConvexScoreFusion.fuse([(weights.keyword, keyword.map { (key($0), $0.score) }),
                                             (weights.vector, vector.map { (key($0), $0.score) })])
        #expect(convex.map(key) == scores.map(\.item))
        for (result, entry) in zip(convex, scores) { #expect(abs(result.score - entry.score) < 1e-12) }
    }

    @Test func filterKeepsOnlyMatchingMetadata() throws {
        let (index, _) = try makeIndex()
        for mode in SearchMode.allCases {
            let french = try index.search("phare sud north", options: SearchOptions(k: 10, mode: mode, filter: ["lang": "fr"]))
            #expect(!french.isEmpty && french.allSatisfy { $0.documentID == "c-doc" }, "\(mode)")
        }
        #expect(try index.search("north", options: SearchOptions(k: 10, mode: .vector, filter: ["year": "2020"])).allSatisfy { $0.documentID == "b-doc" })
        #expect(try index.search("north", options: SearchOptions(k: 10, mode: .keyword, filter: ["draft": "true"])).map(\.documentID) == ["a-doc"])
        #expect(try index.search("north", options: SearchOptions(k: 10, mode: .hybrid, filter: ["lang": "de"])).isEmpty)
    }

    @Test func reAddingAnIdReplacesItAndDeleteRemovesIt() throws {
        let (index, url) = try makeIndex()
        try index.add([try IndexDocument(id: "b-doc", text: "Only south, south now.")])
        #expect(try index.search("Ansgar", options: SearchOptions(k: 5, mode: .keyword)).isEmpty)
        #expect(try index.info().chunkCount == 6)
        #expect(try index.search("south south south", options: SearchOptions(k: 1, mode: .vector)).first?.documentID == "b-doc")
        #expect(try index.delete(ids: ["b-doc", "nope"]) == 1)
        #expect(try index.info().documentCount == 2)
        // The change is on disk: a second handle sees it.
        let reopened = try DocumentIndex(at: url, embedder: CompassEmbedder())
        #expect(try reopened.info().documentCount == 2)
        #expect(try reopened.search("south", options: SearchOptions(k: 9, mode: .vector)).allSatisfy { $0.documentID != "b-doc" })
    }

    @Test func aFailedAddLeavesTheIndexAsItWas() throws {
        let (_, url) = try makeIndex()
        let index = try DocumentIndex(at: url, embedder: FailingEmbedder())
        let before = try index.search("north", options: SearchOptions(k: 10, mode: .hybrid))
        let batch = try (0..<40).map { try IndexDocument(id: "n\($0)", text: $0 == 39 ? "poison north" : "north \($0)") }
        #expect(throws: FailingEmbedder.Failure.self) { try index.add(batch) }
        #expect(try index.info().documentCount == 3)
        #expect(try index.search("north", options: SearchOptions(k: 10, mode: .hybrid)) == before)
    }

    @Test func badDocumentsAreRefusedNamingTheId() throws {
        let (index, _) = try makeIndex()
        let duplicate = #expect(throws: SearchError.self) {
            try index.add([try IndexDocument(id: "x", text: "one"), try IndexDocument(id: "x", text: "two")])
        }
        #expect("\(duplicate!)".contains("\"x\"") && "\(duplicate!)".contains("twice"))
        let empty = #expect(throws: SearchError.self) { try index.add([try IndexDocument(id: "y", text: " \n ")]) }
        #expect("\(empty!)".contains("\"y\"") && "\(empty!)".contains("empty"))
        #expect(throws: SearchError.self) { try IndexDocument(id: "z", text: "t", metadataJSON: "[1]") }
        #expect(try index.info().documentCount == 3)
    }

    @Test func outOfRangeKAndEmptyQueriesAreRefused() throws {
        let (index, _) = try makeIndex()
        for k in [0, -1, SearchOptions.maximumK + 1] {
            let error = #expect(throws: SearchError.self) { try index.search("north", options: SearchOptions(k: k)) }
            #expect("\(error!)".contains("k must be in 1...10000, got \(k)"))
        }
        #expect(throws: SearchError.self) { try index.search("  ", options: SearchOptions(k: 3)) }
        // A query of punctuation only has no keyword terms: no keyword results, not an error.
        #expect(try index.search("?!", options: SearchOptions(k: 3, mode: .keyword)).isEmpty)
    }

    @Test func anotherModelIsRefused() throws {
        let (_, url) = try makeIndex()
        let other = CompassEmbedder(identity: EmbedderIdentity(name: "compass", dimension: 3, revision: "2"))
        let error = #expect(throws: SearchError.self) { try DocumentIndex(at: url, embedder: other) }
        #expect("\(error!)".contains("revision 1") && "\(error!)".contains("revision 2"))
        #expect("\(error!)".hasPrefix(url.path + ": "), "the message names the index file: \(error!)")
        // Without an embedder, keyword search works and vector search says what it needs.
        let keywordOnly = try DocumentIndex(at: url)
        #expect(try !keywordOnly.search("north", options: SearchOptions(k: 1, mode: .keyword)).isEmpty)
        let needs = #expect(throws: SearchError.self) { try keywordOnly.search("north", options: SearchOptions(k: 1, mode: .vector)) }
        #expect("\(needs!)".contains("compass"))
    }

    @Test func filesThatAreNotIndexesAreRefused() throws {
        let url = try temporaryIndexURL()
        let missing = #expect(throws: SearchError.self) { try DocumentIndex(at: url) }
        #expect("\(missing!)".contains("no such file"))
        try Data("hello, not a database, but long enough to look like a header........".utf8).write(to: url)
        let text = #expect(throws: SearchError.self) { try DocumentIndex(at: url) }
        #expect("\(text!)".contains("not an SQLite file"))
        // `create` never replaces a file.
        #expect(throws: SearchError.alreadyExists(path: url.path)) { try DocumentIndex.create(at: url, embedder: nil) }
        #expect(try String(contentsOf: url, encoding: .utf8).hasPrefix("hello"))

        let other = try temporaryIndexURL()
        try DatabaseQueue(path: other.path).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        let plain = #expect(throws: SearchError.self) { try DocumentIndex(at: other) }
        #expect("\(plain!)".contains("index_info"))
    }

    /// A value of the wrong type where a number belongs (an index edited by hand, or damaged) is an
    /// error naming the file in every search mode, not a trap in the row decoder (the fuzz harness
    /// found `row[i]` aborting on a NULL chunk number).
    @Test func aWrongTypeInTheFileIsAnErrorNotATrap() throws {
        let (_, url) = try makeIndex()
        try DatabaseQueue(path: url.path).write { db in try db.execute(sql: "UPDATE chunks SET position = 'p' || position, start = 'x'") }
        let index = try DocumentIndex(at: url, embedder: CompassEmbedder())
        for mode in [SearchMode.keyword, .vector, .hybrid] {
            let error = #expect(throws: SearchError.self, "\(mode)") { try index.search("north", options: SearchOptions(k: 2, mode: mode)) }
            #expect("\(error.map { "\($0)" } ?? "")".hasPrefix(url.path), "\(mode): \(String(describing: error))")
        }
    }

    @Test func aNewerSchemaIsRefusedWithItsVersion() throws {
        let (_, url) = try makeIndex()
        try DatabaseQueue(path: url.path).writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 7") }
        let error = #expect(throws: SearchError.self) { try DocumentIndex(at: url) }
        #expect(error == .newerSchema(path: url.path, found: 7, supported: 2))
        #expect("\(error!)".contains("upgrade NLUKit"))
    }

    @Test func theFileIsInWALMode() throws {
        let (_, url) = try makeIndex()
        let mode = try DatabaseQueue(path: url.path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    /// A WAL index's readers need its -shm file, which SQLite cannot create on a read-only folder or
    /// mount (an index shipped in a container image): search and info failed with "SQLite error 14".
    /// A -shm path that cannot be opened (a dangling symbolic link, which SQLite does not follow)
    /// stands in for the read-only mount, which a test running as root cannot make.
    @Test func aReadingHandleOpensAnIndexWhoseFolderCannotBeWritten() throws {
        let url = try { () throws -> URL in try makeIndex().1 }()
        try FileManager.default.createSymbolicLink(atPath: url.path + "-shm", withDestinationPath: "/nonexistent/nlukit-shm")
        let reader = try DocumentIndex(at: url, embedder: CompassEmbedder(), readOnly: true)
        #expect(try reader.search("Who is Ansgar?", options: SearchOptions(k: 1, mode: .keyword)).first?.documentID == "b-doc")
        #expect(try reader.info().documentCount == 3)
        // A writing handle cannot work there, and says so.
        #expect(throws: SearchError.self) { _ = try DocumentIndex(at: url, embedder: CompassEmbedder()) }
    }

    /// Reading handles do not leave -wal and -shm files behind (an SQLITE_OPEN_READONLY connection would).
    @Test func aReadingHandleLeavesNoFilesBeside() throws {
        let url = try { () throws -> URL in try makeIndex().1 }()
        do {
            let reader = try DocumentIndex(at: url, readOnly: true)
            #expect(try reader.search("lighthouse", options: SearchOptions(k: 1, mode: .keyword)).count == 1)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(names == ["index.sqlite"])
    }

    @Test func keywordOnlyIndexWorksWithoutAModel() throws {
        let index = try DocumentIndex(inMemoryWith: nil)
        try index.add([try IndexDocument(id: "1", text: "alpha beta"), try IndexDocument(id: "2", text: "gamma")])
        #expect(try index.search("gamma", options: SearchOptions(k: 2, mode: .keyword)).map(\.documentID) == ["2"])
        #expect(throws: SearchError.self) { try index.search("gamma", options: SearchOptions(k: 2, mode: .hybrid)) }
    }
}

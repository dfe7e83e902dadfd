import Foundation
@testable import NLUSearch
import Testing

/// A query's keyword side: each distinct term once (FTS5's cost grew with the square of a query's
/// repeats: 4,000 words took 31 s), within a length and a term limit that name themselves.
@Suite struct KeywordQueryTests {
    static let documents = [
        "The storm reached the harbour before the lighthouse keeper lit the lamps.",
        "Storms connect the northern harbours; keepers of lighthouses watch them.",
        "Café owners in Zürich serve coffee until midnight.",
        "The storm, the storm, the storm again: nothing but storms this winter.",
    ]

    static func makeIndex() throws -> DocumentIndex {
        let index = try DocumentIndex(inMemoryWith: nil)
        try index.add(documents.enumerated().map { try IndexDocument(id: "d\($0.offset)", text: $0.element) })
        return index
    }

    @Test func aRepeatedTermIsKeptOnceInTheOrderFirstWritten() throws {
        #expect(try KeywordQuery("Storms, the storm; STORM harbour the harbours").terms == ["storm", "the", "harbour"])
        // The FTS5 expression has one phrase per distinct term, however often the query repeats them:
        // the work a row costs no longer grows with the query's length.
        let repeated = try KeywordQuery(Array(repeating: "storm harbour", count: 250).joined(separator: " "))
        let match = try #require(try DocumentIndex.ftsQuery(repeated))
        #expect(match == #""storm" OR "harbour""#)
        #expect(match.components(separatedBy: " OR ").count == 2)
        // A version 1 file looks up the plain terms, each once too.
        let plain = try #require(try DocumentIndex.ftsQuery(try KeywordQuery("Storms storms STORMS harbour"), schemaVersion: 1))
        #expect(plain == #""storms" OR "harbour""#)
    }

    /// The same chunks, order and scores (`==`) for a query that repeats its words 250 times as for
    /// the words once: before, each repeat was another OR-ed phrase, which FTS5 scored again.
    @Test func aQueryOfManyRepeatsFindsWhatItsDistinctTermsFind() throws {
        let index = try Self.makeIndex()
        let options = SearchOptions(k: 10, mode: .keyword)
        let once = try index.search("storm harbour", options: options)
        let repeated = try index.search(Array(repeating: "storm harbour", count: 250).joined(separator: " "), options: options)
        #expect(once.count == 3)
        #expect(repeated.map(\.documentID) == once.map(\.documentID))
        #expect(repeated.map(\.score) == once.map(\.score))
        // One document's passages are ranked by the same rule.
        #expect(BM25.scores(query: "storm storm storm harbour", documents: Self.documents)
                == BM25.scores(query: "storm harbour", documents: Self.documents))
    }

    @Test func aQueryLongerThanTheLimitIsRefusedWithItsLength() throws {
        let index = try Self.makeIndex()
        let longest = String(repeating: "storm ", count: KeywordQuery.maximumBytes / 6) + String(repeating: "x", count: KeywordQuery.maximumBytes % 6)
        #expect(longest.utf8.count == KeywordQuery.maximumBytes)
        #expect(try index.search(longest, options: SearchOptions(k: 1, mode: .keyword)).count == 1)
        let tooLong = longest + "é"
        for mode in SearchMode.allCases {
            let error = #expect(throws: SearchError.self, "\(mode)") {
                try index.search(tooLong, embedding: [1], options: SearchOptions(k: 1, mode: mode))
            }
            #expect(error == .invalidArgument("the query is 4098 bytes long (UTF-8); a query is at most 4096 bytes"), "\(mode)")
        }
    }

    @Test func aQueryWithTooManyDistinctTermsIsRefusedWithItsCount() throws {
        let index = try Self.makeIndex()
        let terms = (0..<KeywordQuery.maximumTerms).map { "w\($0)" }
        #expect(try KeywordQuery(terms.joined(separator: " ")).terms.count == KeywordQuery.maximumTerms)
        // Repeats do not count: the same 256 terms twice are still 256.
        #expect(try index.search((terms + terms).joined(separator: " "), options: SearchOptions(k: 1, mode: .keyword)).isEmpty)
        let tooMany = (terms + ["storm"]).joined(separator: " ")
        for mode in [SearchMode.keyword, .hybrid] {
            let error = #expect(throws: SearchError.self, "\(mode)") { try index.search(tooMany, options: SearchOptions(k: 1, mode: mode)) }
            #expect(error == .invalidArgument("the query has 257 distinct terms; a keyword or hybrid search takes at most 256"), "\(mode)")
        }
    }
}

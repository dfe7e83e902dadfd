import Foundation
import NLUSearch
@testable import NLUSearchPostgres
import NLUTestSupport
import Testing

/// The PostgreSQL backend takes a query's distinct terms once and holds queries to the same limits
/// as the file (``KeywordQuery``): it joined every chunk's matches to every repeat of a term.
@Suite(.serialized, .enabled(if: postgresTestServerURL != nil,
                             "NLUKIT_TEST_POSTGRES_URL is not set: no PostgreSQL server with pgvector to test against (scripts/postgres-test-server.sh starts one)"))
struct PostgresKeywordQueryTests {
    @Test func aQueryOfManyRepeatsFindsWhatItsDistinctTermsFindOnBothBackends() throws {
        let directory = try TestScratch.folder("nlukit-pg-repeats")
        defer { try? FileManager.default.removeItem(at: directory) }
        let postgres = try PostgresDocumentIndex.create(url: PostgresIndexTests.url("repeats"), embedder: nil)
        let sqlite = try DocumentIndex.create(at: directory.appendingPathComponent("index.db"), embedder: nil)
        for index in [postgres, sqlite] as [any SearchableIndex] { try index.add(try PostgresIndexTests.makeDocuments(), progress: nil) }
        let options = SearchOptions(k: 10, mode: .keyword)
        let once = try postgres.search("invoice business days", options: options)
        #expect(once.count >= 3)
        let repeated = try postgres.search(Array(repeating: "invoices business day", count: 150).joined(separator: " "), options: options)
        #expect(repeated == once)
        #expect(try sqlite.search("invoice business days", embedding: nil, options: options) == once)
    }

    @Test func aQueryOverTheLimitsIsRefusedNamingThem() throws {
        let postgres = try PostgresDocumentIndex.create(url: PostgresIndexTests.url("limits"), embedder: nil)
        let tooLong = String(repeating: "invoice ", count: 600)
        let long = #expect(throws: SearchError.self) { try postgres.search(tooLong, options: SearchOptions(k: 1, mode: .keyword)) }
        #expect(long == .invalidArgument("the query is 4800 bytes long (UTF-8); a query is at most 4096 bytes"))
        let tooMany = (0...KeywordQuery.maximumTerms).map { "w\($0)" }.joined(separator: " ")
        let many = #expect(throws: SearchError.self) { try postgres.search(tooMany, options: SearchOptions(k: 1, mode: .keyword)) }
        #expect(many == .invalidArgument("the query has 257 distinct terms; a keyword or hybrid search takes at most 256"))
    }
}

import Foundation
import NLUTestSupport
import Testing

/// The server scripts/test.sh starts for the PostgreSQL backend (scripts/postgres-test-server.sh).
private let postgresURL = ProcessInfo.processInfo.environment["NLUKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

/// `nlu index create|add|info|search|delete` against PostgreSQL with pgvector, end to end: the
/// same commands as for a file, a postgres:// URL where the path goes.
@Suite(.enabled(if: postgresURL != nil,
                "NLUKIT_TEST_POSTGRES_URL is not set: no PostgreSQL server with pgvector to test against (scripts/postgres-test-server.sh starts one)"))
struct IndexPostgresCommandTests {
    @Test func createAddInfoSearchDeleteThroughAPostgresURL() throws {
        let directory = try TestScratch.folder("nlu-index-pg")
        defer { try? FileManager.default.removeItem(at: directory) }
        let documents = directory.appendingPathComponent("docs.jsonl")
        try Data(IndexCommandTests.documents.utf8).write(to: documents)
        let url = (postgresURL ?? "") + "?schema=cli_\(ProcessInfo.processInfo.processIdentifier)_\(UInt32.random(in: 0...UInt32.max))"

        let create = try runNLU(["index", "create", url, "--model", "hashing", "--chunk-size", "8", "--overlap", "2"])
        #expect(create.status == 0, "\(create.stderr)")
        #expect(create.stdout.contains("model hashing (dimension 384, revision 1), chunks of 8 words overlapping by 2"))
        let again = try runNLU(["index", "create", url, "--model", "hashing"])
        #expect(again.status == 1 && again.stderr.contains("already holds an index"))

        let add = try runNLU(["index", "add", url, documents.path])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("added 3 documents"))
        let info = try runNLU(["index", "info", url, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        // 9, 10 and 9 words in chunks of 8 overlapping by 2: 2 chunks each.
        #expect(object?["documents"] as? Int == 3 && object?["chunks"] as? Int == 6, "\(info.stdout) \(info.stderr)")
        #expect(object?["schemaVersion"] as? Int == 3, "\(info.stdout)")
        let text = try runNLU(["index", "info", url])
        #expect(text.status == 0 && text.stdout.contains("(schema version 3)"), "\(text.stdout) \(text.stderr)")

        for (mode, fusion) in [("keyword", "convex"), ("vector", "convex"), ("hybrid", "convex"), ("hybrid", "rrf")] {
            let search = try runNLU(["index", "search", url, "--mode", mode, "--fusion", fusion, "--k", "2", "--json"],
                                    input: "reset password settings\ninvoices each month\n")
            #expect(search.status == 0, "\(mode) \(search.stderr)")
            let lines = search.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let best = lines.map { (($0?["results"] as? [[String: Any]])?.first?["document"] as? String) }
            #expect(best == ["faq-1", "faq-2"], "\(mode) \(fusion): \(search.stdout)")
        }
        let filtered = try runNLU(["index", "search", url, "mot de passe password", "--filter", "lang=fr"])
        #expect(filtered.status == 0 && filtered.stdout.contains("faq-3 [0..<") && !filtered.stdout.contains("faq-1"), "\(filtered.stdout)")

        let delete = try runNLU(["index", "delete", url, "faq-2", "nope"])
        #expect(delete.status == 0 && delete.stdout.contains("deleted 1 document from"))
        let after = try runNLU(["index", "search", url, "invoices", "--mode", "keyword"])
        #expect(after.status == 0 && after.stdout.contains("(no results)"), "\(after.stdout)")
    }
}

/// A server that cannot be reached (no server needed for this).
@Suite struct IndexPostgresConnectionCommandTests {
    @Test func aServerThatCannotBeReachedIsNamedOnTheCommandLine() throws {
        // Port 1 on loopback: nothing listens there.
        let run = try runNLU(["index", "info", "postgres://postgres@127.0.0.1:1/postgres"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot connect to PostgreSQL at 127.0.0.1:1"), "\(run.stderr)")
    }
}

import Foundation
import NLUTestSupport
import Testing

/// `nlu index` on a schema-1 file written by the previous code (Tests/Fixtures/search-index-v1):
/// searched as before, upgraded by the first `add` in that add's transaction, and a child killed with
/// SIGKILL inside that transaction (the chunks already re-analysed, nothing committed) leaves the
/// schema-1 file as it was.
@Suite struct IndexUpgradeCommandTests {
    @Test func aKilledUpgradeLeavesTheSchema1IndexAndTheNextAddUpgradesIt() throws {
        let directory = try TestScratch.folder("nlu-index-upgrade")
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("old.db").path
        try FileManager.default.copyItem(atPath: fixturesDirectory.appendingPathComponent("search-index-v1/index-v1.db").path, toPath: db)
        let query = ["index", "search", db, "connecting routers password cafe", "--mode", "keyword", "--json", "--k", "10"]
        let before = try runNLU(query)
        #expect(before.status == 0 && before.stdout.contains(#""document":"note-4""#), "\(before.stdout) \(before.stderr)")
        #expect(try runNLU(["index", "info", db]).stdout.contains("(schema version 1)"))

        let lines = (0..<3000).map { #"{"id": "bulk-\#($0)", "text": "bulk document \#($0) about routers, invoices and passwords"}"# }
        let bulk = directory.appendingPathComponent("bulk.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: bulk)
        // The upgrade runs first in the add's transaction; kill once the add has started writing after it.
        let (reason, seen) = try runNLUKilled(["index", "add", db, bulk.path], once: "writing documents: 0/")
        #expect(reason == .uncaughtSignal, "the add finished before it was killed: \(seen)")
        #expect(seen.contains("upgrading the index's keywords (schema version 2): 0/9"), "\(seen)")

        let info = try runNLU(["index", "info", db, "--json"])
        #expect(info.stdout.contains("\"schemaVersion\":1") && info.stdout.contains("\"documents\":4"), "\(info.stdout) \(info.stderr)")
        #expect(try runNLU(query).stdout == before.stdout)

        let retry = try runNLU(["index", "add", db, bulk.path])
        #expect(retry.status == 0 && retry.stdout.contains("holds 3004 documents"), "\(retry.stderr)")
        let upgraded = try runNLU(["index", "info", db, "--json"])
        #expect(upgraded.stdout.contains("\"schemaVersion\":2"), "\(upgraded.stdout)")
        // Folded and stemmed now: "cafe" finds "Café".
        let cafe = try runNLU(["index", "search", db, "cafe", "--mode", "keyword", "--json"])
        #expect(cafe.stdout.contains(#""document":"faq-3""#), "\(cafe.stdout)")
    }
}

import Foundation
import NLUTestSupport
import Testing

private let parityServerURL = ProcessInfo.processInfo.environment["NLUKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

/// Both backends through the CLI: the same JSONL given to `nlu index create` + `nlu index add` for a
/// file and for the PostgreSQL server of scripts/postgres-test-server.sh, then `nlu index search --json`
/// in every mode: the same documents, chunks, offsets and order; keyword scores identical to the last
/// bit (one analysis, FTS5's BM25 computed operation for operation), vector and hybrid scores within
/// 1e-6 (cosines: F32 vectors, the server's candidates re-scored in double precision).
@Suite(.enabled(if: parityServerURL != nil,
                "NLUKIT_TEST_POSTGRES_URL is not set: no PostgreSQL server with pgvector to test against (scripts/postgres-test-server.sh starts one)"))
struct IndexParityCommandTests {
    static let documents = [
        "To reset your password, open Settings and choose Security, then follow the link we email you.",
        "Invoices are emailed on the first business day of each month to the billing contact.",
        "Pour changer le mot de passe, ouvrez les paramètres et choisissez Sécurité.",
        "The router lives in the basement closet; restart it when the connection drops.",
        "Refunds are processed within five business days of the request being approved.",
        "Our office in Zürich is open from nine to five on weekdays, café on the ground floor.",
        "Two-factor authentication protects your account with a second code sent by text message.",
        "Shipping to Canada takes between seven and ten business days; shipping to Mexico twelve.",
        "You can export your data as CSV or JSON from the account page at any time.",
        "Connecting a second router: connect the cable, then the connected router shows a green light.",
        "The mobile app supports offline reading of saved articles and syncs them when connected.",
        "Passwords must be at least twelve characters; passphrases of several words are easier to remember.",
        "Billing questions go to the billing team; technical questions to support.",
        "Invoice invoice invoice: the word repeated, to see term frequency saturate.",
        "A naïve résumé of the café's crème brûlée recipe, for the 2024 cookbook.",
        "Delete your account from Settings, Privacy; deletion takes thirty days to complete.",
    ]

    static let queries = [
        "reset password", "invoices each month", "router connection", "cafe creme", "connecting routers",
        "business days refund shipping", "invoice invoice", "2024 cookbook resume", "mot de passe",
        "how do I get my money back", "security settings account deletion", "zurich office hours",
    ]

    @Test func keywordVectorAndHybridResultsAreTheSameOnSQLiteAndPostgreSQL() throws {
        let directory = try TestScratch.folder("nlu-index-parity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let jsonl = try Self.documents.enumerated().map { number, text -> String in
            let object: [String: Any] = ["id": "doc-\(number)", "text": text, "metadata": ["team": number % 2 == 0 ? "billing" : "support"]]
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }.joined(separator: "\n")
        let documents = directory.appendingPathComponent("docs.jsonl")
        try Data(jsonl.utf8).write(to: documents)
        let file = directory.appendingPathComponent("parity.db").path
        let server = (parityServerURL ?? "") + "?schema=parity_\(ProcessInfo.processInfo.processIdentifier)_\(UInt32.random(in: 0...UInt32.max))"
        for location in [file, server] {
            let create = try runNLU(["index", "create", location, "--model", "hashing", "--chunk-size", "8", "--overlap", "2"])
            #expect(create.status == 0, "\(create.stderr)")
            let add = try runNLU(["index", "add", location, documents.path])
            #expect(add.status == 0 && add.stdout.contains("added 16 documents"), "\(add.stderr)")
        }
        let input = Self.queries.joined(separator: "\n") + "\n"
        var compared = 0
        for (mode, fusion, filter) in [("keyword", "rrf", nil), ("vector", "rrf", nil), ("hybrid", "rrf", nil), ("hybrid", "convex", nil),
                                       ("keyword", "rrf", "team=billing"), ("hybrid", "rrf", "team=support")] as [(String, String, String?)] {
            var arguments = ["--mode", mode, "--fusion", fusion, "--k", "8", "--json"]
            if let filter { arguments += ["--filter", filter] }
            let a = try runNLU(["index", "search", file] + arguments, input: input)
            let b = try runNLU(["index", "search", server] + arguments, input: input)
            #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
            let linesA = a.stdout.split(separator: "\n"), linesB = b.stdout.split(separator: "\n")
            #expect(linesA.count == Self.queries.count && linesB.count == Self.queries.count)
            for (lineA, lineB) in zip(linesA, linesB) {
                let resultsA = try Self.results(lineA), resultsB = try Self.results(lineB)
                let label = "\(mode) \(fusion) \(filter ?? ""): \(lineA.prefix(60))"
                #expect(resultsA.map(\.key) == resultsB.map(\.key), "\(label)\n\(lineA)\n\(lineB)")
                for (x, y) in zip(resultsA, resultsB) {
                    if mode == "keyword" {
                        #expect(x.score == y.score, "\(label): \(x.key) \(x.score) vs \(y.score)")
                    } else {
                        #expect(abs(x.score - y.score) <= 1e-6, "\(label): \(x.key) \(x.score) vs \(y.score)")
                    }
                }
                compared += resultsA.count
            }
        }
        // Every mode found something for most queries (not a comparison of empty lists).
        #expect(compared > 300, "\(compared) results compared")
    }

    /// Each result's document, chunk, offsets and text as one key, and its score.
    static func results(_ line: Substring) throws -> [(key: String, score: Double)] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (object?["results"] as? [[String: Any]] ?? []).map { result in
            let key = "\(result["document"] ?? "") #\(result["chunk"] ?? "") \(result["start"] ?? "")-\(result["end"] ?? "") \(result["text"] ?? "")"
            return (key, (result["score"] as? NSNumber)?.doubleValue ?? .nan)
        }
    }
}

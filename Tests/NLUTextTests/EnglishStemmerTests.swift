import Foundation
import Testing
import NLUText

/// EnglishStemmer against the `snowballstemmer` package (scripts/fixtures/stemmer.py).
@Suite struct EnglishStemmerTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/stemmer/english.tsv")

    @Test func agreesWithSnowballOnEveryGeneratedWord() throws {
        let text = try String(contentsOf: Self.fixture, encoding: .utf8)
        let stemmer = EnglishStemmer()
        var checked = 0
        var differences: [String] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            checked += 1
            let stem = stemmer.stem(String(parts[0]))
            if stem != parts[1] { differences.append("\(parts[0]): \(stem) ≠ \(parts[1])") }
        }
        #expect(checked > 40_000)
        // Exact agreement: zero differences tolerated.
        #expect(differences.isEmpty, "\(differences.count) differences, e.g. \(differences.prefix(20))")
    }

    @Test func knownStems() {
        let stemmer = EnglishStemmer()
        #expect(["connection", "connected", "connecting", "connections"].map(stemmer.stem) == ["connect", "connect", "connect", "connect"])
        #expect(stemmer.stem("generously") == "generous")
        #expect(stemmer.stem("skies") == "sky")
        #expect(stemmer.stem("dying") == "die")
        #expect(stemmer.stem("at") == "at")
    }
}

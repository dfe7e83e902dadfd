import Foundation
import NLUSearch
import Testing

@Suite struct ChunkerTests {
    @Test func chunksOverlapByWholeWordsWithScalarOffsets() throws {
        let text = "  café one\ttwo  three four\nfive "
        let chunks = Chunker(options: try ChunkingOptions(size: 3, overlap: 1)).chunks(of: text)
        // Words (scalar ranges): café 2..<6, one 7..<10, two 11..<14, three 16..<21, four 22..<26, five 27..<31.
        #expect(chunks.map(\.text) == ["café one\ttwo", "two  three four", "four\nfive"])
        #expect(chunks.map(\.start) == [2, 11, 22])
        #expect(chunks.map(\.end) == [14, 26, 31])
        #expect(chunks.map(\.position) == [0, 1, 2])
        let scalars = Array(text.unicodeScalars)
        for chunk in chunks {
            #expect(String(String.UnicodeScalarView(scalars[chunk.start..<chunk.end])) == chunk.text)
        }
    }

    @Test func shortTextIsOneChunkAndBlankTextNone() throws {
        let chunker = Chunker(options: try ChunkingOptions(size: 10, overlap: 2))
        #expect(chunker.chunks(of: "just a few words").map(\.text) == ["just a few words"])
        #expect(chunker.chunks(of: " \n\t ").isEmpty)
        // Exactly size + step words: two chunks, the second ending at the last word.
        func numbers(_ range: ClosedRange<Int>) -> String { range.map { String($0) }.joined(separator: " ") }
        let chunks = chunker.chunks(of: numbers(1...18))
        let expected: [String] = [numbers(1...10), numbers(9...18)]
        #expect(chunks.map(\.text) == expected)
    }

    @Test func chunkingOptionsOutOfRangeAreRefused() {
        #expect(throws: SearchError.self) { try ChunkingOptions(size: 0, overlap: 0) }
        #expect(throws: SearchError.self) { try ChunkingOptions(size: 4, overlap: 4) }
        #expect(throws: SearchError.self) { try ChunkingOptions(size: 4, overlap: -1) }
        #expect(throws: SearchError.self) { try ChunkingOptions(size: 1_000_000, overlap: 0) }
    }
}

@Suite struct FusionTests {
    @Test func reciprocalRankFusionMatchesHandComputedScores() {
        let fused = ReciprocalRankFusion.fuse([(1, ["a", "b", "c"]), (2, ["c", "d"])], k: 60)
        // a: 1/61; b: 1/62; c: 1/63 + 2/61; d: 2/62.
        let expected: [String: Double] = ["a": 1.0 / 61, "b": 1.0 / 62, "c": 1.0 / 63 + 2.0 / 61, "d": 2.0 / 62]
        #expect(fused.map(\.item) == ["c", "d", "a", "b"])
        for entry in fused { #expect(abs(entry.score - expected[entry.item]!) < 1e-15) }
    }

    @Test func convexFusionMatchesHandComputedScores() {
        // Keyword scores 12, 3, 2 normalise to 1, 0.1, 0; vector 0.9, 0.5, 0.7 to 1, 0, 0.5.
        let fused = ConvexScoreFusion.fuse([(0.7, [("a", 12), ("b", 3), ("c", 2)]), (0.3, [("b", 0.9), ("d", 0.5), ("c", 0.7)])])
        let expected: [String: Double] = ["a": 0.7, "b": 0.7 * 0.1 + 0.3, "c": 0.3 * 0.5, "d": 0]
        #expect(fused.map(\.item) == ["a", "b", "c", "d"])
        for entry in fused { #expect(abs(entry.score - expected[entry.item]!) < 1e-12, "\(entry.item)") }
    }

    @Test func convexFusionGivesAListOfEqualScoresFullCreditAndSkipsWeightZero() {
        // One keyword hit (max = min) normalises to 1; a ranking of weight 0 adds no items.
        let fused = ConvexScoreFusion.fuse([(0.6, [("x", 4.2)]), (0, [("y", 0.99)]), (0.4, [("z", 0.3), ("x", 0.1)])])
        #expect(fused.map(\.item) == ["x", "z"])
        #expect(abs(fused[0].score - 0.6) < 1e-12 && abs(fused[1].score - 0.4) < 1e-12)
    }

    @Test func equalFusedScoresGoToTheSmallerItem() {
        let fused = ReciprocalRankFusion.fuse([(1, ["y", "x"]), (1, ["x", "y"])], k: 60)
        #expect(fused.map(\.item) == ["x", "y"])
    }
}

@Suite struct KeywordTests {
    @Test func termsAreLowerCasedRunsOfLettersAndDigits() {
        #expect(KeywordTerms.terms("Café au LAIT, 2 cups! Éclair") == ["café", "au", "lait", "2", "cups", "éclair"])
        var ranges: [Range<Int>] = []
        KeywordTerms.forEachTerm(in: "é-Ab 12") { _, range in ranges.append(range) }
        #expect(ranges == [0..<1, 2..<4, 5..<7])
    }

    @Test func bm25MatchesHandComputedScore() {
        let documents = ["The fox jumped over the dog.", "Paris is the capital of France.", "The dog slept all day."]
        let scores = BM25.scores(query: "What is the capital of France?", documents: documents)
        #expect(scores[1] > scores[0] && scores[1] > scores[2])
        // N = 3. "capital", "franc" (stemmed), "is", "of" each in 1 document: idf = ln(2.5 / 1.5); "the"
        // in all 3: ln(0.5 / 3.5) < 0, so 1e-6; "what" in none: ln(3.5 / 0.5), but no document holds it.
        // Document 1 has 6 terms, the average is 17/3; each of its five query terms occurs once.
        let idfRare = log(2.5 / 1.5)
        let part = 2.2 / (1 + 1.2 * (1 - 0.75 + 0.75 * 6 / (17.0 / 3)))
        #expect(abs(scores[1] - (4 * idfRare + 1e-6) * part) < 1e-12)
        #expect(scores[0] > 0 && scores[0] < 1e-5, "only 'the', whose idf is floored at 1e-6")
        #expect(BM25.top(1, query: "capital of France", documents: documents) == [1])
    }

    /// One document's passages are ranked as an index ranks its chunks: the same terms and the same
    /// doubles as SQLite FTS5's bm25() (each text one chunk of a keyword-only index), exactly.
    @Test func bm25GivesTheIndexsKeywordScoresExactly() throws {
        let documents = [
            "The lighthouse keeper connected the lamps before the storm reached the harbour.",
            "Storms connect the northern harbours; keepers of lighthouses watch them.",
            "Café owners in Zürich serve crème brûlée and coffee until midnight.",
            "A cafe in Zurich: coffee, cream, and a keeper of old recipes.",
            "The storm, the storm, the storm again: nothing but storms this winter.",
            "Numbers too: 2024 was a year of 365 days, and 2025 another.",
            "Nothing here mentions any of the query words at all.",
        ]
        let url = try temporaryIndexURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let index = try DocumentIndex.create(at: url, embedder: nil, chunking: try ChunkingOptions(size: 1000, overlap: 0))
        try index.add(documents.enumerated().map { try IndexDocument(id: "d\($0.offset)", text: $0.element) })
        for query in ["storm keeper", "the storms", "cafe Zurich creme", "Café connecting keepers lighthouse",
                      "2024 days", "storm storm harbour", "unknownword"] {
            let scores = BM25.scores(query: query, documents: documents)
            let results = try index.search(query, options: SearchOptions(k: 100, mode: .keyword))
            #expect(results.count == scores.filter { $0 > 0 }.count, "\(query)")
            for result in results {
                let position = try #require(Int(result.documentID.dropFirst()))
                #expect(result.score == scores[position], "\(query): \(result.documentID)")
            }
        }
    }
}

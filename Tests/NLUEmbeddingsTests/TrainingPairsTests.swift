import Foundation
import NLUTestSupport
import Testing
@testable import NLUEmbeddings

/// The JSON Lines files `embed train` reads: the two shapes of sentence-transformers' losses, and every
/// broken line named by its number and field.
@Suite struct TrainingPairsTests {
    func parse(_ text: String) throws -> TrainingPairs {
        try TrainingPairs.parse(Data(text.utf8), file: "pairs.jsonl")
    }

    func error(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func contrastiveExamplesWithAndWithoutAHardNegative() throws {
        let pairs = try parse("""
            {"anchor": "how do I reset it", "positive": "Resetting the router", "negative": "Router colours"}

            {"positive": "Opening hours", "anchor": "when are you open"}\r
            """)
        #expect(pairs == .contrastive([
            .init(anchor: "how do I reset it", positive: "Resetting the router", negative: "Router colours"),
            .init(anchor: "when are you open", positive: "Opening hours"),
        ]))
        #expect(pairs.count == 2)
    }

    @Test func scoredPairsTakeScoreOrLabel() throws {
        let pairs = try parse("""
            {"sentence1": "a cat sits", "sentence2": "a cat is sitting", "score": 0.9}
            {"sentence1": "a cat sits", "sentence2": "stock prices fell", "label": -0.25}
            {"sentence1": "x", "sentence2": "y", "score": 1}
            """)
        #expect(pairs == .scored([.init(first: "a cat sits", second: "a cat is sitting", score: 0.9),
                                  .init(first: "a cat sits", second: "stock prices fell", score: -0.25),
                                  .init(first: "x", second: "y", score: 1)]))
    }

    @Test func brokenLinesAreNamedByNumberAndField() {
        let first = #"{"anchor": "a", "positive": "b"}"# + "\n"
        #expect(error(first + #"{"anchor": "a", "positive": "b""#).hasPrefix("pairs.jsonl line 2: not valid JSON ("))
        #expect(error(first + #"["a", "b"]"#).hasPrefix("pairs.jsonl line 2: expected a JSON object"))
        #expect(error(first + #"{"anchor": "a"}"#) == #"pairs.jsonl line 2: "positive" is missing"#)
        #expect(error(first + #"{"anchor": "a", "positive": 3}"#) == #"pairs.jsonl line 2: "positive" must be a string"#)
        #expect(error(first + #"{"anchor": " ", "positive": "b"}"#) == #"pairs.jsonl line 2: "anchor" is empty"#)
        #expect(error(first + #"{"anchor": "a", "postive": "b"}"#)
                == #"pairs.jsonl line 2: unknown field "postive" (expected anchor, positive and optionally negative)"#)
        #expect(error(first + #"{"sentence1": "a", "sentence2": "b", "score": 0.5}"#)
                == "pairs.jsonl line 2: a scored (sentence1, sentence2, score) example, but line 1 began a file of contrastive (anchor, positive) examples; one file holds one shape")
        #expect(error(#"{"sentence1": "a", "sentence2": "b", "score": 1.5}"#)
                == #"pairs.jsonl line 1: "score" must be a cosine similarity from -1 to 1, got 1.5"#)
        #expect(error(#"{"sentence1": "a", "sentence2": "b", "score": true}"#) == #"pairs.jsonl line 1: "score" must be a number"#)
        #expect(error(#"{"sentence1": "a", "sentence2": "b", "score": "0.5"}"#) == #"pairs.jsonl line 1: "score" must be a number"#)
        #expect(error(#"{"sentence1": "a", "sentence2": "b", "score": 0.5, "label": 0.5}"#)
                == #"pairs.jsonl line 1: give "score" or "label", not both"#)
        #expect(error(#"{"sentence1": "a", "sentence2": "b"}"#) == #"pairs.jsonl line 1: "score" is missing"#)
        #expect(error("\n  \n") == "pairs.jsonl: holds no examples")
        let deep = String(repeating: "[", count: 100_000)
        #expect(error(deep) == "pairs.jsonl line 1: expected a flat JSON object of texts and a score; this line nests arrays or objects")
    }

    @Test func aFileIsReadThroughTheInputLimit() throws {
        let folder = try TestScratch.folder("pairs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pairs.jsonl")
        try Data(#"{"anchor": "a", "positive": "b"}"#.utf8).write(to: file)
        #expect(try TrainingPairs.read(from: file) == .contrastive([.init(anchor: "a", positive: "b")]))
        #expect(throws: (any Error).self) { try TrainingPairs.read(from: folder.appendingPathComponent("missing.jsonl")) }
    }
}

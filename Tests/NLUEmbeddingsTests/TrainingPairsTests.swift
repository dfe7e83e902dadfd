import Foundation
import NLUCore
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

    /// `heldOutSplit`: the fraction of the examples (rounded down, at least one) held out, drawn by the seed, both
    /// parts in file order and of the file's shape; a fraction out of range or too few pairs is refused.
    @Test func heldOutSplitKeepsOrderAndShape() throws {
        let examples = (0..<10).map { TrainingPairs.ContrastiveExample(anchor: "a\($0)", positive: "p\($0)") }
        let (training, heldOut) = try TrainingPairs.contrastive(examples).heldOutSplit(fraction: 0.25, seed: 7)
        guard case .contrastive(let kept) = training, case .contrastive(let held) = heldOut else {
            Issue.record("the split changed the pairs' shape")
            return
        }
        #expect(kept.count == 8 && held.count == 2)
        #expect(Set(kept.map(\.anchor) + held.map(\.anchor)) == Set(examples.map(\.anchor)))
        for part in [kept, held] {
            let positions = part.compactMap { example in examples.firstIndex(of: example) }
            #expect(positions == positions.sorted(), "file order kept")
        }
        let again = try TrainingPairs.contrastive(examples).heldOutSplit(fraction: 0.25, seed: 7)
        #expect(again.heldOut == heldOut, "the seed decides")
        let other = try TrainingPairs.contrastive(examples).heldOutSplit(fraction: 0.25, seed: 8)
        #expect(other.training.count == 8)
        let scored = TrainingPairs.scored([.init(first: "a", second: "b", score: 0.5), .init(first: "c", second: "d", score: 0.1),
                                           .init(first: "e", second: "f", score: -0.2)])
        let split = try scored.heldOutSplit(fraction: 0.1, seed: 1)
        #expect(split.training.count == 2 && split.heldOut.count == 1, "at least one held out")
        if case .scored = split.heldOut {} else { Issue.record("scored pairs stay scored") }
        for fraction in [0, -0.1, 0.51, .nan] {
            #expect(throws: TrainingSettingError.self) { try scored.heldOutSplit(fraction: fraction, seed: 1) }
        }
        let single = TrainingPairs.scored([.init(first: "a", second: "b", score: 0.5)])
        let error = try #require(throws: TrainingSettingError.self) { try single.heldOutSplit(fraction: 0.5, seed: 1) }
        #expect(error.setting == "fraction" && error.value.contains("of 1 pair"))
    }
}

import Foundation
import Testing
@testable import NLUCore

/// `group_by_length` as transformers orders it: the same permutation in, the same order out
/// (Tests/Fixtures/training/length-grouped.json, written by scripts/fixtures/length_grouped.py from
/// `get_length_grouped_indices` itself). Exact: indices.
@Suite struct LengthGroupedBatchesTests {
    struct Case: Decodable {
        var lengths: [Int]
        var batchSize: Int
        var megaBatchMultiple: Int?
        var permutation: [Int]
        var order: [Int]
    }

    static let cases: [Case] = {
        struct File: Decodable { var cases: [Case] }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/training/length-grouped.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.cases
    }()

    @Test func theOrderIsTransformersOrderForTheSamePermutation() throws {
        try #require(Self.cases.count == 6)
        for (index, reference) in Self.cases.enumerated() {
            let grouped = LengthGroupedBatches(lengths: reference.lengths, batchSize: reference.batchSize,
                                               megaBatchMultiple: reference.megaBatchMultiple, permutation: reference.permutation)
            #expect(grouped.order == reference.order, "case \(index)")
        }
    }

    @Test func theLongestExampleLeadsAndEveryExampleComesOnce() {
        var random = SplitMix64(seed: 7)
        let lengths = (0..<103).map { _ in Int.random(in: 1...64, using: &random) }
        let grouped = LengthGroupedBatches(lengths: lengths, batchSize: 8, using: &random)
        #expect(grouped.order.sorted() == Array(lengths.indices))
        #expect(lengths[grouped.order[0]] == lengths.max())
        let batches = grouped.batches
        #expect(batches.count == 13 && batches.last?.count == 7)
        // Grouping pads less than the shuffled order alone would.
        func padding(_ order: [Int]) -> Int {
            stride(from: 0, to: order.count, by: 8).reduce(0) { total, start in
                let batch = order[start..<min(start + 8, order.count)].map { lengths[$0] }
                return total + batch.count * (batch.max() ?? 0) - batch.reduce(0, +)
            }
        }
        var shuffled = Array(lengths.indices)
        shuffled.shuffle(using: &random)
        #expect(padding(grouped.order) * 2 < padding(shuffled))
        // The same seed gives the same order.
        var first = SplitMix64(seed: 3), second = SplitMix64(seed: 3)
        #expect(LengthGroupedBatches(lengths: lengths, batchSize: 8, using: &first)
                == LengthGroupedBatches(lengths: lengths, batchSize: 8, using: &second))
        #expect(LengthGroupedBatches(lengths: [], batchSize: 4, permutation: []).batches.isEmpty)
    }
}

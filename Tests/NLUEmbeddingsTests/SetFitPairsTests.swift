import Foundation
import NLUCore
import NLUEmbeddings
import Testing

/// `SetFitPairs` against setfit 1.2.0's own `ContrastiveDataset` (scripts/fixtures/setfit_pairs.py):
/// the same pairs, in the same order, for each sampling strategy; and `MersenneTwister` against
/// NumPy's `RandomState(42).permutation`.
@Suite struct SetFitPairsTests {
    struct Reference: Decodable {
        struct Case: Decodable {
            var strategy: String
            var iterations: Int?
            var pairs: [[Pair]]
        }
        enum Pair: Decodable, Equatable {
            case text(String), score(Float)
            init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) { self = .text(text) } else { self = .score(try container.decode(Float.self)) }
            }
        }
        var sentences: [String]
        var labels: [Int]
        var cases: [Case]
        var permutations: [String: [Int]]
    }

    static func reference() throws -> Reference {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/training/setfit-pairs.json")
        return try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
    }

    @Test func pairsEqualSetFitsInOrderForEveryStrategy() throws {
        let reference = try Self.reference()
        #expect(reference.cases.count == 4)
        for entry in reference.cases {
            let strategy = try #require(SetFitPairs.Strategy(rawValue: entry.strategy))
            let pairs = try SetFitPairs.make(sentences: reference.sentences, labels: reference.labels, strategy: strategy,
                                             iterations: entry.iterations)
            let expected = entry.pairs.map { [$0[0], $0[1], $0[2]] }
            let ours = pairs.map { [Reference.Pair.text($0.first), .text($0.second), .score($0.score)] }
            #expect(ours == expected, "\(entry.strategy) \(entry.iterations.map(String.init) ?? "-")")
        }
    }

    @Test func mersenneTwisterPermutesAsNumPy() throws {
        for (count, expected) in try Self.reference().permutations {
            var random = MersenneTwister(seed: 42)
            #expect(random.permutation(try #require(Int(count))) == expected, "permutation(\(count))")
        }
    }

    @Test func unusableSetsAreRefusedByName() {
        for (sentences, labels, setting) in [(["a", "b"], [0], "labels"), (["a"], [0], "sentences"), (["a", "b"], [1, 1], "labels")] {
            #expect(throws: TrainingSettingError.self) { try SetFitPairs.make(sentences: sentences, labels: labels) }
            do { _ = try SetFitPairs.make(sentences: sentences, labels: labels) } catch let error as TrainingSettingError {
                #expect(error.setting == setting)
            } catch { Issue.record("\(error)") }
        }
        #expect(throws: TrainingSettingError.self) { try SetFitPairs.make(sentences: ["a", "b"], labels: [0, 1], iterations: 0) }
    }
}

import Foundation
import NLUText
import NLUTestSupport
import Testing

/// The BPE merge loop: the Rust implementation's order, in time n log n for a word of n scalars.
@Suite struct BytePairEncodingTests {
    /// "1", "11", "1111", … with the merges that double them: a run of digits is one byte-level word.
    static func doublingModel() throws -> BytePairEncoding {
        var vocabulary: [String: Int32] = [:]
        var merges: [(String, String)] = []
        var piece = "1"
        for id in 0..<16 {
            vocabulary[piece] = Int32(id)
            if id > 0 { merges.append((String(piece.prefix(piece.count / 2)), String(piece.prefix(piece.count / 2)))) }
            piece += piece
        }
        return try BytePairEncoding(vocabulary: vocabulary, merges: merges)
    }

    @Test func mergesPairsInRankOrderLeftmostFirst() throws {
        let bpe = try Self.doublingModel()
        // 7 = 4 + 2 + 1: the doublings pair from the left.
        #expect(bpe.tokenize(Array("1111111".unicodeScalars)).map(\.range) == [0..<4, 4..<6, 6..<7])
        let ranked = try BytePairEncoding(vocabulary: ["a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5],
                                          merges: [("b", "c"), ("a", "b"), ("a", "bc")])
        #expect(ranked.tokenize(Array("abc".unicodeScalars)).map(\.id) == [5])
        #expect(ranked.tokenize(Array("abab".unicodeScalars)).map(\.id) == [3, 3])
    }

    /// Every merge scanned all adjacent pairs and removed from the middle of an array: quadratic, so a 1 MB line of
    /// digits through a byte-level tokenizer did not finish.
    @Test func tenTimesTheWordTakesAboutTenTimesTheWork() throws {
        let bpe = try Self.doublingModel()
        let small = Array(String(repeating: "1", count: 2_000).unicodeScalars)
        let large = Array(String(repeating: "1", count: 20_000).unicodeScalars)
        // Pieces of 2^k scalars, largest first: one token per bit of the length.
        let growth = linearWorkGrowth {
            #expect(bpe.tokenize(small).map(\.range.count) == [1024, 512, 256, 128, 64, 16])
        } large: {
            #expect(bpe.tokenize(large).map(\.range.count) == [16384, 2048, 1024, 512, 32])
        }
        // n log n gives about 13; quadratic work gives 100.
        #expect(growth.ratio < linearWorkBound, "2,000 → 20,000: \(growth)")
    }
}

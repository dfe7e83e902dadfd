import Foundation
import Testing
@testable import NLUCore

/// `Kernels.multiHeadAttention` against scaled dot-product attention written here in Double
/// (softmax(Q·Kᵀ + mask)·V per head and sequence), at every instruction level, with odd head sizes
/// and lengths (partial packed panels), several sequences of different lengths, key masks, and
/// enough heads to run on every thread; at F32 and at INT8.
@Suite struct AttentionKernelTests {
    struct Case {
        var heads: Int, headSize: Int, sequenceLength: Int, lengths: [Int], masked: Bool
    }

    static let cases: [Case] = [
        Case(heads: 1, headSize: 1, sequenceLength: 1, lengths: [1], masked: false),
        Case(heads: 2, headSize: 5, sequenceLength: 7, lengths: [7, 3], masked: false),
        Case(heads: 3, headSize: 33, sequenceLength: 40, lengths: [40, 0, 17], masked: true),
        Case(heads: 12, headSize: 64, sequenceLength: 70, lengths: [70, 65], masked: true),
    ]

    @Test(arguments: [0, 1, 2], Precision.allCases)
    func matchesNaiveAttention(level: Int, precision: Precision) {
        for (index, test) in Self.cases.enumerated() {
            var generator = SplitMix64(seed: UInt64(100 + index))
            let hidden = test.heads * test.headSize, rowStride = 3 * hidden + 3   // + 3: a stride wider than the data
            let rows = test.lengths.count * test.sequenceLength
            let qkv = randomScalars(rows * rowStride, in: -1...1, using: &generator)
            // Masks hide every third key (never the first, so no row is fully masked).
            let masks: [[Float]?] = test.lengths.map { length in
                test.masked ? (0..<length).map { $0 % 3 == 2 ? -Float.infinity : 0 } : nil
            }
            let contextStride = hidden + 2
            var context = [Float](repeating: 7, count: rows * contextStride)
            Kernels.withInstructionLevel(level) {
                qkv.withUnsafeBufferPointer { qkv in
                    context.withUnsafeMutableBufferPointer { context in
                        Kernels.multiHeadAttention(queryKeyValue: qkv.baseAddress!, rowStride: rowStride,
                                                   sequenceLength: test.sequenceLength, lengths: test.lengths, keyMasks: masks,
                                                   heads: test.heads, headSize: test.headSize,
                                                   context: context.baseAddress!, contextStride: contextStride,
                                                   precision: precision)
                    }
                }
            }
            var worst = 0.0
            for (sequence, length) in test.lengths.enumerated() {
                let first = sequence * test.sequenceLength
                for head in 0..<test.heads {
                    for query in 0..<length {
                        let q = (first + query) * rowStride + head * test.headSize
                        var weights = (0..<length).map { key -> Double in
                            let k = (first + key) * rowStride + hidden + head * test.headSize
                            let dot = (0..<test.headSize).reduce(0.0) { $0 + Double(qkv[q + $1]) * Double(qkv[k + $1]) }
                            return dot + Double(masks[sequence]?[key] ?? 0)
                        }
                        let top = weights.max() ?? 0
                        weights = weights.map { exp($0 - top) }
                        let total = weights.reduce(0, +)
                        for column in 0..<test.headSize {
                            var sum = 0.0
                            for key in 0..<length {
                                sum += weights[key] / total * Double(qkv[(first + key) * rowStride + 2 * hidden + head * test.headSize + column])
                            }
                            let got = Double(context[(first + query) * contextStride + head * test.headSize + column])
                            worst = max(worst, abs(got - sum))
                        }
                    }
                }
                // Rows past the length and the padding columns are left as they were.
                for row in (first + length)..<(first + test.sequenceLength) {
                    #expect(context[(row * contextStride)..<((row + 1) * contextStride)].allSatisfy { $0 == 7 })
                }
            }
            for row in 0..<rows {
                #expect(context[row * contextStride + hidden] == 7 && context[row * contextStride + hidden + 1] == 7)
            }
            switch precision {
            case .f32:
                // Float dot products of up to 64 terms of magnitude ≤ 1 (error about 4e-6), through exp and a weighted sum.
                #expect(worst < 2e-5, "level \(level), case \(index): \(worst)")
            case .int8:
                // Queries and keys rounded to 1/63 (AVX2's 7-bit rows and keys) of their largest element move
                // a score of 64 terms by up to about 0.2, so weights by up to about 20 %; probabilities to 1/127
                // of the row's largest, values to 1/63 of the channel's. Measured: at most 0.050 (64-wide
                // heads, AVX2's 7-bit queries, keys and values; 0.024 with 8-bit ones).
                #expect(worst < 0.06, "level \(level), case \(index): \(worst)")
            }
        }
    }
}

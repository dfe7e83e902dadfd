import Foundation
import Testing
@testable import NLUCore

/// The INT8 GEMM at every instruction level against plain loops written here: the quantized
/// weights and rows equal a Swift quantization (round half to even of x·L/max|x|, L = 127 or 63 for
/// weights and the level's ``QuantizedMatrix/activationLimit`` for rows: 63 on AVX2 with 7-bit
/// weights), the integer sums equal Σ qx·qw exactly (AVX-512 VNNI, the AVX2 vpmaddubsw blocks and
/// the portable loops alike, for either weight limit), and the float results equal the dequantized
/// sums through the epilogue, within the quantization bound of the exact product.
@Suite struct QuantizedMatrixTests {
    // (rows m, inner k, width n): k not a multiple of 4, partial panels, leftover rows of the 8-row
    // (VNNI) and 2-row (AVX2) blocks, 777 rows across two row blocks, and a threaded size.
    static let shapes: [(Int, Int, Int)] = [(1, 1, 1), (2, 5, 33), (9, 17, 64), (17, 31, 95), (777, 7, 40), (16, 128, 520)]

    /// Symmetric quantization as the kernels define it, to [-limit, limit].
    static func quantize(_ values: ArraySlice<Float>, limit: Float = 127) -> (q: [Int32], scale: Float) {
        let largest = values.map { abs($0) }.max() ?? 0
        let inverse: Float = largest > 0 ? limit / largest : 0
        let q = values.map { Int32(min(max($0 * inverse, -limit), limit).rounded(.toNearestOrEven)) }
        return (q, largest / limit)
    }

    static let levelsAndLimits = [0, 1, 2].flatMap { level in [127, 63].map { (level, $0) } }

    @Test(arguments: levelsAndLimits)
    func integerSumsAreExactAtEveryLevel(level: Int, weightLimit: Int) {
        for (m, k, n) in Self.shapes {
            var generator = SplitMix64(seed: UInt64(m * 10_000 + k * 100 + n))
            var weight = randomScalars(n * k, using: &generator)
            // Rows of different magnitudes, one all zero: each row has its own scale.
            var x = randomScalars(m * k, in: -3...3, using: &generator)
            for kk in 0..<k { x[kk] = 0 }
            // The largest products, where a saturating int16 pair sum would show: the last row all at
            // the row limit (plus the offset when stored unsigned) against channel 0 all at the weight limit.
            for kk in 0..<k { x[(m - 1) * k + kk] = 3 }
            for kk in 0..<k { weight[kk] = 1 }
            let matrix = weight.withUnsafeBufferPointer {
                QuantizedMatrix(linearWeight: $0.baseAddress!, outputs: n, inputs: k, weightLimit: weightLimit)
            }
            let weights = (0..<n).map { Self.quantize(weight[($0 * k)..<($0 * k + k)], limit: Float(weightLimit)) }
            for j in [0, n / 2, n - 1] {
                let (values, scale) = matrix.quantizedWeight(channel: j)
                #expect(values.map(Int32.init) == weights[j].q, "weight channel \(j) of \(n) × \(k)")
                #expect(scale == weights[j].scale)
            }
            let (sums, rowScales, rowLimit, levelWants7Bit) = x.withUnsafeBufferPointer { x in
                Kernels.withInstructionLevel(level) {
                    let (sums, scales) = matrix.integerProducts(x.baseAddress!, rows: m)
                    return (sums, scales, matrix.activationLimit, QuantizedMatrix.preferredWeightLimit == 63)
                }
            }
            // 7-bit rows exactly where the level runs the AVX2 block (the one that wants 7-bit weights) on 7-bit weights.
            #expect(rowLimit == (levelWants7Bit && weightLimit == 63 ? 63 : 127),
                    "level \(level), weight limit \(weightLimit): rows at \(rowLimit)")
            var mismatches = 0
            for row in 0..<m {
                let (q, scale) = Self.quantize(x[(row * k)..<(row * k + k)], limit: Float(rowLimit))
                if rowScales[row] != scale { mismatches += 1 }
                for column in 0..<n {
                    var sum: Int32 = 0
                    for kk in 0..<k { sum += q[kk] * weights[column].q[kk] }
                    if sums[row * n + column] != sum { mismatches += 1 }
                }
            }
            #expect(mismatches == 0, "level \(level), weight limit \(weightLimit), m \(m), k \(k), n \(n): \(mismatches) sums or scales differ")
        }
    }

    /// The float results are the dequantized integer sums through the F32 GEMM's epilogue
    /// (accumulate, bias, activation), and lie within the quantization error bound of the exact
    /// product: |x·w − sx·sw·Σqx·qw| ≤ sx·sw·(Σ|qx|/2 + Σ|qw|/2 + k/4).
    @Test(arguments: levelsAndLimits)
    func floatResultsFollowTheIntegerSums(level: Int, weightLimit: Int) {
        let m = 37, k = 300, n = 200, ldc = 205
        var generator = SplitMix64(seed: 7)
        let weight = randomScalars(n * k, using: &generator)
        let x = randomScalars(m * k, using: &generator)
        let start = randomScalars(m * ldc, using: &generator)
        let bias = randomScalars(n, using: &generator)
        let matrix = weight.withUnsafeBufferPointer {
            QuantizedMatrix(linearWeight: $0.baseAddress!, outputs: n, inputs: k, weightLimit: weightLimit)
        }
        let weights = (0..<n).map { Self.quantize(weight[($0 * k)..<($0 * k + k)], limit: Float(weightLimit)) }
        for activation in PackedMatrixTests.activations {
            for accumulate in [false, true] {
                var output = start
                let (sums, rowScales, rowLimit) = x.withUnsafeBufferPointer { xs in
                    output.withUnsafeMutableBufferPointer { output in
                        bias.withUnsafeBufferPointer { bias in
                            Kernels.withInstructionLevel(level) {
                                matrix.multiply(xs.baseAddress!, rows: m, into: output.baseAddress!, ldc: ldc,
                                                accumulate: accumulate, bias: bias.baseAddress, activation: activation)
                                let (sums, scales) = matrix.integerProducts(xs.baseAddress!, rows: m)
                                return (sums, scales, matrix.activationLimit)
                            }
                        }
                    }
                }
                var worstEpilogue = 0.0, worstBound = -Double.infinity
                for row in 0..<m {
                    let rowQ = Self.quantize(x[(row * k)..<(row * k + k)], limit: Float(rowLimit)).q
                    for column in 0..<n {
                        let scale = Double(rowScales[row]) * Double(weights[column].scale)
                        let dequantized = Double(sums[row * n + column]) * scale
                        let base = (accumulate ? Double(start[row * ldc + column]) : 0) + Double(bias[column])
                        let expected = PackedMatrixTests.reference(activation, dequantized + base)
                        worstEpilogue = max(worstEpilogue, abs(Double(output[row * ldc + column]) - expected))
                        if activation == .none {
                            var exact = 0.0
                            for kk in 0..<k { exact += Double(x[row * k + kk]) * Double(weight[column * k + kk]) }
                            let qx = rowQ.reduce(0) { $0 + abs(Double($1)) }
                            let qw = weights[column].q.reduce(0) { $0 + abs(Double($1)) }
                            let bound = scale * (qx / 2 + qw / 2 + Double(k) / 4) + 1e-5
                            worstBound = max(worstBound, abs(dequantized - exact) - bound)
                        }
                    }
                    for column in n..<ldc where output[row * ldc + column] != start[row * ldc + column] {
                        worstEpilogue = .infinity   // wrote past n
                    }
                }
                #expect(worstEpilogue < 1e-4, "level \(level), \(activation), accumulate \(accumulate): \(worstEpilogue)")
                if activation == .none { #expect(worstBound <= 0, "level \(level): exceeds the quantization bound by \(worstBound)") }
            }
        }
    }

    /// Which levels have an INT8 block faster than F32: on x86-64 every level but the baseline (whose SSE2
    /// block runs at about the F32 GEMM's rate).
    @Test func fastINT8PathExistsAboveTheX86Baseline() {
        #if arch(x86_64)
        for level in CPULevel.runnable {
            let fast = Kernels.withInstructionLevel(level.rawValue) { QuantizedMatrix.hasFastPath }
            #expect(fast == (level != .portable), "\(level.name)")
        }
        #endif
    }
}

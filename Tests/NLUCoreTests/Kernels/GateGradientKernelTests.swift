import CKernels
import Foundation
import Testing
@testable import NLUCore

/// The kernels behind a recurrent layer's weight gradients through the packed GEMM, at every
/// instruction level: the transpose (exact, strided, accumulating), the step-by-step gathering of
/// gate gradients (packed exactly as `nlukit_pack` packs the whole matrix, column and token sums in
/// row order), and the weight-gradient product `dW += Gᵀ·X` against a Double loop.
@Suite struct GateGradientKernelTests {
    @Test(arguments: [0, 1, 2])
    func transposeMatchesNaive(level: Int) {
        // 8 × 8 blocks, edges of every size, strided rows on both sides.
        for (rows, columns) in [(1, 1), (8, 8), (13, 29), (40, 70), (65, 33)] {
            var generator = SplitMix64(seed: UInt64(rows * 100 + columns))
            let lda = columns + 3, ldt = rows + 5
            let a = randomScalars(rows * lda, using: &generator)
            for accumulate in [false, true] {
                let start = randomScalars(columns * ldt, using: &generator)
                var t = start
                a.withUnsafeBufferPointer { a in
                    t.withUnsafeMutableBufferPointer { t in
                        Kernels.withInstructionLevel(level) {
                            nlukit_transpose(a.baseAddress!, lda, rows, columns, t.baseAddress!, ldt, accumulate ? 1 : 0)
                        }
                    }
                }
                var exact = true
                for j in 0..<columns {
                    for i in 0..<ldt {
                        let expected = i < rows ? (accumulate ? start[j * ldt + i] + a[i * lda + j] : a[i * lda + j]) : start[j * ldt + i]
                        if t[j * ldt + i].bitPattern != expected.bitPattern { exact = false }
                    }
                }
                #expect(exact, "level \(level), \(rows) × \(columns), accumulate \(accumulate)")
            }
        }
    }

    @Test(arguments: [0, 1, 2])
    func gatheredStepsEqualWholeMatrixPacking(level: Int) {
        // 40 columns: a full panel and a zero-padded one; steps gathered last to first, as backward does.
        // The arrays' storage is not 64-byte aligned, so the whole panel takes the plain stores (the C
        // reference checks and the recurrent layers' tests run the non-temporal ones).
        let steps = 4, batch = 3, width = 40, vocabulary = 5, rows = steps * batch
        var generator = SplitMix64(seed: 9)
        let gradients = randomScalars(rows * width, using: &generator)
        let tokens = (0..<rows).map { _ in Int32.random(in: 0..<Int32(vocabulary), using: &generator) }
        let size = nlukit_packed_size(rows, width)
        var gathered = [Float](repeating: .nan, count: size), whole = [Float](repeating: 0, count: size)
        var sums = [Float](repeating: 0, count: width), tokenSums = [Float](repeating: 0, count: vocabulary * width)
        gradients.withUnsafeBufferPointer { g in
            tokens.withUnsafeBufferPointer { ids in
                Kernels.withInstructionLevel(level) {
                    for step in stride(from: steps - 1, through: 0, by: -1) {
                        nlukit_gate_gradient_rows(g.baseAddress! + step * batch * width, batch, width, &gathered, rows,
                                                  step * batch, &sums, ids.baseAddress! + step * batch, &tokenSums)
                    }
                }
                nlukit_pack(g.baseAddress!, width, 0, rows, width, &whole)
            }
        }
        #expect(zip(gathered, whole).allSatisfy { $0.bitPattern == $1.bitPattern }, "level \(level): packing")
        var expectedSums = [Float](repeating: 0, count: width), expectedTokens = [Float](repeating: 0, count: vocabulary * width)
        for step in stride(from: steps - 1, through: 0, by: -1) {
            for row in step * batch..<(step + 1) * batch {
                for column in 0..<width {
                    expectedSums[column] += gradients[row * width + column]
                    expectedTokens[Int(tokens[row]) * width + column] += gradients[row * width + column]
                }
            }
        }
        #expect(sums == expectedSums, "level \(level): column sums")
        #expect(tokenSums == expectedTokens, "level \(level): token sums")
    }

    @Test(arguments: [0, 1, 2])
    func packedWeightGradientMatchesNaive(level: Int) {
        // m rows of G [m, n] and X [m, k]: n = 40 (a partial panel), k = 19 (not a multiple of 8).
        let m = 37, n = 40, k = 19
        var generator = SplitMix64(seed: 17)
        let g = randomScalars(m * n, using: &generator), x = randomScalars(m * k, using: &generator)
        let start = randomScalars(n * k, using: &generator)
        let packed = PackedMatrix(inner: m, width: n)
        var weightGradient = start
        g.withUnsafeBufferPointer { g in
            x.withUnsafeBufferPointer { x in
                weightGradient.withUnsafeMutableBufferPointer { w in
                    Kernels.withInstructionLevel(level) {
                        nlukit_pack(g.baseAddress!, n, 0, m, n, packed.storage)
                        RecurrentMath.accumulateWeightGradient(packed, input: x.baseAddress!, inner: k, into: w.baseAddress!)
                    }
                }
            }
        }
        var worst = 0.0
        for row in 0..<n {
            for column in 0..<k {
                var sum = Double(start[row * k + column])
                for r in 0..<m { sum += Double(g[r * n + row]) * Double(x[r * k + column]) }
                worst = max(worst, abs(sum - Double(weightGradient[row * k + column])))
            }
        }
        // Float sums of 37 products of magnitude ≤ 1: error ~1e-6.
        #expect(worst < 1e-4, "level \(level): \(worst)")
    }
}

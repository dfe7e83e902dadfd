import Foundation
import Testing
@testable import NLUCore

/// GEMM kernels against a naive triple loop in Double, over transposes, batches and views.
@Suite struct MatmulTests {
    /// `op(a)·op(b)` for row-major `[m, k]`/`[k, m]` and `[k, n]`/`[n, k]` arrays.
    func naive(_ a: [Float], _ b: [Float], m: Int, n: Int, k: Int, transposeA: Bool, transposeB: Bool, alpha: Float = 1) -> [Float] {
        var c = [Float](repeating: 0, count: m * n)
        for i in 0..<m {
            for j in 0..<n {
                var sum = 0.0
                for p in 0..<k {
                    let left = transposeA ? a[p * m + i] : a[i * k + p]
                    let right = transposeB ? b[j * k + p] : b[p * n + j]
                    sum += Double(left) * Double(right)
                }
                c[i * n + j] = Float(sum) * alpha
            }
        }
        return c
    }

    // Float sums of k products of values in [-1, 1]: rounding grows like k·ε at worst.
    func tolerance(_ k: Int) -> Float { Float(max(k, 1)) * 2e-7 + 1e-6 }

    static let sizes: [(m: Int, n: Int, k: Int)] = [(1, 1, 1), (1, 7, 3), (5, 1, 9), (13, 17, 31), (64, 33, 65), (2, 3, 0)]

    @Test(arguments: 0..<sizes.count, [(false, false), (true, false), (false, true), (true, true)])
    func rank2MatchesNaiveLoop(_ index: Int, _ transposes: (Bool, Bool)) {
        let (m, n, k) = Self.sizes[index]
        var generator = SplitMix64(seed: UInt64(index * 4 + (transposes.0 ? 2 : 0) + (transposes.1 ? 1 : 0)))
        let a = randomTensor(transposes.0 ? [k, m] : [m, k], using: &generator)
        let b = randomTensor(transposes.1 ? [n, k] : [k, n], using: &generator)
        let c = Kernels.matmul(a, b, transposeA: transposes.0, transposeB: transposes.1, alpha: 0.5)
        #expect(c.shape == [m, n])
        let expected = naive(a.scalars, b.scalars, m: m, n: n, k: k, transposeA: transposes.0, transposeB: transposes.1, alpha: 0.5)
        #expect(maxAbsoluteDifference(c.scalars, expected) <= tolerance(k))
    }

    @Test func batchedMatchesPerBatchLoop() {
        var generator = SplitMix64(seed: 99)
        let (batch, m, n, k) = (3, 5, 7, 11)
        let a = randomTensor([batch, m, k], using: &generator)
        let b = randomTensor([batch, n, k], using: &generator)
        let c = Kernels.matmul(a, b, transposeB: true, alpha: 0.125)
        #expect(c.shape == [batch, m, n])
        for index in 0..<batch {
            let expected = naive(a[index].scalars, b[index].scalars, m: m, n: n, k: k, transposeA: false, transposeB: true, alpha: 0.125)
            #expect(maxAbsoluteDifference(c[index].scalars, expected) <= tolerance(k))
        }
        // One right-hand matrix shared by every batch element.
        let shared = randomTensor([k, n], using: &generator)
        let d = Kernels.matmul(a, shared)
        for index in 0..<batch {
            let expected = naive(a[index].scalars, shared.scalars, m: m, n: n, k: k, transposeA: false, transposeB: false)
            #expect(maxAbsoluteDifference(d[index].scalars, expected) <= tolerance(k))
        }
    }

    @Test func viewsAreUsedInPlaceAndGiveTheSameResult() {
        var generator = SplitMix64(seed: 7)
        let big = randomTensor([10, 6], using: &generator)
        let rowsView = big.slice(2..<7)                 // [5, 6], strides [6, 1]
        let transposedView = big.slice(0..<4).transposed()   // [6, 4], strides [1, 6]
        let c = Kernels.matmul(rowsView, transposedView)
        let expected = naive(rowsView.scalars, transposedView.scalars, m: 5, n: 4, k: 6, transposeA: false, transposeB: false)
        #expect(maxAbsoluteDifference(c.scalars, expected) <= tolerance(6))
        // Heads as a transposed 3-D view: [heads, dHead, seq] from [heads, seq, dHead].
        let keys = randomTensor([2, 5, 3], using: &generator)
        let queries = randomTensor([2, 4, 3], using: &generator)
        let scores = Kernels.matmul(queries, keys.transposed(1, 2))
        let reference = Kernels.matmul(queries, keys.transposed(1, 2).contiguous())
        #expect(scores == reference)
        let scores2 = Kernels.matmul(queries, keys, transposeB: true)
        #expect(maxAbsoluteDifference(scores.scalars, scores2.scalars) <= 1e-6)
    }

    @Test func linearUsesPyTorchLayoutOnAnyLeadingShape() throws {
        var generator = SplitMix64(seed: 13)
        let layer = Linear(inputSize: 9, outputSize: 4, using: &generator)
        let x = randomTensor([2, 3, 9], using: &generator)
        let y = layer(x)
        #expect(y.shape == [2, 3, 4])
        let rows = x.reshaped([6, 9])
        var expected = naive(rows.scalars, layer.weight.scalars, m: 6, n: 4, k: 9, transposeA: false, transposeB: true)
        for index in expected.indices { expected[index] += layer.bias!.scalars[index % 4] }
        #expect(maxAbsoluteDifference(y.scalars, expected) <= tolerance(9))
        #expect(Kernels.linear(rows, weight: layer.weight, bias: nil).shape == [6, 4])
    }
}

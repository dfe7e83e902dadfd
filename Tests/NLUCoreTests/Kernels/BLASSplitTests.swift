import Foundation
import Testing
@testable import NLUCore

/// `BLAS.sgemm`, `sgemv` and `dgemm` split their result over the kernels' pool (OpenBLAS running
/// single-threaded in each block): products past `BLAS.splitThreshold`, tall (split by rows) and
/// wide (split by columns), in every transpose, with `beta` adding to C, against a plain loop in
/// Double, at the configured thread count (2 on the test machines; the thread count is global, so
/// changing it here would race other suites).
@Suite struct BLASSplitTests {
    // Tall and wide, both well past the threshold (2^18 multiply-adds), with odd sizes so the
    // blocks are uneven.
    static let shapes: [(m: Int, n: Int, k: Int)] = [(301, 37, 57), (29, 403, 61)]
    static let transposes = [(false, false), (true, false), (false, true), (true, true)]

    @Test func splitProductsEqualAPlainLoop() {
        let threads = Kernels.threadCount
        var generator = SplitMix64(seed: 41)
        for (m, n, k) in Self.shapes {
            #expect(m * n * k >= BLAS.splitThreshold)
            let a = randomScalars(m * k, using: &generator), b = randomScalars(k * n, using: &generator)
            let start = randomScalars(m * n, using: &generator)
            for (transposeA, transposeB) in Self.transposes {
                let product = MatmulTests().naive(a, b, m: m, n: n, k: k, transposeA: transposeA, transposeB: transposeB)
                var c = start
                a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in
                        c.withUnsafeMutableBufferPointer { c in
                            BLAS.sgemm(transposeA ? .transpose : .none, transposeB ? .transpose : .none, m: m, n: n, k: k,
                                       alpha: 1, a: a.baseAddress!, lda: transposeA ? m : k, b: b.baseAddress!,
                                       ldb: transposeB ? k : n, beta: 1, c: c.baseAddress!, ldc: n)
                        }
                    }
                }
                let expected = zip(product, start).map { $0 + $1 }
                #expect(maxAbsoluteDifference(c, expected) < MatmulTests().tolerance(k) + 1e-5,
                        "sgemm \(m)×\(n)×\(k) transposes \(transposeA) \(transposeB), \(threads) threads")

                // The same product in Double: dgemm splits the same way.
                var d = start.map(Double.init)
                let da = a.map(Double.init), db = b.map(Double.init)
                da.withUnsafeBufferPointer { a in
                    db.withUnsafeBufferPointer { b in
                        d.withUnsafeMutableBufferPointer { d in
                            BLAS.dgemm(transposeA ? .transpose : .none, transposeB ? .transpose : .none, m: m, n: n, k: k,
                                       a: a.baseAddress!, lda: transposeA ? m : k, b: b.baseAddress!,
                                       ldb: transposeB ? k : n, beta: 1, c: d.baseAddress!, ldc: n)
                        }
                    }
                }
                #expect(maxAbsoluteDifference(d.map(Float.init), expected) < MatmulTests().tolerance(k) + 1e-5,
                        "dgemm \(m)×\(n)×\(k) transposes \(transposeA) \(transposeB), \(threads) threads")
            }
        }
    }

    @Test func splitMatrixVectorProductsEqualAPlainLoop() {
        let threads = Kernels.threadCount
        var generator = SplitMix64(seed: 43)
        let rows = 4_099, columns = 131   // 537K multiply-adds: split by y's entries
        let a = randomScalars(rows * columns, using: &generator)
        for transposed in [false, true] {
            let x = randomScalars(transposed ? rows : columns, using: &generator)
            let start = randomScalars(transposed ? columns : rows, using: &generator)
            var expected = start
            for i in 0..<rows {
                for j in 0..<columns {
                    if transposed { expected[j] += a[i * columns + j] * x[i] } else { expected[i] += a[i * columns + j] * x[j] }
                }
            }
            var y = start
            a.withUnsafeBufferPointer { a in
                x.withUnsafeBufferPointer { x in
                    y.withUnsafeMutableBufferPointer { y in
                        BLAS.sgemv(transposed ? .transpose : .none, rows: rows, columns: columns, a: a.baseAddress!,
                                   lda: columns, x: x.baseAddress!, beta: 1, y: y.baseAddress!)
                    }
                }
            }
            #expect(maxAbsoluteDifference(y, expected) < 1e-3, "sgemv transposed \(transposed), \(threads) threads")
        }
    }
}

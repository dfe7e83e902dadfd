import Foundation
import NLUInputOutput

/// A quick end-to-end check of the numeric stack: a BLAS GEMM verified against a plain loop.
public enum SelfCheck {
    public struct Report: Sendable {
        public var maxAbsoluteDifference: Float
        public var tolerance: Float
        public var gflops: Double
        /// How many entries of the product the plain loop recomputed (all of them for small sizes).
        public var checkedEntries: Int
        public var passed: Bool { maxAbsoluteDifference <= tolerance }
    }

    /// The sizes ``run(size:seed:)`` accepts: 4096 (two 64 MiB operands) is well within memory and
    /// BLAS time; the plain loop's cost is bounded separately (see ``loopBudget``).
    public static let sizes = 1...4096

    /// Multiply-adds the plain loop may spend: every entry is recomputed while n³ fits, else whole
    /// rows spread over the matrix (at least one), so `--size 4096` finishes in seconds, not minutes.
    static let loopBudget = 1 << 27

    /// Multiplies two random `size`×`size` matrices with BLAS and compares the product with a plain
    /// loop (all entries, or evenly spread rows for large sizes).
    /// - Throws: ``OutOfRangeError`` when `size` is outside ``sizes``.
    public static func run(size n: Int, seed: UInt64 = 42) throws -> Report {
        try InputLimits.check(n, in: sizes, name: "size")
        var generator = SplitMix64(seed: seed)
        let a = randomMatrix(count: n * n, using: &generator)
        let b = randomMatrix(count: n * n, using: &generator)
        var c = [Float](repeating: 0, count: n * n)
        let start = DispatchTime.now().uptimeNanoseconds
        c.withUnsafeMutableBufferPointer { cBuffer in
            BLAS.sgemm(.none, .none, m: n, n: n, k: n, a: a, lda: n, b: b, ldb: n,
                       c: cBuffer.baseAddress!, ldc: n)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let rowCount = min(n, max(1, loopBudget / (n * n)))
        let rows = (0..<rowCount).map { $0 * n / rowCount }
        var maxDifference: Float = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for i in rows {
                    for j in 0..<n {
                        var sum: Float = 0
                        for p in 0..<n { sum += a[i * n + p] * b[p * n + j] }
                        maxDifference = max(maxDifference, abs(sum - c[i * n + j]))
                    }
                }
            }
        }
        // Float32 sums of n products of values in [-1, 1] differ by order-of-summation rounding.
        let tolerance = Float(n) * 4 * Float.ulpOfOne
        return Report(maxAbsoluteDifference: maxDifference, tolerance: tolerance,
                      gflops: 2 * Double(n * n * n) / max(seconds, 1e-9) / 1e9, checkedEntries: rows.count * n)
    }

    /// `count` uniform values in [-1, 1), 24 random bits each: one plain loop, because the generic
    /// `Float.random(in:using:)` made a 4096² check spend most of its time drawing numbers.
    private static func randomMatrix(count: Int, using generator: inout SplitMix64) -> [Float] {
        [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                buffer[index] = Float(generator.next() >> 40) * 0x1p-23 - 1
            }
            initialized = count
        }
    }
}

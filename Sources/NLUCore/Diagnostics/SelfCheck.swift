import Foundation

/// A quick end-to-end check of the numeric stack: a BLAS GEMM verified against a plain loop.
public enum SelfCheck {
    public struct Report: Sendable {
        public var maxAbsoluteDifference: Float
        public var tolerance: Float
        public var gflops: Double
        public var passed: Bool { maxAbsoluteDifference <= tolerance }
    }

    /// Multiplies two random `size`×`size` matrices with BLAS and with a naive loop and compares.
    public static func run(size n: Int, seed: UInt64 = 42) -> Report {
        var generator = SplitMix64(seed: seed)
        let a = (0..<(n * n)).map { _ in Float.random(in: -1...1, using: &generator) }
        let b = (0..<(n * n)).map { _ in Float.random(in: -1...1, using: &generator) }
        var c = [Float](repeating: 0, count: n * n)
        let start = DispatchTime.now().uptimeNanoseconds
        c.withUnsafeMutableBufferPointer { cBuffer in
            BLAS.sgemm(.none, .none, m: n, n: n, k: n, a: a, lda: n, b: b, ldb: n,
                       c: cBuffer.baseAddress!, ldc: n)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var maxDifference: Float = 0
        for i in 0..<n {
            for j in 0..<n {
                var sum: Float = 0
                for p in 0..<n { sum += a[i * n + p] * b[p * n + j] }
                maxDifference = max(maxDifference, abs(sum - c[i * n + j]))
            }
        }
        // Float32 sums of n products of values in [-1, 1] differ by order-of-summation rounding.
        let tolerance = Float(n) * 4 * Float.ulpOfOne
        return Report(maxAbsoluteDifference: maxDifference, tolerance: tolerance,
                      gflops: 2 * Double(n * n * n) / max(seconds, 1e-9) / 1e9)
    }
}

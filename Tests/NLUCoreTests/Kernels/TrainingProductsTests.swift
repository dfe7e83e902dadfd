import Testing
@testable import NLUCore

/// The training products (`C (+)= op(A)·op(B) + bias` on the packed GEMM with per-call packing)
/// against a naive Double triple loop written here, at every instruction level the CPU runs: the
/// three forms of a dense layer (x·Wᵀ, dy·W, dyᵀ·x) and Aᵀ·Bᵀ, odd sizes (m = 1, 2, 17; n and k
/// off the 32-column panel and the register blocks; k past the AVX2 level's K block; k = 0),
/// strided operands, accumulate on and off, with and without bias, one instance reused across
/// shapes (its scratch grown, then smaller products in it), and a product large enough to split
/// over the pool's threads; the calling-thread entry likewise, with a scale. The packed path is
/// forced (no small products left to `sgemm`).
@Suite struct TrainingProductsTests {
    // (m, k, n)
    static let shapes: [(Int, Int, Int)] = [(1, 7, 33), (2, 5, 70), (17, 37, 95), (17, 1, 3), (2, 1100, 40), (3, 0, 5),
                                            (40, 300, 200)]
    static let forms: [(BLAS.Transpose, BLAS.Transpose)] = [(.none, .transpose), (.none, .none), (.transpose, .none),
                                                            (.transpose, .transpose)]

    @Test(arguments: CPULevel.runnable.map(\.rawValue))
    func matchesNaiveTripleLoop(level: Int) {
        let products = TrainingProducts(smallProductLimit: 0)
        for (m, k, n) in Self.shapes {
            for (transposeA, transposeB) in Self.forms {
                for strided in [false, true] {
                    for accumulate in [false, true] {
                        for withBias in [false, true] {
                            // The threaded shape with two of the combinations: the per-element code is
                            // the small shapes', and the Double reference loop is slow in debug builds.
                            if m * k * n > 100_000, strided != accumulate || accumulate != withBias { continue }
                            check(products, m: m, k: k, n: n, transposeA: transposeA, transposeB: transposeB, strided: strided,
                                  accumulate: accumulate, withBias: withBias, level: level)
                        }
                    }
                }
            }
        }
    }

    /// The calling-thread entry (attention's per-head products) on the same shapes and forms, with
    /// and without a scale, c overwritten, in scratch sized as its doc asks.
    @Test(arguments: CPULevel.runnable.map(\.rawValue))
    func onThisThreadMatchesNaiveTripleLoop(level: Int) {
        for (m, k, n) in Self.shapes where m * k * n <= 100_000 {
            for (transposeA, transposeB) in Self.forms {
                for strided in [false, true] {
                    for alpha: Float in [1, 0.125] {
                        check(nil, m: m, k: k, n: n, transposeA: transposeA, transposeB: transposeB, strided: strided,
                              accumulate: false, withBias: false, alpha: alpha, level: level)
                    }
                }
            }
        }
    }

    /// One product: operands stored as op() asks (`k × m` for Aᵀ, `n × k` for Bᵀ), their padding
    /// columns NaN (read, they would poison the result), c's padding a sentinel that must survive.
    /// Without `products`, the product runs on ``TrainingProducts/multiplyOnThisThread(_:_:m:n:k:alpha:a:lda:b:ldb:c:ldc:panels:transposed:)``.
    func check(_ products: TrainingProducts?, m: Int, k: Int, n: Int, transposeA: BLAS.Transpose, transposeB: BLAS.Transpose,
               strided: Bool, accumulate: Bool, withBias: Bool, alpha: Float = 1, level: Int) {
        var generator = SplitMix64(seed: UInt64(m * 1_000_000 + k * 1000 + n))
        let (aRows, aColumns) = transposeA == .none ? (m, k) : (k, m)
        let (bRows, bColumns) = transposeB == .none ? (k, n) : (n, k)
        let lda = max(1, aColumns + (strided ? 3 : 0)), ldb = max(1, bColumns + (strided ? 2 : 0)), ldc = n + (strided ? 5 : 0)
        var a = [Float](repeating: .nan, count: max(1, aRows * lda)), b = [Float](repeating: .nan, count: max(1, bRows * ldb))
        for row in 0..<aRows { for column in 0..<aColumns { a[row * lda + column] = Float.random(in: -1...1, using: &generator) } }
        for row in 0..<bRows { for column in 0..<bColumns { b[row * ldb + column] = Float.random(in: -1...1, using: &generator) } }
        let start = randomScalars(m * n, using: &generator), bias = randomScalars(n, using: &generator)
        let sentinel: Float = 12345
        var c = [Float](repeating: sentinel, count: m * ldc)
        for row in 0..<m { for column in 0..<n { c[row * ldc + column] = start[row * n + column] } }
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                bias.withUnsafeBufferPointer { biasValues in
                    c.withUnsafeMutableBufferPointer { c in
                        Kernels.withInstructionLevel(level) {
                            if let products {
                                products.multiply(transposeA, transposeB, m: m, n: n, k: k, a: a.baseAddress!, lda: lda,
                                                  b: b.baseAddress!, ldb: ldb, c: c.baseAddress!, ldc: ldc, accumulate: accumulate,
                                                  bias: withBias ? biasValues.baseAddress : nil)
                                return
                            }
                            let panelFloats = TrainingProducts.packedSize(inner: min(k, TrainingProducts.depthBlock), width: n)
                            let panels = UnsafeMutableRawPointer.allocate(byteCount: panelFloats * 4, alignment: 64)
                                .bindMemory(to: Float.self, capacity: panelFloats)
                            let transposed = UnsafeMutablePointer<Float>.allocate(capacity: max(1, m * k))
                            defer { panels.deallocate(); transposed.deallocate() }
                            TrainingProducts.multiplyOnThisThread(transposeA, transposeB, m: m, n: n, k: k, alpha: alpha,
                                                                  a: a.baseAddress!, lda: lda, b: b.baseAddress!, ldb: ldb,
                                                                  c: c.baseAddress!, ldc: ldc, panels: panels, transposed: transposed,
                                                                  smallProductLimit: 0)
                        }
                    }
                }
            }
        }
        let label = "level \(level), m \(m), k \(k), n \(n), \(transposeA)·\(transposeB), strided \(strided), "
            + "accumulate \(accumulate), bias \(withBias), alpha \(alpha)\(products == nil ? ", on this thread" : "")"
        var worstExcess = -Double.infinity, padding = true
        for row in 0..<m {
            for column in 0..<n {
                var sum = 0.0, magnitude = 0.0
                for inner in 0..<k {
                    let left = Double(transposeA == .none ? a[row * lda + inner] : a[inner * lda + row])
                    let right = Double(transposeB == .none ? b[inner * ldb + column] : b[column * ldb + inner])
                    sum += left * right
                    magnitude += abs(left * right)
                }
                sum *= Double(alpha)
                magnitude *= Double(alpha)
                if accumulate { sum += Double(start[row * n + column]); magnitude += abs(Double(start[row * n + column])) }
                if withBias { sum += Double(bias[column]); magnitude += abs(Double(bias[column])) }
                // A float sum of k + 2 terms in any order is within (k + 2)·2⁻²⁴ of Σ|terms| of the exact
                // sum (recursive summation's bound; each FMA rounds once); 1e-7 absolute for exact zeros.
                let tolerance = Double(k + 3) * 0x1p-24 * magnitude + 1e-7  // + 1: alpha's rounding
                let actual = Double(c[row * ldc + column])
                worstExcess = max(worstExcess, actual.isNaN ? .infinity : abs(actual - sum) - tolerance)
            }
            for column in n..<ldc where c[row * ldc + column] != sentinel { padding = false }
        }
        #expect(worstExcess <= 0, "\(label): past the bound by \(worstExcess)")
        #expect(padding, "\(label): wrote past n in a strided row of c")
    }

    /// A dense layer's three products (the forward with its bias, dW accumulated, dx overwritten)
    /// equal the same products through BLAS within float rounding, on a shape larger than a panel
    /// in every dimension and rows not a multiple of any register block, one instance serving all three.
    @Test func denseLayerProductsMatchBLAS() {
        let rows = 19, input = 45, output = 70
        var generator = SplitMix64(seed: 3)
        let x = randomScalars(rows * input, using: &generator), w = randomScalars(output * input, using: &generator)
        let b = randomScalars(output, using: &generator), dy = randomScalars(rows * output, using: &generator)
        let startW = randomScalars(output * input, using: &generator)
        var y = [Float](repeating: .nan, count: rows * output), dx = [Float](repeating: .nan, count: rows * input)
        var dW = startW
        var yBLAS = [Float](repeating: 0, count: rows * output), dxBLAS = [Float](repeating: 0, count: rows * input)
        var dWBLAS = startW
        let products = TrainingProducts(smallProductLimit: 0)
        products.multiply(.none, .transpose, m: rows, n: output, k: input, a: x, lda: input, b: w, ldb: input, c: &y, ldc: output,
                          bias: b)
        products.multiply(.transpose, .none, m: output, n: input, k: rows, a: dy, lda: output, b: x, ldb: input, c: &dW,
                          ldc: input, accumulate: true)
        products.multiply(.none, .none, m: rows, n: input, k: output, a: dy, lda: output, b: w, ldb: input, c: &dx, ldc: input)
        for row in 0..<rows { for column in 0..<output { yBLAS[row * output + column] = b[column] } }
        BLAS.sgemm(.none, .transpose, m: rows, n: output, k: input, a: x, lda: input, b: w, ldb: input, beta: 1, c: &yBLAS, ldc: output)
        BLAS.sgemm(.transpose, .none, m: output, n: input, k: rows, a: dy, lda: output, b: x, ldb: input, beta: 1, c: &dWBLAS, ldc: input)
        BLAS.sgemm(.none, .none, m: rows, n: input, k: output, a: dy, lda: output, b: w, ldb: input, c: &dxBLAS, ldc: input)
        // Sums of at most 70 products of magnitude ≤ 1, summed in different orders: ~1e-6 apart.
        #expect(maxAbsoluteDifference(y, yBLAS) < 1e-5)
        #expect(maxAbsoluteDifference(dW, dWBLAS) < 1e-5)
        #expect(maxAbsoluteDifference(dx, dxBLAS) < 1e-5)
        // Below TrainingProducts.smallProduct the default instance is `sgemm` itself, to the bit.
        var ySmall = [Float](repeating: .nan, count: rows * output)
        TrainingProducts().multiply(.none, .transpose, m: rows, n: output, k: input, a: x, lda: input, b: w, ldb: input,
                                    c: &ySmall, ldc: output, bias: b)
        #expect(rows * output * input < TrainingProducts.smallProduct && ySmall == yBLAS)
    }
}

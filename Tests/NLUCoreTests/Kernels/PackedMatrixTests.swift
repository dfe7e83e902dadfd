import Foundation
import Testing
@testable import NLUCore

/// The packed small-M SGEMM with its fused epilogue against a naive Double loop written here, at
/// every instruction level: both packings, odd sizes (partial panels, leftover rows, m = 1, k = 1),
/// strided rows (lda > k, ldc > n), accumulate, bias and each activation, threaded sizes and
/// `multiplySerial`.
@Suite struct PackedMatrixTests {
    // (rows m, inner k, width n); 777 rows cross two row blocks of the kernel; (5, 1100, 40) runs the
    // AVX2 level's K blocks (1024) for its 3-row block and its 2 leftover rows, partial sums and
    // epilogue in the last block; the last is large enough for `multiply` to split panels over threads.
    static let shapes: [(Int, Int, Int)] = [(1, 1, 1), (777, 3, 40), (1, 7, 33), (2, 5, 33), (3, 1, 40), (9, 17, 64), (17, 31, 95),
                                            (5, 1100, 40), (32, 256, 1024)]
    static let activations: [PackedMatrix.Activation] = [.none, .gelu, .geluTanh, .relu]

    /// The activation in Double: GELU through Foundation's erf and tanh.
    static func reference(_ activation: PackedMatrix.Activation, _ x: Double) -> Double {
        switch activation {
        case .none: x
        case .gelu: 0.5 * x * (1 + erf(x / 2.0.squareRoot()))
        case .geluTanh: 0.5 * x * (1 + tanh((2 / Double.pi).squareRoot() * (x + 0.044715 * x * x * x)))
        case .relu: max(x, 0)
        }
    }

    @Test(arguments: [0, 1, 2])
    func matchesNaiveProduct(level: Int) {
        for (m, k, n) in Self.shapes {
            for transposed in [false, true] {
                var generator = SplitMix64(seed: UInt64(m * 10_000 + k * 100 + n))
                // The weight is [n, k] (B = weightᵀ) or [k, n] (B = weight).
                let weightRows = transposed ? n : k, weightColumns = transposed ? k : n
                let weight = randomScalars(weightRows * weightColumns, using: &generator)
                let xs = randomScalars(m * k, using: &generator)
                let start = randomScalars(m * n, using: &generator)
                let bias = randomScalars(n, using: &generator)
                // Σ x·B in Double, once per shape; the epilogue is applied per case below.
                var products = [Double](repeating: 0, count: m * n)
                for row in 0..<m {
                    for column in 0..<n {
                        var sum = 0.0
                        for inner in 0..<k {
                            let b = transposed ? weight[column * k + inner] : weight[inner * n + column]
                            sum += Double(xs[row * k + inner]) * Double(b)
                        }
                        products[row * n + column] = sum
                    }
                }
                let packed = weight.withUnsafeBufferPointer {
                    PackedMatrix(weight: $0.baseAddress!, rows: weightRows, columns: weightColumns, transposed: transposed)
                }
                #expect(packed.inner == k && packed.width == n)
                for strided in [false, true] {
                    for accumulate in [false, true] {
                        for withBias in [false, true] {
                            for activation in Self.activations {
                                // The large shape (threaded) with a subset of epilogues: the epilogue code is
                                // the same for every shape, and runs at a lowered level are kept short, since
                                // the level is process-wide and other suites run concurrently.
                                if m * k * n > 100_000, accumulate != withBias || activation == .geluTanh || activation == .relu {
                                    continue
                                }
                                for serial in [false, true] {
                                    let label = "level \(level), m \(m), k \(k), n \(n), transposed \(transposed), strided \(strided), "
                                        + "accumulate \(accumulate), bias \(withBias), \(activation), serial \(serial)"
                                    check(packed, m: m, xs: xs, start: start, bias: withBias ? bias : nil, products: products,
                                          strided: strided, accumulate: accumulate, activation: activation, serial: serial,
                                          level: level, label: label)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Runs one product into a buffer whose padding columns hold a sentinel, with NaN in the
    /// padding of `x` (read, it would poison the results), and compares with the Double reference.
    func check(_ packed: PackedMatrix, m: Int, xs: [Float], start: [Float], bias: [Float]?, products: [Double],
               strided: Bool, accumulate: Bool, activation: PackedMatrix.Activation, serial: Bool, level: Int, label: String) {
        let k = packed.inner, n = packed.width
        let lda = strided ? k + 3 : k, ldc = strided ? n + 5 : n
        let sentinel: Float = 12345
        var x = [Float](repeating: .nan, count: m * lda)
        var output = [Float](repeating: sentinel, count: m * ldc)
        for row in 0..<m {
            for inner in 0..<k { x[row * lda + inner] = xs[row * k + inner] }
            for column in 0..<n { output[row * ldc + column] = start[row * n + column] }
        }
        x.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { output in
                (bias ?? []).withUnsafeBufferPointer { biasBuffer in
                    let biasPointer = bias == nil ? nil : biasBuffer.baseAddress
                    Kernels.withInstructionLevel(level) {
                        if serial {
                            packed.multiplySerial(x.baseAddress!, rows: m, lda: lda, into: output.baseAddress!, ldc: ldc,
                                                  accumulate: accumulate, bias: biasPointer, activation: activation)
                        } else {
                            packed.multiply(x.baseAddress!, rows: m, lda: lda, into: output.baseAddress!, ldc: ldc,
                                            accumulate: accumulate, bias: biasPointer, activation: activation)
                        }
                    }
                }
            }
        }
        var worst = 0.0, padding = true
        for row in 0..<m {
            for column in 0..<n {
                var value = products[row * n + column]
                if accumulate { value += Double(start[row * n + column]) }
                if let bias { value += Double(bias[column]) }
                let expected = Self.reference(activation, value)
                let actual = Double(output[row * ldc + column])
                worst = actual.isNaN ? .infinity : max(worst, abs(actual - expected))
            }
            for column in n..<ldc where output[row * ldc + column] != sentinel { padding = false }
        }
        // Float sums of up to 256 products of magnitude ≤ 1 (error ~1e-5), through activations of
        // slope ≤ 1.13 whose float forms are within ~1e-6 of the Double ones.
        #expect(worst < 1e-4, "\(label): \(worst)")
        #expect(padding, "\(label): wrote past n in a strided output row")
    }

    /// The fused epilogue equals the unfused path (plain packed product, then `Kernels.addBias`,
    /// then the standalone activation kernel) within 1e-6 relative (absolute below magnitude 1):
    /// the same element functions. Inputs are multiples of 1/2 and 1/64, so every sum is exact in
    /// Float and both paths feed the activation the same values even if a concurrent test changes
    /// the instruction level (a global) in between; the activations then differ by a few ulps at most.
    @Test(arguments: [0, 1, 2])
    func fusedEpilogueMatchesSeparateKernels(level: Int) {
        let m = 50, k = 300, n = 200   // 200 columns: six full panels and a partial one
        var generator = SplitMix64(seed: 42)
        let grid = { (count: Int, steps: Int, unit: Float) in
            (0..<count).map { _ in Float(Int.random(in: -steps...steps, using: &generator)) * unit }
        }
        let weight = Tensor<Float>(shape: [n, k], scalars: grid(n * k, 16, 1.0 / 64))
        let x = grid(m * k, 2, 0.5)
        let bias = grid(n, 64, 1.0 / 64)
        let packed = PackedMatrix(linearWeight: weight)
        #expect(packed.inner == k && packed.width == n)
        let separate: [(PackedMatrix.Activation, (UnsafeMutablePointer<Float>, Int) -> Void)] = [
            (.none, { _, _ in }), (.gelu, { Kernels.gelu($0, count: $1) }),
            (.geluTanh, { Kernels.geluTanh($0, count: $1) }), (.relu, { Kernels.relu($0, count: $1) }),
        ]
        for (activation, kernel) in separate {
            var fused = [Float](repeating: 0, count: m * n), unfused = fused
            Kernels.withInstructionLevel(level) {
                packed.multiply(x, rows: m, into: &fused, bias: bias, activation: activation)
                packed.multiply(x, rows: m, into: &unfused)
                unfused.withUnsafeMutableBufferPointer { rows in
                    Kernels.addBias(rows.baseAddress!, rowCount: m, rowLength: n, bias: bias)
                    kernel(rows.baseAddress!, m * n)
                }
            }
            var worst: Float = 0
            for (a, b) in zip(fused, unfused) { worst = max(worst, abs(a - b) / max(abs(b), 1)) }
            #expect(worst <= 1e-6, "level \(level), \(activation): relative difference \(worst)")
        }
    }

    /// `init(linearWeight:)` packs an `nn.Linear` weight `[out, in]` so that `multiply` gives
    /// `Kernels.linear` (BLAS) within float rounding.
    @Test func linearWeightMatchesLinear() {
        var generator = SplitMix64(seed: 7)
        let weight = randomTensor([70, 45], using: &generator)
        let bias = randomTensor([70], using: &generator)
        let x = randomTensor([5, 45], using: &generator)
        let expected = Kernels.linear(x, weight: weight, bias: bias).scalars
        var output = [Float](repeating: 0, count: 5 * 70)
        PackedMatrix(linearWeight: weight).multiply(x.scalars, rows: 5, into: &output, bias: bias.scalars)
        #expect(maxAbsoluteDifference(output, expected) < 1e-5)
    }
}

import Testing
@testable import NLUCore

/// The element-wise kernels give bit-identical results in place (source = destination, the
/// vectorized one-pointer loop) and out of place (two buffers).
@Suite struct InPlaceKernelTests {
    typealias InPlace = @Sendable (UnsafeMutablePointer<Float>, Int) -> Void
    typealias OutOfPlace = @Sendable (inout Tensor<Float>) -> Void

    static let kernels: [(String, InPlace, OutOfPlace)] = [
        ("gelu", { Kernels.gelu($0, count: $1) }, { Kernels.gelu(&$0) }),
        ("geluTanh", { Kernels.geluTanh($0, count: $1) }, { Kernels.geluTanh(&$0) }),
        ("tanh", { Kernels.tanh($0, count: $1) }, { Kernels.tanh(&$0) }),
        ("sigmoid", { Kernels.sigmoid($0, count: $1) }, { Kernels.sigmoid(&$0) }),
        ("relu", { Kernels.relu($0, count: $1) }, { Kernels.relu(&$0) }),
    ]

    @Test(arguments: [1, 15, 16, 17, 1000, 40_001, 1_100_001])
    func inPlaceEqualsOutOfPlace(_ count: Int) {
        var generator = SplitMix64(seed: UInt64(count))
        let input = randomTensor([count], in: -12...12, using: &generator)
        for (name, inPlace, outOfPlace) in Self.kernels {
            let shared = input   // a second reference: the Tensor form writes a fresh buffer
            var outOfPlaceResult = shared
            var values = input.scalars
            // One instruction level for both runs (other tests lower it for a while).
            Kernels.withInstructionLevel(2) {
                outOfPlace(&outOfPlaceResult)
                values.withUnsafeMutableBufferPointer { inPlace($0.baseAddress!, count) }
            }
            #expect(values == outOfPlaceResult.scalars, "\(name) at count \(count)")
            #expect(values != input.scalars || name == "relu", "\(name) changed nothing")
        }
    }

    /// The row kernels too: in place (the encoder's attention scores and hidden states) must equal
    /// out of place bit for bit, with and without a softmax mask, threaded or not.
    @Test(arguments: [(1, 1), (3, 17), (384, 384), (64, 768)])
    func rowKernelsInPlaceEqualOutOfPlace(rows: Int, length: Int) {
        var generator = SplitMix64(seed: UInt64(rows * 7919 + length))
        let input = randomTensor([rows, length], in: -8...8, using: &generator)
        let mask = Tensor<Float>(shape: [length], scalars: (0..<length).map { $0 % 5 == 4 ? -10_000 : 0 })
        let gamma = randomTensor([length], using: &generator), beta = randomTensor([length], using: &generator)
        typealias Kernel = (inPlace: (UnsafeMutablePointer<Float>) -> Void, outOfPlace: (inout Tensor<Float>) -> Void)
        let kernels: [(String, Kernel)] = [
            ("softmax", ({ Kernels.softmax($0, rowCount: rows, rowLength: length) }, { Kernels.softmax(&$0) })),
            ("masked softmax", ({ pointer in
                mask.withUnsafeBufferPointer { Kernels.softmax(pointer, rowCount: rows, rowLength: length, additiveMask: $0.baseAddress) }
            }, { Kernels.softmax(&$0, additiveMask: mask) })),
            ("logSoftmax", ({ Kernels.logSoftmax($0, rowCount: rows, rowLength: length) }, { Kernels.logSoftmax(&$0) })),
            ("layerNorm", ({ pointer in
                gamma.withUnsafeBufferPointer { g in
                    beta.withUnsafeBufferPointer { b in
                        Kernels.layerNorm(pointer, rowCount: rows, rowLength: length, weight: g.baseAddress!, bias: b.baseAddress!,
                                          epsilon: 1e-5)
                    }
                }
            }, { Kernels.layerNorm(&$0, weight: gamma, bias: beta, epsilon: 1e-5) })),
        ]
        for (name, kernel) in kernels {
            let shared = input
            var outOfPlaceResult = shared   // shared storage: the Tensor form writes a fresh buffer
            var values = input.scalars
            Kernels.withInstructionLevel(2) {
                kernel.outOfPlace(&outOfPlaceResult)
                values.withUnsafeMutableBufferPointer { kernel.inPlace($0.baseAddress!) }
            }
            #expect(values == outOfPlaceResult.scalars, "\(name), \(rows)×\(length)")
            #expect(values != input.scalars, "\(name) changed nothing")
        }
    }
}

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
            outOfPlace(&outOfPlaceResult)
            var values = input.scalars
            values.withUnsafeMutableBufferPointer { inPlace($0.baseAddress!, count) }
            #expect(values == outOfPlaceResult.scalars, "\(name) at count \(count)")
            #expect(values != input.scalars || name == "relu", "\(name) changed nothing")
        }
    }
}

import Foundation
import Testing
@testable import NLUCore

/// The training pass's activation kernels (`Kernels.trainingActivation`, `trainingActivationBackward`),
/// at every CPU level this machine runs: the exact-erf GELU against PyTorch's own bits
/// (Tests/Fixtures/training/gelu-pytorch.json from scripts/fixtures/gelu_pytorch.py) and against
/// ``PyTorchGELUReference`` on a dense sweep, bit for bit; every activation against Double precision.
@Suite struct TrainingActivationKernelTests {
    /// A dense grid over [-5, 5], its mirror of small magnitudes (2^-1 ... 2^-140, subnormals included),
    /// and the edges.
    static let inputs: [Float] = {
        var values = (0...2_000_000).map { Float(-5 + 10 * Double($0) / 2_000_000) }
        for exponent in 1...140 {
            for mantissa: Float in [1, 1.1, 1.37, 1.5, 1.99] {
                let value = mantissa * Float(sign: .plus, exponent: -exponent, significand: 1)
                values += [value, -value]
            }
        }
        return values + [0, -0, 3.9375, -3.9375, 3.93, 4, 4.01, 9, -9, 30, -30, 87.5, -87.5, 1e30, -1e30, .infinity, -.infinity]
    }()

    /// GELU and GELU′·upstream of `inputs` at `level`.
    static func gelu(_ inputs: [Float], upstream: [Float], at level: CPULevel) -> (forward: [Float], backward: [Float]) {
        var forward = [Float](repeating: .nan, count: inputs.count), backward = upstream
        CPULevel.with(level) {
            inputs.withUnsafeBufferPointer { x in
                forward.withUnsafeMutableBufferPointer {
                    Kernels.trainingActivation(.gelu, x.baseAddress!, into: $0.baseAddress!, count: x.count)
                }
                backward.withUnsafeMutableBufferPointer {
                    Kernels.trainingActivationBackward(.gelu, x.baseAddress!, gradient: $0.baseAddress!, count: x.count)
                }
            }
        }
        return (forward, backward)
    }

    /// Expects the kernels' GELU and GELU′·upstream of `inputs` to have the bits of `forward` and
    /// `backward` (NaN compares by its bits) at every level this machine runs.
    static func expectBits(_ inputs: [Float], upstream: [Float], forward: [Float], backward: [Float]) {
        for level in CPULevel.runnable {
            let ours = gelu(inputs, upstream: upstream, at: level)
            for (name, actual, expected) in [("forward", ours.forward, forward), ("backward", ours.backward, backward)] {
                let misses = inputs.indices.filter { actual[$0].bitPattern != expected[$0].bitPattern }
                #expect(misses.isEmpty, "\(level) \(name): \(misses.count) differ, first at \(misses.first.map { inputs[$0] } ?? 0)")
            }
        }
    }

    struct PyTorchFixture: Decodable {
        var torch: String
        var input: [UInt32], upstream: [UInt32], forward: [UInt32], backward: [UInt32]
    }

    /// The bar: PyTorch's `F.gelu` and `gelu_backward` bits for all 4096 fixture inputs (specials, ±inf
    /// and ±1e30 included), at every level. Tolerance: none (the formula is PyTorch's sequence of roundings).
    @Test func exactGELUGivesPyTorchsBits() throws {
        let url = fixturesDirectory.appendingPathComponent("training/gelu-pytorch.json")
        let fixture = try JSONDecoder().decode(PyTorchFixture.self, from: Data(contentsOf: url))
        let inputs = fixture.input.map(Float.init(bitPattern:)), upstream = fixture.upstream.map(Float.init(bitPattern:))
        let forward = fixture.forward.map(Float.init(bitPattern:)), backward = fixture.backward.map(Float.init(bitPattern:))
        try #require(inputs.count == 4096 && upstream.count == 4096 && forward.count == 4096 && backward.count == 4096)
        Self.expectBits(inputs, upstream: upstream, forward: forward, backward: backward)
    }

    /// The C kernels at every level (the portable one without an FMA instruction) against the scalar
    /// Swift reference on two million inputs and the edges, bit for bit.
    @Test func exactGELUMatchesItsScalarReferenceEverywhere() {
        let inputs = Self.inputs
        let upstream = inputs.indices.map { Float(1 + 0.25 * Double($0 % 7)) * ($0 % 3 == 0 ? -1 : 1) }
        let forward = inputs.map(PyTorchGELUReference.forward)
        let backward = zip(inputs, upstream).map { PyTorchGELUReference.derivative($0) * $1 }
        Self.expectBits(inputs, upstream: upstream, forward: forward, backward: backward)
    }

    /// PyTorch's edges: GELU(±inf) is inf and NaN (inf·(1 - 1)), GELU′ is 1 and 0 far out, NaN stays NaN.
    @Test func exactGELUEdges() {
        let ours = Self.gelu([.infinity, -.infinity, 100, -100, .nan, 0, -0], upstream: [1, 1, 1, 1, 1, 1, 1], at: CPULevel.runnable.last ?? .portable)
        #expect(ours.forward[0] == .infinity && ours.forward[1].isNaN && ours.forward[2] == 100 && ours.forward[3] == 0)
        #expect(ours.forward[4].isNaN && ours.forward[5] == 0 && ours.forward[6] == 0)
        #expect(ours.backward[2] == 1 && ours.backward[3] == 0 && ours.backward[4].isNaN && ours.backward[5] == 0.5)
    }

    /// Forward and backward of each activation, element by element, against Double on the grid
    /// (|x| ≤ 12): the forward error relative to |x| (x·Φ(x) inherits Φ's absolute error), the
    /// backward error relative to the upstream gradient (the derivative's absolute error).
    func check(_ activation: Kernels.TrainingActivation, forward: (Double) -> Double, derivative: (Double) -> Double,
               forwardBound: Double, backwardBound: Double) {
        let inputs = Self.inputs.filter { abs($0) <= 12 }
        let count = inputs.count
        let upstream = (0..<count).map { Float(1 + 0.25 * Double($0 % 7)) }
        for level in CPULevel.runnable {
            var output = [Float](repeating: .nan, count: count), gradient = upstream
            CPULevel.with(level) {
                inputs.withUnsafeBufferPointer { x in
                    output.withUnsafeMutableBufferPointer {
                        Kernels.trainingActivation(activation, x.baseAddress!, into: $0.baseAddress!, count: count)
                    }
                    gradient.withUnsafeMutableBufferPointer {
                        Kernels.trainingActivationBackward(activation, x.baseAddress!, gradient: $0.baseAddress!, count: count)
                    }
                }
            }
            var worstForward = 0.0, worstBackward = 0.0
            for index in 0..<count {
                let x = Double(inputs[index])
                // Absolute error scaled by |x| (forward: x·Φ(x)) or by the upstream gradient (backward).
                worstForward = max(worstForward, abs(Double(output[index]) - forward(x)) / max(abs(x), 1e-30))
                let expected = Double(upstream[index]) * derivative(x)
                worstBackward = max(worstBackward, abs(Double(gradient[index]) - expected) / Double(upstream[index]))
            }
            #expect(worstForward <= forwardBound, "\(activation) \(level) forward: \(worstForward)")
            #expect(worstBackward <= backwardBound, "\(activation) \(level) backward: \(worstBackward)")
        }
    }

    /// PyTorch's GELU is an approximation of x·Φ(x) (Abramowitz & Stegun's erf, 1.5e-7 absolute, and
    /// oneDNN's exp): this bounds how far, so that a wrong constant cannot hide behind the bitwise tests'
    /// shared reading of the formula.
    @Test func exactGELUAndItsDerivativeStayNearDouble() {
        check(.gelu, forward: { 0.5 * $0 * (1 + Foundation.erf($0 / 2.0.squareRoot())) },
              derivative: { 0.5 * (1 + Foundation.erf($0 / 2.0.squareRoot())) + $0 * Foundation.exp(-0.5 * $0 * $0) / (2 * Double.pi).squareRoot() },
              forwardBound: 3.5e-7, backwardBound: 4e-7)  // measured 2.74e-7, 3.07e-7
    }

    @Test func tanhGELUAndItsDerivativeMatchDouble() {
        let scale = (2 / Double.pi).squareRoot()
        check(.geluTanh, forward: { 0.5 * $0 * (1 + Foundation.tanh(scale * ($0 + 0.044715 * $0 * $0 * $0))) },
              derivative: { x in
                  let t = Foundation.tanh(scale * (x + 0.044715 * x * x * x))
                  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * scale * (1 + 3 * 0.044715 * x * x)
              }, forwardBound: 2e-7, backwardBound: 1e-6)  // measured 1.09e-7, 6.0e-7 (tanh1's error times x·(1 - t²) near x = 5)
    }

    @Test func reluAndItsDerivative() {
        check(.relu, forward: { max($0, 0) }, derivative: { $0 > 0 ? 1 : 0 }, forwardBound: 0, backwardBound: 0)
    }
}

/// PyTorch's CPU exact-erf GELU (oneDNN's AVX2 `gelu_erf`: Abramowitz & Stegun 7.1.26 with oneDNN's exp)
/// in scalar Swift, written from the sequence of operations rather than from the C kernel: `addingProduct`
/// is the fused multiply-add, and Swift never fuses `*` and `+` itself.
enum PyTorchGELUReference {
    static func constant(_ bits: UInt32) -> Float { Float(bitPattern: bits) }

    static func exp(_ x: Float) -> Float {
        let low = constant(0xc2ae_ac50), high = constant(0x42b1_7218)   // ln FLT_MIN, ln FLT_MAX
        let clamped = min(max(x.isNaN ? low : x, low), high)
        let n = (clamped * constant(0x3fb8_aa3b) + 0.5).rounded(.down)  // log₂e
        let r = clamped.addingProduct(-n, constant(0x3f31_7218))         // ln 2
        var p = constant(0x3c07_cfce)
        for coefficient: UInt32 in [0x3d2b_9d0d, 0x3e2a_ad40, 0x3eff_fee3, 0x3f7f_fffb] { p = constant(coefficient).addingProduct(p, r) }
        p = Float(1).addingProduct(p, r)
        let halfScale = x < low ? 0 : Float(bitPattern: UInt32(Int(n) - 1 + 127) << 23)
        return p * halfScale * 2
    }

    /// erf(R) and e^{-R²}.
    static func erf(_ R: Float) -> (erf: Float, q: Float) {
        let w = 1 / Float(1).addingProduct(constant(0x3ea7_ba05), abs(R))
        let q = exp(-(R * R))
        var p = constant(0x3f87_dc22)
        for coefficient: UInt32 in [0xbfba_00e3, 0x3fb5_f0e3, 0xbe91_a98e, 0x3e82_7906] { p = constant(coefficient).addingProduct(p, w) }
        let magnitude = Float(1).addingProduct(-q * w, p)
        return (Float(bitPattern: magnitude.bitPattern ^ (R.bitPattern & 0x8000_0000)), q)
    }

    static func forward(_ s: Float) -> Float {
        let half = s * 0.5
        return half.addingProduct(erf(s * constant(0x3f35_04f3)).erf, half)
    }

    static func derivative(_ s: Float) -> Float {
        let R = s * constant(0x3f35_04f3)
        let (erf, q) = erf(R)
        return (R * constant(0x3f10_6eba) * q + 0.5).addingProduct(erf, 0.5)
    }
}

import Foundation
import Testing
@testable import NLUCore

/// The training pass's activation kernels (`Kernels.trainingActivation`, `accurateErf`) against
/// the same formulas in Double precision, at every CPU level this machine runs.
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
        return values + [0, -0, 3.9375, -3.9375, 3.93, 4, 4.01, 9, -9, 30, -30]
    }()

    static func ulp(_ value: Double) -> Double {
        let magnitude = Float(abs(value))
        return Double(magnitude == 0 ? Float.leastNonzeroMagnitude : magnitude.ulp)
    }

    /// Measured 0.62 ulp (AVX2) and 0.76 ulp (portable) over every float in [-4, 4].
    @Test func accurateErfIsWithinOneUlpOfDoubleErf() {
        for level in CPULevel.runnable {
            var values = Self.inputs
            CPULevel.with(level) { values.withUnsafeMutableBufferPointer { Kernels.accurateErf($0.baseAddress!, count: $0.count) } }
            var worst = 0.0, worstInput: Float = 0
            for (x, value) in zip(Self.inputs, values) {
                let reference = Foundation.erf(Double(x))
                let error = abs(Double(value) - reference) / Self.ulp(reference)
                if error > worst { (worst, worstInput) = (error, x) }
            }
            #expect(worst <= 1, "\(level): \(worst) ulp at \(worstInput)")
        }
    }

    @Test func accurateErfKeepsNaNAndSaturates() {
        var values: [Float] = [.nan, .infinity, -.infinity, 1e30, -1e30]
        values.withUnsafeMutableBufferPointer { Kernels.accurateErf($0.baseAddress!, count: $0.count) }
        #expect(values[0].isNaN)
        #expect(Array(values[1...]) == [1, -1, 1, -1])
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

    @Test func exactGELUAndItsDerivativeMatchDouble() {
        check(.gelu, forward: { 0.5 * $0 * (1 + Foundation.erf($0 / 2.0.squareRoot())) },
              derivative: { 0.5 * (1 + Foundation.erf($0 / 2.0.squareRoot())) + $0 * Foundation.exp(-0.5 * $0 * $0) / (2 * Double.pi).squareRoot() },
              forwardBound: 1.5e-7, backwardBound: 2.5e-7)  // measured 1.06e-7, 1.82e-7
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

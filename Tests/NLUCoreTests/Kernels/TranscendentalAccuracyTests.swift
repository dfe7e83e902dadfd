import Foundation
import Testing
@testable import NLUCore

/// The vectorized exp, erf, tanh and sigmoid kernels against Foundation's functions (evaluated
/// in Double) on dense grids of inputs. They run at the CPU's best level (`Kernels.instructionSet`).
@Suite struct TranscendentalAccuracyTests {
    /// Applies `kernel` in place to a copy of `inputs`.
    func evaluate(_ inputs: [Float], _ kernel: (UnsafeMutablePointer<Float>, Int) -> Void) -> [Float] {
        var values = inputs
        values.withUnsafeMutableBufferPointer { kernel($0.baseAddress!, $0.count) }
        return values
    }

    func grid(_ range: ClosedRange<Float>, count: Int) -> [Float] {
        (0..<count).map { range.lowerBound + (range.upperBound - range.lowerBound) * Float($0) / Float(count - 1) }
    }

    @Test func expIsWithinOneAndAHalfUlpOfFoundation() {
        let inputs = grid(-87...88.5, count: 400_001) + [0, 1e-8, -1e-8, 0.5, -0.5]
        let values = evaluate(inputs, { Kernels.exp($0, count: $1) })
        var worst: Double = 0
        for (x, value) in zip(inputs, values) {
            let reference = Foundation.exp(Double(x))
            worst = max(worst, abs(Double(value) - reference) / reference)
        }
        // About 1.3 ulp (float ulp is 2^-23 ≈ 1.19e-7 relative at worst); measured 7.9e-8.
        #expect(worst <= 1.5e-7, "max relative error \(worst)")
    }

    @Test func expHandlesTheFloatRangeEdges() {
        let values = evaluate([-.infinity, -200, -88, 0, 89, 200, .infinity, 1], { Kernels.exp($0, count: $1) })
        #expect(values[0] == 0 && values[1] == 0)
        #expect(values[2] >= 0 && values[2] < 1e-37)
        #expect(values[3] == 1)
        #expect(values[4] == .infinity && values[5] == .infinity && values[6] == .infinity)
        #expect(abs(values[7] - 2.718_281_8) <= 3e-7)
    }

    @Test func erfIsWithinFiveTenMillionthsOfFoundation() {
        let inputs = grid(-7...7, count: 200_001)
        let values = evaluate(inputs, { Kernels.erf($0, count: $1) })
        let worst = zip(inputs, values).map { abs(Double($1) - Foundation.erf(Double($0))) }.max() ?? 0
        #expect(worst <= 5e-7, "max absolute error \(worst)")
    }

    @Test func tanhIsAccurateAbsolutelyAndNearZeroRelatively() {
        let inputs = grid(-12...12, count: 200_001) + [1e-6, -3e-5, 0.6249, 0.6251, 40, -40]
        let values = evaluate(inputs, { Kernels.tanh($0, count: $1) })
        var worstAbsolute: Double = 0, worstRelative: Double = 0
        for (x, value) in zip(inputs, values) {
            let reference = Foundation.tanh(Double(x))
            worstAbsolute = max(worstAbsolute, abs(Double(value) - reference))
            if reference != 0 { worstRelative = max(worstRelative, abs(Double(value) - reference) / abs(reference)) }
        }
        #expect(worstAbsolute <= 1.5e-7, "max absolute error \(worstAbsolute)")
        #expect(worstRelative <= 2.5e-7, "max relative error \(worstRelative)")
    }

    @Test func sigmoidIsRelativelyAccurateIncludingTheTails() {
        let inputs = grid(-80...80, count: 160_001)
        let values = evaluate(inputs, { Kernels.sigmoid($0, count: $1) })
        let worst = zip(inputs, values).map { x, value in
            let reference = 1 / (1 + Foundation.exp(-Double(x)))
            return abs(Double(value) - reference) / reference
        }.max() ?? 0
        #expect(worst <= 2.5e-7, "max relative error \(worst)")
    }
}

import CKernels
import Foundation
import Testing
@testable import NLUCore

/// The fused LSTM step kernels (forward and backward) against the cell equations evaluated in Double here, at every
/// instruction level, with odd sizes (vector tails) and pre-activations wide enough to saturate.
@Suite struct LSTMCellKernelTests {
    @Test(arguments: [0, 1, 2])
    func matchesCellEquations(level: Int) {
        for (rows, hidden) in [(1, 1), (3, 17), (32, 256)] {
            var generator = SplitMix64(seed: UInt64(rows * 100 + hidden))
            let preActivation = randomTensor([rows, 4 * hidden], in: -12...12, using: &generator)
            let c0 = randomTensor([rows, hidden], in: -3...3, using: &generator)
            let gates = Tensor<Float>(shape: [rows, 4 * hidden], scalars: preActivation.scalars)
            let c1 = Tensor<Float>(shape: [rows, hidden]), h1 = Tensor<Float>(shape: [rows, hidden])
            Kernels.withInstructionLevel(level) {
                nlukit_lstm_cell_forward(gates.kernelPointer, c0.kernelPointer, c1.kernelPointer, h1.kernelPointer, rows, hidden)
            }
            func sigmoid(_ x: Float) -> Double { 1 / (1 + Foundation.exp(-Double(x))) }
            var worst = 0.0
            for row in 0..<rows {
                for unit in 0..<hidden {
                    let z = { (gate: Int) in preActivation.scalars[row * 4 * hidden + gate * hidden + unit] }
                    let i = sigmoid(z(0)), f = sigmoid(z(1)), g = Foundation.tanh(Double(z(2))), o = sigmoid(z(3))
                    let c = f * Double(c0.scalars[row * hidden + unit]) + i * g
                    let expected = [i, f, g, o, c, o * Foundation.tanh(c)]
                    let actual = (0..<4).map { Double(gates.scalars[row * 4 * hidden + $0 * hidden + unit]) }
                        + [Double(c1.scalars[row * hidden + unit]), Double(h1.scalars[row * hidden + unit])]
                    for (a, e) in zip(actual, expected) { worst = max(worst, abs(a - e)) }
                }
            }
            // A few float ulps of values of magnitude ≤ 4 (|c| ≤ 3 + 1).
            #expect(worst < 2e-6, "level \(level), \(rows)×\(hidden): \(worst)")
        }
    }

    @Test(arguments: [0, 1, 2])
    func backwardMatchesCellDerivatives(level: Int) {
        for (rows, hidden) in [(1, 1), (3, 17), (32, 256)] {
            var generator = SplitMix64(seed: UInt64(rows * 100 + hidden + 7))
            // Activated gates in (0, 1) for i, f, o and (-1, 1) for g.
            let gates = randomTensor([rows, 4 * hidden], in: 0.01...0.99, using: &generator)
            let c0 = randomTensor([rows, hidden], in: -3...3, using: &generator)
            let c1 = randomTensor([rows, hidden], in: -3...3, using: &generator)
            let upstream = randomTensor([rows, hidden], in: -1...1, using: &generator)
            let dhNext = randomTensor([rows, hidden], in: -1...1, using: &generator)
            let dcNext = randomTensor([rows, hidden], in: -1...1, using: &generator)
            let cellGradient = Tensor<Float>(shape: [rows, hidden], scalars: dcNext.scalars)
            let gateGradients = Tensor<Float>(shape: [rows, 4 * hidden])
            Kernels.withInstructionLevel(level) {
                nlukit_lstm_cell_backward(gates.kernelPointer, c0.kernelPointer, c1.kernelPointer, upstream.kernelPointer,
                                          dhNext.kernelPointer, cellGradient.kernelPointer, gateGradients.kernelPointer,
                                          rows, hidden)
            }
            var worst = 0.0
            for row in 0..<rows {
                for unit in 0..<hidden {
                    let gate = { (index: Int) in Double(gates.scalars[row * 4 * hidden + index * hidden + unit]) }
                    let (i, f, g, o) = (gate(0), gate(1), gate(2), gate(3))
                    let at = row * hidden + unit
                    let t = Foundation.tanh(Double(c1.scalars[at]))
                    let dh = Double(upstream.scalars[at]) + Double(dhNext.scalars[at])
                    let dc = dh * o * (1 - t * t) + Double(dcNext.scalars[at])
                    let expected = [dc * g * i * (1 - i), dc * Double(c0.scalars[at]) * f * (1 - f), dc * i * (1 - g * g),
                                    dh * t * o * (1 - o), dc * f]
                    let actual = (0..<4).map { Double(gateGradients.scalars[row * 4 * hidden + $0 * hidden + unit]) }
                        + [Double(cellGradient.scalars[at])]
                    for (a, e) in zip(actual, expected) { worst = max(worst, abs(a - e)) }
                }
            }
            // Values of magnitude ≤ 4: a few float ulps.
            #expect(worst < 2e-6, "level \(level), \(rows)×\(hidden): \(worst)")
        }
    }
}

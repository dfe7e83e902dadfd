import CKernels
import Foundation
import Testing
@testable import NLUCore

/// The fused LSTM step kernel against the cell equations evaluated in Double here, at every
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
}

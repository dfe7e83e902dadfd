import CKernels
import Foundation
import Testing
@testable import NLUCore

/// The fused GRU step kernels (forward and backward) against the cell equations (PyTorch's `nn.GRU`) evaluated in
/// Double here, at every instruction level, with odd sizes (vector tails) and pre-activations wide enough to saturate.
@Suite struct GRUCellKernelTests {
    @Test(arguments: [0, 1, 2])
    func matchesCellEquations(level: Int) {
        for (rows, hidden) in [(1, 1), (3, 17), (32, 256)] {
            var generator = SplitMix64(seed: UInt64(rows * 100 + hidden))
            let inputGates = randomTensor([rows, 3 * hidden], in: -8...8, using: &generator)
            let hiddenGates = randomTensor([rows, 3 * hidden], in: -4...4, using: &generator)
            let h0 = randomTensor([rows, hidden], in: -1...1, using: &generator)
            let gates = Tensor<Float>(shape: [rows, 3 * hidden], scalars: inputGates.scalars)
            let candidates = Tensor<Float>(shape: [rows, hidden]), h1 = Tensor<Float>(shape: [rows, hidden])
            Kernels.withInstructionLevel(level) {
                nlukit_gru_cell_forward(gates.kernelPointer, hiddenGates.kernelPointer, h0.kernelPointer,
                                        candidates.kernelPointer, h1.kernelPointer, rows, hidden)
            }
            func sigmoid(_ x: Double) -> Double { 1 / (1 + Foundation.exp(-x)) }
            var worst = 0.0
            for row in 0..<rows {
                for unit in 0..<hidden {
                    let x = { (gate: Int) in Double(inputGates.scalars[row * 3 * hidden + gate * hidden + unit]) }
                    let h = { (gate: Int) in Double(hiddenGates.scalars[row * 3 * hidden + gate * hidden + unit]) }
                    let r = sigmoid(x(0) + h(0)), z = sigmoid(x(1) + h(1)), n = Foundation.tanh(x(2) + r * h(2))
                    let previous = Double(h0.scalars[row * hidden + unit])
                    let expected = [r, z, n, h(2), (1 - z) * n + z * previous]
                    let actual = (0..<3).map { Double(gates.scalars[row * 3 * hidden + $0 * hidden + unit]) }
                        + [Double(candidates.scalars[row * hidden + unit]), Double(h1.scalars[row * hidden + unit])]
                    for (a, e) in zip(actual, expected) { worst = max(worst, abs(a - e)) }
                }
            }
            // A few float ulps of values of magnitude ≤ 4.
            #expect(worst < 2e-6, "level \(level), \(rows)×\(hidden): \(worst)")
        }
    }

    @Test(arguments: [0, 1, 2])
    func backwardMatchesCellDerivatives(level: Int) {
        for (rows, hidden) in [(1, 1), (3, 17), (32, 256)] {
            var generator = SplitMix64(seed: UInt64(rows * 100 + hidden + 7))
            // Activated gates: r, z in (0, 1), n in (-1, 1).
            let signed = randomTensor([rows, 3 * hidden], in: -0.99...0.99, using: &generator).scalars
            let gates = Tensor<Float>(shape: [rows, 3 * hidden], scalars: signed.indices.map {
                $0 % (3 * hidden) < 2 * hidden ? abs(signed[$0]) : signed[$0]
            })
            let candidates = randomTensor([rows, hidden], in: -3...3, using: &generator)
            let h0 = randomTensor([rows, hidden], in: -1...1, using: &generator)
            let upstream = randomTensor([rows, hidden], in: -1...1, using: &generator)
            let dhNext = randomTensor([rows, hidden], in: -1...1, using: &generator)
            let hiddenGradient = Tensor<Float>(shape: [rows, hidden], scalars: dhNext.scalars)
            let inputGateGradients = Tensor<Float>(shape: [rows, 3 * hidden])
            let hiddenGateGradients = Tensor<Float>(shape: [rows, 3 * hidden])
            Kernels.withInstructionLevel(level) {
                nlukit_gru_cell_backward(gates.kernelPointer, candidates.kernelPointer, h0.kernelPointer,
                                         upstream.kernelPointer, hiddenGradient.kernelPointer,
                                         inputGateGradients.kernelPointer, hiddenGateGradients.kernelPointer, rows, hidden)
            }
            var worst = 0.0
            for row in 0..<rows {
                for unit in 0..<hidden {
                    let gate = { (index: Int) in Double(gates.scalars[row * 3 * hidden + index * hidden + unit]) }
                    let (r, z, n) = (gate(0), gate(1), gate(2))
                    let at = row * hidden + unit
                    let dh = Double(upstream.scalars[at]) + Double(dhNext.scalars[at])
                    let dn = dh * (1 - z) * (1 - n * n)
                    let dz = dh * (Double(h0.scalars[at]) - n) * z * (1 - z)
                    let dr = dn * Double(candidates.scalars[at]) * r * (1 - r)
                    let expected = [dr, dz, dn, dr, dz, dn * r, dh * z]
                    let actual = (0..<3).map { Double(inputGateGradients.scalars[row * 3 * hidden + $0 * hidden + unit]) }
                        + (0..<3).map { Double(hiddenGateGradients.scalars[row * 3 * hidden + $0 * hidden + unit]) }
                        + [Double(hiddenGradient.scalars[at])]
                    for (a, e) in zip(actual, expected) { worst = max(worst, abs(a - e)) }
                }
            }
            // Values of magnitude ≤ 2: a few float ulps.
            #expect(worst < 2e-6, "level \(level), \(rows)×\(hidden): \(worst)")
        }
    }
}

import CKernels
import Testing
@testable import NLUCore

/// `nlukit_adam_step` at every CPU level this machine runs, against PyTorch's AdamW update written
/// out in Swift one element at a time (Swift rounds every product and sum on its own, as the kernel
/// does with contraction off): the same bits, since the vector square root and division are IEEE's
/// correctly rounded ones like the scalar ones.
@Suite struct AdamStepKernelTests {
    /// Parameters, gradients and moments of every magnitude the step meets: zero moments (a row's
    /// first step), subnormal first moments (a row untouched for hundreds of steps), zero gradients.
    static func state(count: Int) -> (parameters: [Float], gradients: [Float], first: [Float], second: [Float]) {
        var random = SplitMix64(seed: 7)
        func uniform() -> Float { Float(random.next() >> 40) / Float(1 << 24) * 2 - 1 }
        var parameters: [Float] = [], gradients: [Float] = [], first: [Float] = [], second: [Float] = []
        for index in 0..<count {
            parameters.append(uniform() * 0.1)
            switch index % 5 {
            case 0: gradients.append(0); first.append(0); second.append(0)
            case 1: gradients.append(0); first.append(uniform() * Float.leastNormalMagnitude / 10); second.append(abs(uniform()) * 1e-12)
            case 2: gradients.append(uniform() * 1e-3); first.append(0); second.append(0)
            default: gradients.append(uniform() * 10); first.append(uniform() * 1e-2); second.append(abs(uniform()) * 1e-4)
            }
        }
        return (parameters, gradients, first, second)
    }

    /// torch.optim.AdamW's single-tensor step (decoupled decay as `shrink`, `l2` added to the gradient
    /// as Adam's L2 form), in the kernel's order of operations.
    static func reference(_ p: inout [Float], _ g: [Float], _ m: inout [Float], _ v: inout [Float], beta1: Float, beta2: Float,
                          stepSize: Float, correction2: Float, epsilon: Float, l2: Float, shrink: Float) {
        for i in p.indices {
            let gradient = g[i] + l2 * p[i]
            m[i] = beta1 * m[i] + (1 - beta1) * gradient
            v[i] = beta2 * v[i] + (1 - beta2) * gradient * gradient
            p[i] = p[i] * shrink - stepSize * m[i] / (v[i].squareRoot() / correction2 + epsilon)
        }
    }

    @Test(arguments: [(l2: Float(0), shrink: Float(1 - 5e-5 * 0.01)), (l2: Float(0.01), shrink: Float(1))])
    func everyLevelGivesTheScalarStepsBits(l2: Float, shrink: Float) {
        // 1,003 elements: whole 16-wide vectors and a remainder.
        let start = Self.state(count: 1_003)
        var expected = start
        Self.reference(&expected.parameters, start.gradients, &expected.first, &expected.second, beta1: 0.9, beta2: 0.999,
                       stepSize: 3e-4, correction2: 0.0447, epsilon: 1e-8, l2: l2, shrink: shrink)
        for level in CPULevel.runnable {
            // Separate variables: one call cannot take three inout parts of one struct.
            var parameters = start.parameters, first = start.first, second = start.second
            CPULevel.with(level) {
                nlukit_adam_step(&parameters, start.gradients, &first, &second, parameters.count,
                                 0.9, 0.999, 3e-4, 0.0447, 1e-8, l2, shrink)
            }
            for (name, ours, theirs) in [("parameters", parameters, expected.parameters),
                                         ("first moments", first, expected.first),
                                         ("second moments", second, expected.second)] {
                let misses = ours.indices.filter { ours[$0].bitPattern != theirs[$0].bitPattern }
                #expect(misses.isEmpty, "\(level) \(name): \(misses.count) differ, first at \(misses.first ?? -1)")
            }
        }
    }
}

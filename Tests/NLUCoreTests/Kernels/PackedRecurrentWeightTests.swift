import Testing
@testable import NLUCore

/// The packed small-M SGEMM of the recurrent layers against a naive Double loop written here, at
/// every instruction level, for both packings, odd sizes (partial panels, leftover rows) and sizes
/// large enough to run threaded.
@Suite struct PackedRecurrentWeightTests {
    // (rows m, weight rows, weight columns)
    static let shapes: [(Int, Int, Int)] = [(1, 1, 1), (2, 33, 5), (9, 64, 17), (17, 95, 31), (32, 1024, 256)]

    @Test(arguments: [0, 1, 2], [false, true])
    func matchesNaiveProduct(level: Int, transposed: Bool) {
        for (m, weightRows, weightColumns) in Self.shapes {
            var generator = SplitMix64(seed: UInt64(m * 1000 + weightRows + weightColumns))
            let weight = randomTensor([weightRows, weightColumns], in: -1...1, using: &generator)
            // B = weightᵀ (k = columns, n = rows) or weight (k = rows, n = columns).
            let k = transposed ? weightColumns : weightRows, n = transposed ? weightRows : weightColumns
            let x = randomTensor([m, k], in: -1...1, using: &generator)
            let start = randomTensor([m, n], in: -1...1, using: &generator)
            let w = weight.scalars, xs = x.scalars
            for accumulate in [false, true] {
                let output = Tensor<Float>(shape: [m, n], scalars: start.scalars)
                Kernels.withInstructionLevel(level) {
                    let packed = PackedRecurrentWeight(weight: weight.kernelPointer, rows: weightRows, columns: weightColumns,
                                                       transposed: transposed)
                    packed.multiply(x.kernelPointer, rows: m, into: output.kernelPointer, accumulate: accumulate)
                }
                var worst = 0.0
                for row in 0..<m {
                    for column in 0..<n {
                        var sum = accumulate ? Double(start.scalars[row * n + column]) : 0
                        for inner in 0..<k {
                            let b = transposed ? w[column * weightColumns + inner] : w[inner * weightColumns + column]
                            sum += Double(xs[row * k + inner]) * Double(b)
                        }
                        worst = max(worst, abs(sum - Double(output.scalars[row * n + column])))
                    }
                }
                // Float sums of up to 1024 products of magnitude ≤ 1.
                #expect(worst < 1e-4, "m \(m), \(weightRows)×\(weightColumns), transposed \(transposed), accumulate \(accumulate): \(worst)")
            }
        }
    }
}

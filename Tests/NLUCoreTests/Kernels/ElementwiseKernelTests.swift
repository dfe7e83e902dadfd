import Foundation
import Testing
@testable import NLUCore

/// Softmax, log-softmax, layer norm, activations and bias against naive Double loops written here,
/// on random shapes with odd sizes and 1-element edges, plus sizes large enough to run threaded.
@Suite struct ElementwiseKernelTests {
    static let shapes: [[Int]] = [[1], [1, 1], [1, 17], [3, 5], [7, 33], [2, 3, 16], [4, 1, 129], [64, 1024], [3, 350_001]]

    func rows(_ tensor: Tensor<Float>) -> [[Double]] {
        let length = tensor.shape.last ?? 1
        let values = tensor.scalars.map(Double.init)
        return stride(from: 0, to: values.count, by: length).map { Array(values[$0..<($0 + length)]) }
    }

    @Test(arguments: shapes)
    func softmaxMatchesNaiveLoop(_ shape: [Int]) {
        var generator = SplitMix64(seed: UInt64(shape.reduce(1, *)))
        let input = randomTensor(shape, in: -20...20, using: &generator)
        var output = input
        Kernels.softmax(&output)
        let expected = rows(input).flatMap { row -> [Double] in
            let maximum = row.max()!
            let exps = row.map { Foundation.exp($0 - maximum) }
            let sum = exps.reduce(0, +)
            return exps.map { $0 / sum }
        }
        #expect(maxAbsoluteDifference(output.scalars, expected.map(Float.init)) <= 1e-6)
    }

    @Test func softmaxBroadcastsAdditiveMasksOverLeadingAxes() {
        var generator = SplitMix64(seed: 3)
        let scores = randomTensor([2, 3, 5], in: -4...4, using: &generator)
        for maskShape in [[5], [3, 5], [1, 1, 5], [2, 3, 5]] {
            let maskValues: [Float] = (0..<maskShape.reduce(1, *)).map { index in
                index % 3 == 0 ? -10_000 : Float(index % 2) * 0.5
            }
            let mask = Tensor(shape: maskShape, scalars: maskValues)
            var output = scores
            Kernels.softmax(&output, additiveMask: mask)
            let maskRows = rows(mask)
            let expected = rows(scores).enumerated().flatMap { index, row -> [Double] in
                let masked = zip(row, maskRows[index % maskRows.count]).map { $0 + $1 }
                let maximum = masked.max()!
                let exps = masked.map { Foundation.exp($0 - maximum) }
                return exps.map { $0 / exps.reduce(0, +) }
            }
            #expect(maxAbsoluteDifference(output.scalars, expected.map(Float.init)) <= 1e-6, "mask \(maskShape)")
        }
    }

    @Test func fullyMaskedRowBecomesZerosNotNaN() {
        var scores = Tensor<Float>(shape: [2, 3], scalars: [1, 2, 3, 1, 2, 3])
        Kernels.softmax(&scores, additiveMask: Tensor(shape: [2, 3], scalars: [0, 0, 0, -.infinity, -.infinity, -.infinity]))
        #expect(scores.scalars.suffix(3) == [0, 0, 0])
        #expect(abs(scores.scalars.prefix(3).reduce(0, +) - 1) < 1e-6)
    }

    @Test(arguments: shapes)
    func logSoftmaxMatchesNaiveLoop(_ shape: [Int]) {
        var generator = SplitMix64(seed: 17 &+ UInt64(shape.reduce(1, *)))
        let input = randomTensor(shape, in: -30...30, using: &generator)
        var output = input
        Kernels.logSoftmax(&output)
        let expected = rows(input).flatMap { row -> [Double] in
            let maximum = row.max()!
            let logSum = Foundation.log(row.map { Foundation.exp($0 - maximum) }.reduce(0, +))
            return row.map { $0 - maximum - logSum }
        }
        #expect(maxAbsoluteDifference(output.scalars, expected.map(Float.init)) <= 1e-5)
    }

    @Test(arguments: shapes)
    func layerNormMatchesNaiveLoop(_ shape: [Int]) {
        var generator = SplitMix64(seed: 29 &+ UInt64(shape.reduce(1, *)))
        // An offset mean checks that the variance does not suffer from cancellation.
        let input = randomTensor(shape, in: 95...105, using: &generator)
        let size = shape.last!
        let weight = randomTensor([size], in: 0.5...1.5, using: &generator)
        let bias = randomTensor([size], in: -1...1, using: &generator)
        var output = input
        Kernels.layerNorm(&output, weight: weight, bias: bias, epsilon: 1e-5)
        let expected = rows(input).flatMap { row -> [Double] in
            let mean = row.reduce(0, +) / Double(row.count)
            let variance = row.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(row.count)
            return row.indices.map { (row[$0] - mean) / (variance + 1e-5).squareRoot() * Double(weight.scalars[$0]) + Double(bias.scalars[$0]) }
        }
        // Inputs near 100 carry float rounding of ~4e-6 into the deviations, amplified by 1/σ ≈ 3.5.
        #expect(maxAbsoluteDifference(output.scalars, expected.map(Float.init)) <= 5e-5)
    }

    typealias Activation = (label: String, kernel: @Sendable (inout Tensor<Float>) -> Void,
                            reference: @Sendable (Double) -> Double, tolerance: Double)

    static let activations: [Activation] = [
        ("gelu", { Kernels.gelu(&$0) }, { 0.5 * $0 * (1 + Foundation.erf($0 / 2.0.squareRoot())) }, 1e-6),
        ("geluTanh", { Kernels.geluTanh(&$0) },
         { 0.5 * $0 * (1 + Foundation.tanh((2 / Double.pi).squareRoot() * ($0 + 0.044715 * $0 * $0 * $0))) }, 1e-6),
        ("tanh", { Kernels.tanh(&$0) }, { Foundation.tanh($0) }, 1e-6),
        ("sigmoid", { Kernels.sigmoid(&$0) }, { 1 / (1 + Foundation.exp(-$0)) }, 1e-6),
        ("relu", { Kernels.relu(&$0) }, { max($0, 0) }, 0),
    ]

    @Test(arguments: 0..<activations.count, shapes)
    func activationMatchesNaiveLoop(_ index: Int, _ shape: [Int]) {
        let activation = Self.activations[index]
        var generator = SplitMix64(seed: 41 &+ UInt64(index) &* 1000 &+ UInt64(shape.reduce(1, *)))
        let input = randomTensor(shape, in: -8...8, using: &generator)
        var output = input
        activation.kernel(&output)
        // Tolerance relative to max(1, |x|): the activations grow like x.
        let worst = zip(input.scalars, output.scalars).map { x, y in
            abs(Double(y) - activation.reference(Double(x))) / max(1, abs(Double(x)))
        }.max() ?? 0
        #expect(worst <= activation.tolerance, "\(activation.label) \(shape): \(worst)")
    }

    @Test(arguments: shapes)
    func addBiasMatchesNaiveLoop(_ shape: [Int]) {
        var generator = SplitMix64(seed: 53)
        let input = randomTensor(shape, using: &generator)
        let bias = randomTensor([shape.last!], using: &generator)
        var output = input
        Kernels.addBias(&output, bias)
        let expected = input.scalars.enumerated().map { $1 + bias.scalars[$0 % shape.last!] }
        #expect(output.scalars == expected)
    }

    @Test func kernelsWriteThroughViewsWithoutTouchingTheSource() {
        let source = Tensor<Float>(shape: [2, 3], scalars: [-1, 0, 1, 2, -2, 3])
        var view = source.transposed()
        Kernels.relu(&view)
        #expect(view.scalars == [0, 2, 0, 0, 1, 3])
        #expect(source.scalars == [-1, 0, 1, 2, -2, 3])
    }
}

/// The same kernels at every instruction level this CPU has (each is compiled separately), and
/// threaded softmax whose chunks start mid-way through the mask's rows.
@Suite(.serialized) struct KernelLevelTests {
    @Test func everyInstructionLevelAgreesWithTheReference() {
        var generator = SplitMix64(seed: 77)
        let input = randomTensor([5, 37], in: -6...6, using: &generator)
        let weight = randomTensor([37], using: &generator), bias = randomTensor([37], using: &generator)
        let reference: (String, (inout Tensor<Float>) -> Void) -> [Float] = { _, kernel in
            var output = input
            kernel(&output)
            return output.scalars
        }
        let kernels: [(String, (inout Tensor<Float>) -> Void)] = [
            ("gelu", { Kernels.gelu(&$0) }), ("geluTanh", { Kernels.geluTanh(&$0) }), ("tanh", { Kernels.tanh(&$0) }),
            ("sigmoid", { Kernels.sigmoid(&$0) }), ("softmax", { Kernels.softmax(&$0) }),
            ("logSoftmax", { Kernels.logSoftmax(&$0) }),
            ("layerNorm", { Kernels.layerNorm(&$0, weight: weight, bias: bias, epsilon: 1e-5) }),
        ]
        let best = Kernels.withInstructionLevel(2) { Kernels.instructionSet }
        let levels = best == "AVX-512" ? [0, 1, 2] : best == "AVX2" ? [0, 1] : [0]
        let expected = kernels.map { reference($0.0, $0.1) }
        for level in levels {
            Kernels.withInstructionLevel(level) {
                for (index, kernel) in kernels.enumerated() {
                    // FMA contraction may differ between levels by a few ulps.
                    #expect(maxAbsoluteDifference(reference(kernel.0, kernel.1), expected[index]) <= 2e-6,
                            "\(kernel.0) at level \(level) (\(Kernels.instructionSet))")
                }
            }
        }
    }

    @Test func threadedSoftmaxKeepsMaskRowsAlignedAcrossChunks() {
        var generator = SplitMix64(seed: 8)
        // 3·37 rows of 9,500: above the threading threshold, and the second chunk starts at row 56 (mask row 19).
        let scores = randomTensor([3, 37, 9_500], in: -3...3, using: &generator)
        let mask = randomTensor([37, 9_500], in: -5...0, using: &generator)
        var threaded = scores
        Kernels.softmax(&threaded, additiveMask: mask)
        let length = 9_500
        let maskValues = mask.scalars
        var rowByRow = scores.scalars
        rowByRow.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<(3 * 37) {
                let start = row * length
                for index in 0..<length { buffer[start + index] += maskValues[(row % 37) * length + index] }
                Kernels.softmax(buffer.baseAddress! + start, rowCount: 1, rowLength: length)
            }
        }
        #expect(maxAbsoluteDifference(threaded.scalars, rowByRow) <= 1e-7)
    }
}

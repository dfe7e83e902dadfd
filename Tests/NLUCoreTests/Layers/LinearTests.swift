import Foundation
import Testing
@testable import NLUCore

/// The one dense layer against plain Double loops written here: the BLAS forward (one row and
/// many), the backward pass (dW = dyᵀ·x, db = Σ dy, dx = dy·W), and the packed inference forms
/// (F32 within float rounding, INT8 within its quantization bound), with bias, residual and
/// activation fused.
@Suite struct LinearTests {
    static let (rows, inputs, outputs) = (5, 37, 70)

    static func layer(bias: Bool) -> (Linear, [Float]) {
        var generator = SplitMix64(seed: 11)
        let layer = Linear(inputSize: inputs, outputSize: outputs, hasBias: bias, using: &generator)
        return (layer, randomScalars(rows * inputs, using: &generator))
    }

    /// x·Wᵀ + b in Double.
    static func reference(_ layer: Linear, _ x: [Float], rows: Int) -> [Double] {
        let w = layer.weight.scalars, b = layer.bias?.scalars
        return (0..<(rows * outputs)).map { index in
            let row = index / outputs, column = index % outputs
            var sum = Double(b?[column] ?? 0)
            for k in 0..<inputs { sum += Double(x[row * inputs + k]) * Double(w[column * inputs + k]) }
            return sum
        }
    }

    @Test(arguments: [true, false])
    func forwardMatchesThePlainProduct(bias: Bool) {
        let (layer, x) = Self.layer(bias: bias)
        for rows in [1, Self.rows] {
            let expected = Self.reference(layer, x, rows: rows)
            var y = [Float](repeating: .nan, count: rows * Self.outputs)
            layer.weight.withUnsafeBufferPointer { w in
                (layer.bias?.scalars ?? []).withUnsafeBufferPointer { b in
                    y.withUnsafeMutableBufferPointer { y in
                        Linear.forward(x, rows: rows, weight: w.baseAddress!, bias: bias ? b.baseAddress : nil,
                                       inputSize: Self.inputs, outputSize: Self.outputs, into: y.baseAddress!)
                    }
                }
            }
            #expect(zip(y, expected).allSatisfy { abs(Double($0) - $1) < 1e-5 }, "rows \(rows)")
            let tensor = layer(Tensor(shape: [rows, Self.inputs], scalars: Array(x[0..<(rows * Self.inputs)])))
            #expect(zip(tensor.scalars, y).allSatisfy { abs($0 - $1) < 1e-5 })
        }
    }

    /// What an optimizer reads and writes back (the language model's decoder is stepped this way).
    @Test(arguments: [true, false])
    func tensorsAreWeightThenBiasAndTakeAStep(bias: Bool) {
        var (layer, _) = Self.layer(bias: bias)
        let before = layer.tensors
        #expect(before.map(\.shape) == (bias ? [[Self.outputs, Self.inputs], [Self.outputs]] : [[Self.outputs, Self.inputs]]))
        layer.tensors = before.map { Tensor(shape: $0.shape, scalars: $0.scalars.map { $0 - 0.5 }) }
        #expect(layer.weight.scalars == before[0].scalars.map { $0 - 0.5 })
        #expect(layer.bias?.scalars == (bias ? before[1].scalars.map { $0 - 0.5 } : nil))
    }

    @Test(arguments: [true, false])
    func backwardMatchesHandWorkedGradients(bias: Bool) {
        let (layer, x) = Self.layer(bias: bias)
        var generator = SplitMix64(seed: 5)
        let dy = randomScalars(Self.rows * Self.outputs, using: &generator)
        let grads = layer.backward(input: Tensor(shape: [Self.rows, Self.inputs], scalars: x),
                                   outputGradient: Tensor(shape: [Self.rows, Self.outputs], scalars: dy))
        let w = layer.weight.scalars
        var worst = 0.0
        for o in 0..<Self.outputs {
            for i in 0..<Self.inputs {
                let expected = (0..<Self.rows).reduce(0.0) { $0 + Double(dy[$1 * Self.outputs + o]) * Double(x[$1 * Self.inputs + i]) }
                worst = max(worst, abs(Double(grads.weight.scalars[o * Self.inputs + i]) - expected))
            }
        }
        for r in 0..<Self.rows {
            for i in 0..<Self.inputs {
                let expected = (0..<Self.outputs).reduce(0.0) { $0 + Double(dy[r * Self.outputs + $1]) * Double(w[$1 * Self.inputs + i]) }
                worst = max(worst, abs(Double(grads.input.scalars[r * Self.inputs + i]) - expected))
            }
        }
        #expect(worst < 1e-5)
        #expect(grads.input.shape == [Self.rows, Self.inputs] && grads.weight.shape == [Self.outputs, Self.inputs])
        if bias {
            let db = try? #require(grads.bias).scalars
            let expected = (0..<Self.outputs).map { o in (0..<Self.rows).reduce(0.0) { $0 + Double(dy[$1 * Self.outputs + o]) } }
            #expect(zip(db ?? [], expected).allSatisfy { abs(Double($0) - $1) < 1e-5 } && db?.count == Self.outputs)
        } else {
            #expect(grads.bias == nil)
        }
    }

    /// F32 packed: within float rounding of the plain product, epilogue fused. INT8: within the
    /// quantization bound (QuantizedMatrixTests states it exactly; here 2 % of Σ|x·w| per output).
    @Test(arguments: Precision.allCases)
    func packedFormsMatchThePlainProduct(precision: Precision) {
        let (layer, x) = Self.layer(bias: true)
        let packed = layer.packed(precision: precision)
        #expect(packed.precision == precision && packed.inputSize == Self.inputs && packed.outputSize == Self.outputs)
        let expected = Self.reference(layer, x, rows: Self.rows)
        let w = layer.weight.scalars
        let magnitude = (0..<(Self.rows * Self.outputs)).map { index in
            (0..<Self.inputs).reduce(0.0) { $0 + abs(Double(x[index / Self.outputs * Self.inputs + $1]) * Double(w[index % Self.outputs * Self.inputs + $1])) }
        }
        let tolerance = { (index: Int) in precision == .f32 ? 1e-5 : 0.02 * magnitude[index] + 1e-5 }
        let y = packed(Tensor(shape: [Self.rows, Self.inputs], scalars: x), activation: .relu)
        #expect(y.shape == [Self.rows, Self.outputs])
        #expect(y.scalars.indices.allSatisfy { abs(Double(y.scalars[$0]) - max(expected[$0], 0)) <= tolerance($0) })
        // Residual: output += x·Wᵀ + b.
        var residual = [Float](repeating: 1, count: Self.rows * Self.outputs)
        x.withUnsafeBufferPointer { x in
            residual.withUnsafeMutableBufferPointer { out in
                packed.apply(x.baseAddress!, rows: Self.rows, into: out.baseAddress!, accumulate: true)
            }
        }
        #expect(residual.indices.allSatisfy { abs(Double(residual[$0]) - (expected[$0] + 1)) <= tolerance($0) })
    }
}

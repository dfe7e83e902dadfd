import NLUCore

/// `y = x·Wᵀ + b` for a weight stored `[outputs, inputs]` (Core ML's innerProduct and weighted batchedMatMul
/// layout), packed once at load for NLUCore's packed GEMM.
struct DenseProduct: Sendable {
    let inputs: Int
    let outputs: Int
    private let packed: PackedMatrix
    private let bias: [Float]?

    init(weight: [Float], outputs: Int, inputs: Int, bias: [Float]?) {
        precondition(weight.count == outputs * inputs && (bias == nil || bias?.count == outputs))
        self.inputs = inputs
        self.outputs = outputs
        self.bias = bias
        packed = weight.withUnsafeBufferPointer { buffer in
            PackedMatrix(weight: buffer.baseAddress!, rows: outputs, columns: inputs, transposed: true)
        }
    }

    /// The product for `rows` rows of `inputs` values each.
    func apply(_ x: [Float], rows: Int) -> [Float] {
        var y = [Float](repeating: 0, count: rows * outputs)
        guard rows > 0 else { return y }
        x.withUnsafeBufferPointer { input in
            y.withUnsafeMutableBufferPointer { output in
                if let bias {
                    bias.withUnsafeBufferPointer { packed.multiply(input.baseAddress!, rows: rows, into: output.baseAddress!, bias: $0.baseAddress) }
                } else {
                    packed.multiply(input.baseAddress!, rows: rows, into: output.baseAddress!)
                }
            }
        }
        return y
    }
}

extension LayerContext {
    /// The product of a layer whose weights are stored `[outputs, inputs]` with an optional bias, sizes checked.
    func denseProduct(_ weights: CoreML_Specification_WeightParams, bias: CoreML_Specification_WeightParams?,
                      inputs: Int, outputs: Int) throws -> DenseProduct {
        guard inputs * outputs <= 1 << 30 else { throw invalid("\(outputs) × \(inputs) weights are too large") }
        let weight = try self.weights.floats(weights, field: "weights", count: outputs * inputs, channels: outputs)
        let biasValues = try bias.map { try self.weights.floats($0, field: "bias", count: outputs) }
        return DenseProduct(weight: weight, outputs: outputs, inputs: inputs, bias: biasValues)
    }
}

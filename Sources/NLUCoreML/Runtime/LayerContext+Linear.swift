import NLUCore

extension LayerContext {
    /// The dense layer of a Core ML layer whose weights are stored `[outputs, inputs]` with an optional bias
    /// (innerProduct; batchedMatMul with a weight matrix, which coremltools writes transposed), sizes checked: NLUCore's
    /// one `Linear`, packed once at load.
    func linear(_ weights: CoreML_Specification_WeightParams, bias: CoreML_Specification_WeightParams?,
                inputs: Int, outputs: Int) throws -> Linear.Packed {
        guard inputs * outputs <= 1 << 30 else { throw invalid("\(outputs) × \(inputs) weights are too large") }
        let weight = try self.weights.floats(weights, field: "weights", count: outputs * inputs, channels: outputs)
        let biasValues = try bias.map { try self.weights.floats($0, field: "bias", count: outputs) }
        return Linear.Packed(weight: weight, outputs: outputs, inputs: inputs, bias: biasValues)
    }
}

extension Linear.Packed {
    /// A weight decoded from a file (`outputs` rows of `inputs` floats, as `nn.Linear` stores it) packed in F32:
    /// Core ML files state their own precision, which the weights are decoded from.
    init(weight: [Float], outputs: Int, inputs: Int, bias: [Float]?) {
        precondition(weight.count == outputs * inputs && outputs > 0 && inputs > 0, "weights of \(weight.count) for [\(outputs), \(inputs)]")
        self = weight.withUnsafeBufferPointer { buffer in
            Linear.Packed(weight: buffer.baseAddress!, outputSize: outputs, inputSize: inputs, bias: bias, precision: .f32)
        }
    }

    /// `x·weightᵀ + bias` for every row of `inputSize` values of `x`, as a blob of `shape`.
    func apply(to x: Blob, shape: [Int]) -> Blob {
        let rows = x.count / inputSize
        return self(x.reshaped([rows, inputSize])).reshaped(shape)
    }
}

import NLUCore

/// A dense layer of the encoder loaded from PyTorch `nn.Linear` tensors (`weight` [out, in],
/// `bias` [out]) into NLUCore's ``Linear/Packed`` (weights packed once at load, F32 or INT8, with
/// the bias, the activation and the residual in the GEMM's epilogue).
///
/// Several layers that read the same input can be stacked into one (query, key and value become one
/// [3·hidden, hidden] product), and each may be scaled (attention folds 1/√d into the queries).
/// Once packed, the checkpoint's pages for the weight are released from resident memory: the
/// packed copy is the only one the process holds.
package struct LinearWeights: Sendable {
    let layer: Linear.Packed
    package var outputSize: Int { layer.outputSize }
    package var inputSize: Int { layer.inputSize }

    /// Loads `name.weight` and `name.bias` for each of `names` (each [output, input]), stacked
    /// along the output axis, each layer's weight and bias multiplied by its entry in `scales`.
    init(_ tensors: CheckpointTensors, stacking names: [String], output: Int, input: Int, scales: [Float]? = nil,
         precision: Precision = .f32) throws {
        let weights = try names.map { try tensors.tensor($0 + ".weight", shape: [output, input]).contiguous() }
        let biases = try names.map { try tensors.tensor($0 + ".bias", shape: [output]).contiguous() }
        let scales = scales ?? Array(repeating: 1, count: names.count)
        let bias = zip(biases, scales).flatMap { bias, scale in bias.scalars.map { $0 * scale } }
        let rows = names.count * output
        if weights.count == 1 && scales[0] == 1 {
            layer = Linear.Packed(weight: weights[0].elementPointer, outputSize: rows, inputSize: input, bias: bias,
                                  precision: precision)
        } else {
            var stacked = [Float]()
            stacked.reserveCapacity(names.count * output * input)
            for (weight, scale) in zip(weights, scales) {
                stacked += scale == 1 ? weight.scalars : weight.scalars.map { $0 * scale }
            }
            let matrix = Tensor(shape: [rows, input], scalars: stacked)
            layer = withExtendedLifetime(matrix) {
                Linear.Packed(weight: matrix.elementPointer, outputSize: rows, inputSize: input, bias: bias, precision: precision)
            }
        }
        for weight in weights { weight.storage.releaseResidentPages() }
    }

    /// Loads one layer `name`.
    package init(_ tensors: CheckpointTensors, _ name: String, output: Int, input: Int, precision: Precision = .f32) throws {
        try self.init(tensors, stacking: [name], output: output, input: input, precision: precision)
    }

    /// `output[rows, out] = activation((accumulate ? output : 0) + input[rows, in] · weightᵀ + bias)`,
    /// threaded over the output columns. `ldc` lets the result land in a wider matrix.
    package func apply(_ input: UnsafePointer<Float>, rows: Int, into output: UnsafeMutablePointer<Float>, ldc: Int? = nil,
               accumulate: Bool = false, activation: PackedMatrix.Activation = .none) {
        layer.apply(input, rows: rows, into: output, ldc: ldc, accumulate: accumulate, activation: activation)
    }
}

/// A layer norm's scale and shift.
struct NormWeights: Sendable {
    let gamma: Tensor<Float>
    let beta: Tensor<Float>

    init(_ tensors: CheckpointTensors, _ name: String, size: Int) throws {
        gamma = try tensors.tensor(name + ".weight", shape: [size]).contiguous()
        beta = try tensors.tensor(name + ".bias", shape: [size]).contiguous()
    }

    /// Normalizes `rows` rows of `size` floats in place (threaded over rows).
    func normalize(_ rows: UnsafeMutablePointer<Float>, rowCount: Int, epsilon: Float) {
        Kernels.layerNorm(rows, rowCount: rowCount, rowLength: gamma.count, weight: gamma.elementPointer,
                          bias: beta.elementPointer, epsilon: epsilon)
    }
}

extension Tensor where Scalar == Float {
    /// The address of the first element of a contiguous tensor, valid while the tensor lives.
    /// Used by the encoder's hot loops on weights it holds for its whole lifetime.
    var elementPointer: UnsafePointer<Float> {
        UnsafePointer(storage.baseAddress + offset)
    }
}

extension BertConfiguration.Activation {
    /// The same function as a GEMM epilogue.
    var epilogue: PackedMatrix.Activation {
        switch self {
        case .gelu: .gelu
        case .geluTanh: .geluTanh
        case .relu: .relu
        }
    }
}

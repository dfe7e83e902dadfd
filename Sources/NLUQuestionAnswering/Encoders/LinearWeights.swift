import NLUCore

/// A dense layer's parameters in PyTorch `nn.Linear` layout (`weight` [out, in], `bias` [out]),
/// held as tensors that may point straight into the memory-mapped checkpoint.
struct LinearWeights: Sendable {
    let weight: Tensor<Float>
    let bias: Tensor<Float>
    var outputSize: Int { weight.shape[0] }
    var inputSize: Int { weight.shape[1] }

    init(_ tensors: CheckpointTensors, _ name: String, output: Int, input: Int) throws {
        weight = try tensors.tensor(name + ".weight", shape: [output, input]).contiguous()
        bias = try tensors.tensor(name + ".bias", shape: [output]).contiguous()
    }

    init(weight: Tensor<Float>, bias: Tensor<Float>) {
        self.weight = weight.contiguous()
        self.bias = bias.contiguous()
    }

    /// `output[rows, out] = input[rows, in] · weightᵀ` (bias not added: callers fuse it into the
    /// next element-wise pass). `ldc` lets the result land in a column block of a wider matrix.
    func multiply(_ input: UnsafePointer<Float>, rows: Int, into output: UnsafeMutablePointer<Float>, ldc: Int? = nil) {
        BLAS.sgemm(.none, .transpose, m: rows, n: outputSize, k: inputSize,
                   a: input, lda: inputSize, b: weight.elementPointer, ldb: inputSize,
                   c: output, ldc: ldc ?? outputSize)
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
}

extension Tensor where Scalar == Float {
    /// The address of the first element of a contiguous tensor, valid while the tensor lives.
    /// Used by the encoder's hot loops on weights it holds for its whole lifetime.
    var elementPointer: UnsafePointer<Float> {
        UnsafePointer(storage.baseAddress + offset)
    }
}

/// A fully connected layer `y = x·weightᵀ + bias`, with PyTorch's `nn.Linear` layout
/// (`weight` `[out, in]`, `bias` `[out]`), so checkpoint tensors load as they are: the one dense
/// layer of every task. Training uses the weights as they are (``forward(_:rows:weight:bias:inputSize:outputSize:into:products:)``
/// and ``backward(outputGradient:input:rows:weight:inputSize:outputSize:weightGradient:biasGradient:inputGradient:products:accumulatingParameters:accumulatingInput:)``
/// on ``TrainingProducts``, which packs the changing weights at each call; the weight gradient on
/// `sgemm`); inference packs them once
/// (``packed(precision:)``: F32 panels or INT8, with bias, activation and residual fused into the GEMM).
///
///     let classifier = try Linear(weight: try weights.floatTensor("classifier.weight"),
///                                 bias: try weights.floatTensor("classifier.bias"))
///     let logits = classifier(pooled)                 // [batch, in] -> [batch, out]
///     let fast = classifier.packed(precision: .int8)  // for a weight used many times
///     let grads = classifier.backward(input: pooled, outputGradient: dLogits)   // dW, db, dx
public struct Linear: Sendable {
    /// `[outputSize, inputSize]`.
    public private(set) var weight: Tensor<Float>
    /// `[outputSize]`, or nil for a layer without bias.
    public private(set) var bias: Tensor<Float>?

    /// `[weight]` or `[weight, bias]` (PyTorch's order): what an optimizer steps. Set it back with
    /// tensors of the same shapes (a mismatch is a programming error, not a file's).
    public var tensors: [Tensor<Float>] {
        get { bias.map { [weight, $0] } ?? [weight] }
        set {
            precondition(newValue.count == (bias == nil ? 1 : 2) && newValue[0].shape == weight.shape
                         && (bias == nil || newValue[1].shape == bias?.shape),
                         "Linear.tensors: \(newValue.map(\.shape)) for weight \(weight.shape), bias \(bias?.shape ?? [])")
            weight = newValue[0]
            if bias != nil { bias = newValue[1] }
        }
    }

    /// The length of each input row.
    public var inputSize: Int { weight.shape[1] }
    /// The length of each output row.
    public var outputSize: Int { weight.shape[0] }

    /// A layer over existing weights.
    /// - Throws: ``LayerWeightsError`` when `weight` is not rank 2 or `bias` is not `[out]`.
    public init(weight: Tensor<Float>, bias: Tensor<Float>?) throws {
        guard weight.rank == 2 else {
            throw LayerWeightsError.wrongShape("Linear weight", expected: "[out, in]", actual: weight.shape)
        }
        if let bias, bias.shape != [weight.shape[0]] {
            throw LayerWeightsError.wrongShape("Linear bias", expected: "[\(weight.shape[0])] (the weight's output size)", actual: bias.shape)
        }
        self.weight = weight
        self.bias = bias
    }

    /// A freshly initialized layer, as PyTorch initializes `nn.Linear`: weight and bias uniform in
    /// `±1/√inputSize`.
    public init(inputSize: Int, outputSize: Int, hasBias: Bool = true, using generator: inout SplitMix64) {
        let bound = 1 / Float(max(inputSize, 1)).squareRoot()
        weight = Tensor(shape: [outputSize, inputSize],
                        scalars: (0..<(outputSize * inputSize)).map { _ in Float.random(in: -bound...bound, using: &generator) })
        bias = hasBias ? Tensor((0..<outputSize).map { _ in Float.random(in: -bound...bound, using: &generator) }) : nil
    }

    /// `x·weightᵀ + bias` for `x` of shape `[..., inputSize]`; returns `[..., outputSize]`.
    /// One row (a language model's prediction step) is a GEMV that reads the weight once.
    public func callAsFunction(_ x: Tensor<Float>) -> Tensor<Float> {
        precondition(x.rank >= 1 && x.shape.last == inputSize, "Linear: input \(x.shape) for [\(outputSize), \(inputSize)]")
        let rows = x.count / max(inputSize, 1)
        let x = x.contiguous(), weight = weight.contiguous(), bias = bias?.contiguous()
        var y = Tensor<Float>(shape: Array(x.shape.dropLast()) + [outputSize])
        x.withUnsafeBufferPointer { x in
            weight.withUnsafeBufferPointer { w in
                y.withUnsafeMutableBufferPointer { y in
                    guard let x = x.baseAddress, let w = w.baseAddress, let out = y.baseAddress else { return }
                    if let bias {
                        bias.withUnsafeBufferPointer { b in
                            Self.forward(x, rows: rows, weight: w, bias: b.baseAddress, inputSize: inputSize,
                                         outputSize: outputSize, into: out)
                        }
                    } else {
                        Self.forward(x, rows: rows, weight: w, bias: nil, inputSize: inputSize, outputSize: outputSize, into: out)
                    }
                }
            }
        }
        return y
    }

    /// What ``backward(input:outputGradient:)`` returns.
    public struct Gradients: Sendable {
        /// dL/dweight, `[out, in]`.
        public var weight: Tensor<Float>
        /// dL/dbias, `[out]`, nil for a layer without bias.
        public var bias: Tensor<Float>?
        /// dL/dx, the shape of the input.
        public var input: Tensor<Float>
    }

    /// The gradients of a loss through `y = x·weightᵀ + bias`, given the input `x` (`[..., in]`)
    /// of the forward pass and dL/dy (`[..., out]`).
    ///
    ///     let grads = layer.backward(input: x, outputGradient: dy)
    ///     weight -= rate * grads.weight
    public func backward(input x: Tensor<Float>, outputGradient dy: Tensor<Float>) -> Gradients {
        precondition(x.rank >= 1 && x.shape.last == inputSize && dy.shape.dropLast() == x.shape.dropLast()
                     && dy.shape.last == outputSize, "Linear.backward: input \(x.shape), output gradient \(dy.shape) for [\(outputSize), \(inputSize)]")
        let rows = x.count / max(inputSize, 1)
        let x = x.contiguous(), dy = dy.contiguous(), weight = weight.contiguous()
        var weightGradient = Tensor<Float>(shape: [outputSize, inputSize])
        var biasGradient = bias.map { _ in Tensor<Float>(shape: [outputSize]) }
        var inputGradient = Tensor<Float>(shape: x.shape)
        x.withUnsafeBufferPointer { x in
            dy.withUnsafeBufferPointer { dy in
                weight.withUnsafeBufferPointer { w in
                    weightGradient.withUnsafeMutableBufferPointer { dW in
                        inputGradient.withUnsafeMutableBufferPointer { dX in
                            guard let x = x.baseAddress, let dy = dy.baseAddress, let w = w.baseAddress,
                                  let dW = dW.baseAddress, let dX = dX.baseAddress else { return }
                            if var db = biasGradient {
                                db.withUnsafeMutableBufferPointer { db in
                                    Self.backward(outputGradient: dy, input: x, rows: rows, weight: w, inputSize: inputSize,
                                                  outputSize: outputSize, weightGradient: dW, biasGradient: db.baseAddress,
                                                  inputGradient: dX)
                                }
                                biasGradient = db
                            } else {
                                Self.backward(outputGradient: dy, input: x, rows: rows, weight: w, inputSize: inputSize,
                                              outputSize: outputSize, weightGradient: dW, biasGradient: nil, inputGradient: dX)
                            }
                        }
                    }
                }
            }
        }
        return Gradients(weight: weightGradient, bias: biasGradient, input: inputGradient)
    }

    /// `y[rows, out] = x[rows, in]·weightᵀ + bias` on raw row-major buffers, the weight as it is
    /// (training changes it at every step; a fixed weight is faster ``packed(precision:)``): a GEMM on
    /// `products` (``TrainingProducts/shared`` unless the caller keeps its own). One row is a GEMV:
    /// it reads the weight once, where a GEMM would first pack all of it.
    ///
    ///     Linear.forward(x, rows: batch, weight: w, bias: b, inputSize: 256, outputSize: 10, into: logits)
    public static func forward(_ x: UnsafePointer<Float>, rows: Int, weight: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                               inputSize: Int, outputSize: Int, into y: UnsafeMutablePointer<Float>,
                               products: TrainingProducts = .shared) {
        precondition(rows >= 0 && inputSize >= 0 && outputSize >= 0, "Linear.forward: \(rows) rows of [\(outputSize), \(inputSize)]")
        guard rows > 0, outputSize > 0 else { return }
        guard rows == 1, inputSize > 0 else {
            products.multiply(.none, .transpose, m: rows, n: outputSize, k: inputSize, a: x, lda: max(inputSize, 1),
                              b: weight, ldb: max(inputSize, 1), c: y, ldc: outputSize, bias: bias)
            return
        }
        if let bias { y.update(from: bias, count: outputSize) } else { y.update(repeating: 0, count: outputSize) }
        BLAS.sgemv(.none, rows: outputSize, columns: inputSize, alpha: 1, a: weight, lda: inputSize, x: x, beta: 1, y: y)
    }

    /// The backward pass on raw row-major buffers: `weightGradient = dyᵀ·x` ([out, in]),
    /// `biasGradient = Σ_rows dy` ([out], when not nil), `inputGradient = dy·weight` ([rows, in],
    /// when not nil). Each gradient is overwritten, or added to what the buffer holds with
    /// `accumulatingParameters` (the weight and bias gradients: several batches or uses of one
    /// layer) and `accumulatingInput` (the input gradient: a branch joining a residual). The input
    /// gradient runs on `products` (``TrainingProducts/shared`` unless the caller keeps its own), the
    /// weight gradient on `sgemm`.
    ///
    ///     Linear.backward(outputGradient: dLogits, input: features, rows: n, weight: w, inputSize: h,
    ///                     outputSize: v, weightGradient: dW, biasGradient: db, inputGradient: dFeatures)
    public static func backward(outputGradient dy: UnsafePointer<Float>, input x: UnsafePointer<Float>, rows: Int,
                                weight: UnsafePointer<Float>, inputSize: Int, outputSize: Int,
                                weightGradient: UnsafeMutablePointer<Float>, biasGradient: UnsafeMutablePointer<Float>?,
                                inputGradient: UnsafeMutablePointer<Float>?, products: TrainingProducts = .shared,
                                accumulatingParameters: Bool = false, accumulatingInput: Bool = false) {
        precondition(rows >= 0 && inputSize >= 0 && outputSize >= 0, "Linear.backward: \(rows) rows of [\(outputSize), \(inputSize)]")
        if let biasGradient {
            if !accumulatingParameters { biasGradient.update(repeating: 0, count: outputSize) }
            for row in 0..<rows {
                let line = dy + row * outputSize
                for column in 0..<outputSize { biasGradient[column] += line[column] }
            }
        }
        guard rows > 0, inputSize > 0, outputSize > 0 else {
            if !accumulatingParameters { weightGradient.update(repeating: 0, count: outputSize * inputSize) }
            if !accumulatingInput { inputGradient?.update(repeating: 0, count: rows * inputSize) }
            return
        }
        // dW stays on sgemm: with dy transposed and x packed at each call the packed GEMM ran it at 0.93-1.00×.
        BLAS.sgemm(.transpose, .none, m: outputSize, n: inputSize, k: rows, alpha: 1, a: dy, lda: outputSize,
                   b: x, ldb: inputSize, beta: accumulatingParameters ? 1 : 0, c: weightGradient, ldc: inputSize)
        if let inputGradient {
            products.multiply(.none, .none, m: rows, n: inputSize, k: outputSize, a: dy, lda: outputSize,
                              b: weight, ldb: inputSize, c: inputGradient, ldc: inputSize, accumulate: accumulatingInput)
        }
    }
}

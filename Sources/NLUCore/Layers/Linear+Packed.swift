extension Linear {
    /// A ``Linear`` layer prepared for inference: its weight packed once, as F32 panels
    /// (``PackedMatrix``) or quantized to INT8 per output channel (``QuantizedMatrix``), with the
    /// bias, an activation and a residual (`accumulate`) applied in the GEMM's epilogue while each
    /// row segment is still in registers. Immutable; one instance may serve several threads.
    ///
    ///     let dense = try Linear(weight: w, bias: b).packed(precision: .int8)
    ///     dense.apply(x, rows: tokens, into: hidden, accumulate: true)         // hidden += x·wᵀ + b
    ///     let y = dense(xTensor, activation: .gelu)                             // gelu(x·wᵀ + b)
    public struct Packed: Sendable {
        /// The weight in the form the precision multiplies by.
        enum Product: Sendable {
            case f32(PackedMatrix)
            case int8(QuantizedMatrix)
        }

        let product: Product
        let bias: [Float]?
        /// The arithmetic of the product.
        public let precision: Precision
        /// The length of each input row.
        public let inputSize: Int
        /// The length of each output row.
        public let outputSize: Int

        /// Packs an `nn.Linear` weight (`outputSize` rows of `inputSize`, row-major) and its bias
        /// (`outputSize` floats, or nil).
        ///
        ///     let qkv = Linear.Packed(weight: stacked, outputSize: 2304, inputSize: 768, bias: b, precision: .f32)
        public init(weight: UnsafePointer<Float>, outputSize: Int, inputSize: Int, bias: [Float]?, precision: Precision) {
            precondition(outputSize >= 0 && inputSize >= 0 && (bias == nil || bias?.count == outputSize),
                         "Linear.Packed: weight [\(outputSize), \(inputSize)], bias of \(bias?.count ?? 0)")
            switch precision {
            case .f32: product = .f32(PackedMatrix(weight: weight, rows: outputSize, columns: inputSize, transposed: true))
            case .int8: product = .int8(QuantizedMatrix(linearWeight: weight, outputs: outputSize, inputs: inputSize))
            }
            self.bias = bias
            self.precision = precision
            self.inputSize = inputSize
            self.outputSize = outputSize
        }

        /// `output[rows, out] = activation((accumulate ? output : 0) + input[rows, in]·weightᵀ + bias)`,
        /// threaded over the output columns; `ldc` lets the result land in a wider matrix.
        public func apply(_ input: UnsafePointer<Float>, rows: Int, into output: UnsafeMutablePointer<Float>, ldc: Int? = nil,
                          accumulate: Bool = false, activation: PackedMatrix.Activation = .none) {
            func run(_ bias: UnsafePointer<Float>?) {
                switch product {
                case .f32(let packed):
                    packed.multiply(input, rows: rows, into: output, ldc: ldc, accumulate: accumulate, bias: bias, activation: activation)
                case .int8(let quantized):
                    quantized.multiply(input, rows: rows, into: output, ldc: ldc, accumulate: accumulate, bias: bias,
                                       activation: activation)
                }
            }
            if let bias { bias.withUnsafeBufferPointer { run($0.baseAddress) } } else { run(nil) }
        }

        /// `activation(x·weightᵀ + bias)` for `x` of shape `[..., inputSize]`; returns `[..., outputSize]`.
        public func callAsFunction(_ x: Tensor<Float>, activation: PackedMatrix.Activation = .none) -> Tensor<Float> {
            precondition(x.rank >= 1 && x.shape.last == inputSize, "Linear.Packed: input \(x.shape) for [\(outputSize), \(inputSize)]")
            let rows = x.count / max(inputSize, 1)
            let input = x.contiguous()
            var output = Tensor<Float>(shape: Array(x.shape.dropLast()) + [outputSize])
            input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    guard let source = input.baseAddress, let target = output.baseAddress else { return }
                    apply(source, rows: rows, into: target, activation: activation)
                }
            }
            return output
        }
    }

    /// This layer packed for inference at `precision` (see ``Packed``).
    ///
    ///     let dense = layer.packed(precision: .int8)
    public func packed(precision: Precision = .f32) -> Packed {
        let weight = weight.contiguous()
        return weight.withUnsafeBufferPointer { buffer in
            // An empty weight has no base address; a one-element stand-in keeps the pointer valid.
            let placeholder: [Float] = [0]
            return placeholder.withUnsafeBufferPointer { stand in
                Packed(weight: buffer.baseAddress ?? stand.baseAddress!, outputSize: outputSize, inputSize: inputSize,
                       bias: bias?.scalars, precision: precision)
            }
        }
    }
}

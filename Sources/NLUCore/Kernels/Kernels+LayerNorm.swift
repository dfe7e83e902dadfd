import CKernels

extension Kernels {
    /// Layer normalization over the last axis, in place:
    /// `(x - mean) / sqrt(variance + epsilon) * weight + bias`, with the biased variance (as
    /// PyTorch's `nn.LayerNorm`). `weight` and `bias` have the last axis's length.
    ///
    ///     var h = Tensor<Float>(shape: [1, 2], scalars: [1, 3])
    ///     Kernels.layerNorm(&h, weight: Tensor([1, 1]), bias: Tensor([0, 0]), epsilon: 1e-12)   // [-1, 1]
    public static func layerNorm(_ x: inout Tensor<Float>, weight: Tensor<Float>, bias: Tensor<Float>, epsilon: Float) {
        let rowLength = x.shape.last ?? 1
        precondition(weight.count == rowLength && bias.count == rowLength,
                     "layerNorm weight \(weight.shape) and bias \(bias.shape) must have the last axis of \(x.shape)")
        let rowCount = rowLength == 0 ? 0 : x.count / rowLength
        weight.withUnsafeBufferPointer { weight in
            bias.withUnsafeBufferPointer { bias in
                x.replaceElements {
                    layerNormRows($0.baseAddress!, $1.baseAddress!, rowCount: rowCount, rowLength: rowLength,
                                  weight: weight.baseAddress!, bias: bias.baseAddress!, epsilon: epsilon)
                }
            }
        }
    }

    /// Layer normalization of `rowCount` rows of `rowLength` floats at `rows`, in place.
    public static func layerNorm(_ rows: UnsafeMutablePointer<Float>, rowCount: Int, rowLength: Int,
                                 weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, epsilon: Float) {
        layerNormRows(rows, rows, rowCount: rowCount, rowLength: rowLength, weight: weight, bias: bias, epsilon: epsilon)
    }

    static func layerNormRows(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>,
                              rowCount: Int, rowLength: Int,
                              weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, epsilon: Float) {
        guard rowLength > 0 else { return }
        forEachRowChunk(rowCount: rowCount, rowLength: rowLength) { range in
            let start = range.lowerBound * rowLength
            nlukit_layer_norm_rows(source + start, destination + start, range.count, rowLength, weight, bias, epsilon)
        }
    }
}

import Foundation

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
                x.withUnsafeMutableBufferPointer {
                    layerNorm($0.baseAddress!, rowCount: rowCount, rowLength: rowLength,
                              weight: weight.baseAddress!, bias: bias.baseAddress!, epsilon: epsilon)
                }
            }
        }
    }

    /// Layer normalization of `rowCount` rows of `rowLength` floats at `rows`, in place.
    public static func layerNorm(_ rows: UnsafeMutablePointer<Float>, rowCount: Int, rowLength: Int,
                                 weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, epsilon: Float) {
        guard rowLength > 0 else { return }
        forEachRowChunk(rowCount: rowCount, rowLength: rowLength) { range in
            let raw = UnsafeMutableRawPointer(rows)
            let weightRaw = UnsafeRawPointer(weight), biasRaw = UnsafeRawPointer(bias)
            typealias Lanes = VectorMath.Lanes
            for row in range {
                let x = rows + row * rowLength
                let rowOffset = row * rowLength * 4
                let mean = VectorMath.sum(x, count: rowLength) / Float(rowLength)
                // Two passes (mean, then squared deviations) avoid the cancellation of E[x²] - E[x]².
                var lanes = Lanes(repeating: 0)
                var index = 0
                while index + 16 <= rowLength {
                    let deviation = raw.loadUnaligned(fromByteOffset: rowOffset + index * 4, as: Lanes.self) - mean
                    lanes += deviation * deviation
                    index += 16
                }
                var squares = lanes.sum()
                while index < rowLength {
                    squares += (x[index] - mean) * (x[index] - mean)
                    index += 1
                }
                let inverse = 1 / (squares / Float(rowLength) + epsilon).squareRoot()
                index = 0
                while index + 16 <= rowLength {
                    let value = raw.loadUnaligned(fromByteOffset: rowOffset + index * 4, as: Lanes.self)
                    let scale = weightRaw.loadUnaligned(fromByteOffset: index * 4, as: Lanes.self)
                    let shift = biasRaw.loadUnaligned(fromByteOffset: index * 4, as: Lanes.self)
                    raw.storeBytes(of: (value - mean) * inverse * scale + shift, toByteOffset: rowOffset + index * 4, as: Lanes.self)
                    index += 16
                }
                while index < rowLength {
                    x[index] = (x[index] - mean) * inverse * weight[index] + bias[index]
                    index += 1
                }
            }
        }
    }
}

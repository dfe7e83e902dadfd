import Foundation

extension Kernels {
    /// Matrix product through BLAS: rank 2 `[m, k]·[k, n] → [m, n]`; rank 3 batched
    /// `[batch, m, k]·[batch, k, n] → [batch, m, n]` (attention heads), or `[batch, m, k]·[k, n]`
    /// with one right-hand matrix for every batch. `transposeA`/`transposeB` use the operand's last
    /// two axes transposed; `alpha` scales the product.
    ///
    /// Transposed and row-sliced views are passed to BLAS as they are (no copy) when each matrix
    /// has unit stride along one of its two axes.
    ///
    ///     let scores = Kernels.matmul(queries, keys, transposeB: true, alpha: 1 / 8)   // Q·Kᵀ / √64
    public static func matmul(_ a: Tensor<Float>, _ b: Tensor<Float>, transposeA: Bool = false,
                              transposeB: Bool = false, alpha: Float = 1) -> Tensor<Float> {
        precondition((a.rank == 2 && b.rank == 2) || (a.rank == 3 && (b.rank == 3 || b.rank == 2)),
                     "matmul takes rank 2·2, 3·3 or 3·2 tensors, got \(a.shape)·\(b.shape)")
        let batch = a.rank == 3 ? a.shape[0] : 1
        if b.rank == 3 { precondition(b.shape[0] == batch, "matmul batch sizes differ: \(a.shape)·\(b.shape)") }
        let aRows = a.shape[a.rank - 2], aColumns = a.shape[a.rank - 1]
        let bRows = b.shape[b.rank - 2], bColumns = b.shape[b.rank - 1]
        let (m, k) = transposeA ? (aColumns, aRows) : (aRows, aColumns)
        let (kB, n) = transposeB ? (bColumns, bRows) : (bRows, bColumns)
        precondition(k == kB, "matmul inner dimensions differ: \(a.shape)\(transposeA ? "ᵀ" : "")·\(b.shape)\(transposeB ? "ᵀ" : "")")

        let left = MatrixOperand(a), right = MatrixOperand(b)
        let resultShape = a.rank == 3 ? [batch, m, n] : [m, n]
        // Every element is written by BLAS (beta = 0), so the output needs no zero fill, except
        // when k = 0, where BLAS may skip the product and the result is all zeros.
        var result = k == 0 ? Tensor<Float>(shape: resultShape)
            : Tensor(storage: TensorStorage(uninitializedCount: resultShape.reduce(1, *)), shape: resultShape)
        result.withUnsafeMutableBufferPointer { output in
            guard let c = output.baseAddress else { return }
            for index in 0..<batch {
                BLAS.sgemm(left.transpose(transposeA), right.transpose(transposeB), m: m, n: n, k: k, alpha: alpha,
                           a: left.matrix(index), lda: left.leadingDimension,
                           b: right.matrix(b.rank == 3 ? index : 0), ldb: right.leadingDimension,
                           c: c + index * m * n, ldc: n)
            }
        }
        withExtendedLifetime((left, right)) {}
        return result
    }

    /// A fully connected layer in PyTorch's `nn.Linear` layout: `x·weightᵀ + bias` with `x`
    /// `[..., in]`, `weight` `[out, in]` and `bias` `[out]`; returns `[..., out]`.
    ///
    ///     let logits = Kernels.linear(pooled, weight: classifierWeight, bias: classifierBias)
    public static func linear(_ x: Tensor<Float>, weight: Tensor<Float>, bias: Tensor<Float>?) -> Tensor<Float> {
        precondition(weight.rank == 2 && x.rank >= 1 && x.shape[x.rank - 1] == weight.shape[1],
                     "linear input \(x.shape) does not match weight \(weight.shape) ([out, in])")
        let rows = x.count / max(weight.shape[1], 1)
        let flat = x.rank == 2 ? x : x.reshaped([rows, weight.shape[1]])
        var output = matmul(flat, weight, transposeB: true)
        if let bias { addBias(&output, bias) }
        return x.rank == 2 ? output : output.reshaped(Array(x.shape.dropLast()) + [weight.shape[0]])
    }

    /// Adds `bias` (the length of the last axis) to every row of `x`, in place.
    ///
    ///     var h = Tensor<Float>(shape: [2, 2], scalars: [1, 2, 3, 4])
    ///     Kernels.addBias(&h, Tensor([10, 20]))   // [11, 22, 13, 24]
    public static func addBias(_ x: inout Tensor<Float>, _ bias: Tensor<Float>) {
        let rowLength = x.shape.last ?? 1
        precondition(bias.count == rowLength, "bias of shape \(bias.shape) does not match the last axis of \(x.shape)")
        let rowCount = rowLength == 0 ? 0 : x.count / rowLength
        bias.withUnsafeBufferPointer { bias in
            x.withUnsafeMutableBufferPointer { rows in
                addBias(rows.baseAddress!, rowCount: rowCount, rowLength: rowLength, bias: bias.baseAddress!)
            }
        }
    }

    /// Adds the `rowLength` floats at `bias` to each of `rowCount` rows at `rows`, in place.
    public static func addBias(_ rows: UnsafeMutablePointer<Float>, rowCount: Int, rowLength: Int, bias: UnsafePointer<Float>) {
        forEachRowChunk(rowCount: rowCount, rowLength: rowLength) { range in
            for row in range {
                let x = rows + row * rowLength
                for index in 0..<rowLength { x[index] += bias[index] }
            }
        }
    }
}

/// A tensor's last two axes as BLAS sees a matrix: a base pointer per batch element, a leading
/// dimension, and whether the stored layout is already transposed (column-major view).
private struct MatrixOperand {
    let tensor: Tensor<Float>
    let leadingDimension: Int
    let storedTransposed: Bool

    init(_ original: Tensor<Float>) {
        let rank = original.rank
        let rows = original.shape[rank - 2], columns = original.shape[rank - 1]
        let rowStride = original.strides[rank - 2], columnStride = original.strides[rank - 1]
        if columnStride == 1 && rowStride >= max(columns, 1) {
            tensor = original; leadingDimension = max(rowStride, 1); storedTransposed = false
        } else if rowStride == 1 && columnStride >= max(rows, 1) {
            tensor = original; leadingDimension = columnStride; storedTransposed = true
        } else {
            tensor = original.contiguous(); leadingDimension = max(columns, 1); storedTransposed = false
        }
    }

    /// The transpose flag to pass BLAS for `op(self)` when the caller asks for `transposed`.
    func transpose(_ transposed: Bool) -> BLAS.Transpose {
        transposed != storedTransposed ? .transpose : .none
    }

    /// The first element of batch matrix `index` (index 0 for rank 2).
    func matrix(_ index: Int) -> UnsafePointer<Float> {
        let batchOffset = tensor.rank == 3 ? index * tensor.strides[0] : 0
        return UnsafePointer(tensor.storage.baseAddress + tensor.offset + batchOffset)
    }
}

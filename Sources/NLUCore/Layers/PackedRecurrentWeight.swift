import CKernels

/// A recurrent weight packed once for the per-step products of a sequence: `x[m, k] · B` where B
/// (k × n) is the weight or its transpose. OpenBLAS re-packs B on every call, which costs about a
/// quarter of a batch-sized product; the C kernel (``nlukit_packed_gemm``) reads the packed copy.
///
///     let packed = PackedRecurrentWeight(weight: w, rows: 4 * hidden, columns: hidden, transposed: true)
///     packed.multiply(h, rows: batch, into: gates, accumulate: true)   // gates += h · wᵀ
final class PackedRecurrentWeight {
    /// The inner dimension k and output width n of the products.
    let inner: Int
    let width: Int
    private let packed: UnsafeMutableRawPointer
    private let panelCount: Int

    /// Packs `weight` (`rows × columns`, row-major): B = weightᵀ when `transposed` (k = columns,
    /// n = rows), else B = weight (k = rows, n = columns).
    init(weight: UnsafePointer<Float>, rows: Int, columns: Int, transposed: Bool) {
        inner = transposed ? columns : rows
        width = transposed ? rows : columns
        let floats = max(1, nlukit_packed_size(inner, width))
        // 64-byte alignment: the kernel loads whole panel rows as aligned vectors.
        packed = UnsafeMutableRawPointer.allocate(byteCount: floats * MemoryLayout<Float>.stride, alignment: 64)
        panelCount = (width + Int(NLUKIT_PANEL_WIDTH) - 1) / Int(NLUKIT_PANEL_WIDTH)
        nlukit_pack(weight, columns, transposed ? 1 : 0, inner, width, packed.assumingMemoryBound(to: Float.self))
    }

    deinit { packed.deallocate() }

    /// `output[m, n] = (accumulate ? output : 0) + x[m, k] · B`, rows of `x` and `output` contiguous;
    /// large products are split over threads by column panels.
    func multiply(_ x: UnsafePointer<Float>, rows m: Int, into output: UnsafeMutablePointer<Float>, accumulate: Bool) {
        let b = UnsafePointer(packed.assumingMemoryBound(to: Float.self))
        let inner = inner, width = width
        Kernels.forEachRowChunk(rowCount: panelCount, rowLength: m * inner, minimumWork: 1 << 15) { panels in
            nlukit_packed_gemm(x, inner, m, inner, b, width, panels.lowerBound, panels.upperBound, output, width,
                               accumulate ? 1 : 0)
        }
    }
}

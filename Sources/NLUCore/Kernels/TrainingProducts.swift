import CKernels
import Foundation

/// The dense products of training, `C (+)= op(A)·op(B) (+ bias)`, on the packed GEMM of inference
/// (``PackedMatrix``'s kernel, split over the pool's threads by column panels), with the operand that
/// plays B packed at each call into a scratch buffer this object keeps and grows, and op(A) = Aᵀ
/// transposed into a second one (the kernel reads rows of A). A training step changes every weight,
/// so nothing can be packed once at load as inference does; OpenBLAS packs both operands at every call.
///
/// A dense layer's three products: the forward `y = x·Wᵀ + b` packs Wᵀ from W's rows and adds the
/// bias in the kernel's epilogue; `dx = dy·W` packs W as it is; `dW += dyᵀ·x` transposes dy
/// (`rows × out`) and packs x (`rows × in`), where the other form, `dWᵀ = xᵀ·dy`, would transpose x
/// and then the whole `out × in` result back.
///
/// An instance's scratch serves one product at a time (a lock; the product itself uses every pool
/// thread), and a product that finds it busy allocates its own for the call: give each user with
/// large products its own (an encoder's training workspace), or share ``shared``. Products of
/// fewer than ``smallProduct`` multiply-adds go to `sgemm` (see there). Each
/// output element is summed over k in blocks of at most ``depthBlock`` (one chain of fused
/// multiply-adds each, the blocks' sums added in order), whatever the thread count: OpenBLAS sums in
/// such blocks too (its kc), and one chain over a long k (a 1,536-wide intermediate layer) has about
/// twice the rounding error of blocks of 384.
///
///     let products = TrainingProducts()
///     // y[rows, out] = x[rows, in]·wᵀ + b
///     products.multiply(.none, .transpose, m: rows, n: out, k: input, a: x, lda: input, b: w, ldb: input,
///                       c: y, ldc: out, bias: b)
public final class TrainingProducts: @unchecked Sendable {
    /// For callers without a scratch of their own (a classifier head's products, a trainer's small
    /// layers): its buffers grow to the largest product it has run and stay.
    public static let shared = TrainingProducts()

    /// Products of fewer multiply-adds (`m·n·k`) go to `sgemm` (unless an instance is made with
    /// another `smallProductLimit`, as tests of the packed path do): there packing B at each call costs
    /// more than OpenBLAS's small-matrix kernels, which read the operands in place (at 21-96 rows of
    /// a 32-64-wide layer, 0.65-0.88× for `dy·W` and `dyᵀ·x`), and those kernels sum a row of `A·Bᵀ`
    /// in vector lanes, with about 0.6× the rounding error of one chain. Attention's per-head
    /// products of short sequences (12 × 12 × 32) are such products.
    public static let smallProduct = 1 << 18

    /// The longest stretch of k summed in one chain; a longer k is cut into equal blocks no longer.
    public static let depthBlock = 384

    /// `NLUKIT_TRAINING_GEMM=blas` sends every product to OpenBLAS's `sgemm` instead, read once at
    /// start: for benchmarks that compare the two in one binary.
    public static let usesBLAS = ProcessInfo.processInfo.environment["NLUKIT_TRAINING_GEMM"] == "blas"

    /// Products below this many multiply-adds go to `sgemm` (``smallProduct`` unless set at init).
    let smallProductLimit: Int

    // @unchecked Sendable: the buffers below are only touched while `lock` is held.
    private let lock = NSLock()
    private var panels: UnsafeMutableRawPointer?
    private var panelCapacity = 0
    private var transposed: UnsafeMutablePointer<Float>?
    private var transposedCapacity = 0

    /// Scratch for products up to the given sizes, allocated now (an owner that knows its largest
    /// shapes allocates nothing later); a larger product grows it.
    /// - Parameters:
    ///   - packedCapacity: floats of the largest packed B (``packedSize(inner:width:)``).
    ///   - transposedCapacity: floats of the largest transposed A (`m × k`).
    ///   - smallProductLimit: products below this many multiply-adds go to `sgemm` (0: none).
    public init(packedCapacity: Int = 0, transposedCapacity: Int = 0, smallProductLimit: Int = TrainingProducts.smallProduct) {
        self.smallProductLimit = smallProductLimit
        reservePanels(packedCapacity)
        reserveTransposed(transposedCapacity)
    }

    deinit {
        panels?.deallocate()
        transposed?.deallocate()
    }

    /// The floats B of `inner × width` takes packed: whole 32-column panels.
    public static func packedSize(inner: Int, width: Int) -> Int { PackedMatrix.storageSize(inner: inner, width: width) }

    /// The floats the scratch holds now.
    public var scratchFloats: Int { lock.withLock { panelCapacity + transposedCapacity } }

    /// `c[i, j] = (accumulate ? c[i, j] : 0) + Σ_kk op(a)[i, kk]·op(b)[kk, j] + bias[j]` for an
    /// `m × n` result, row-major: op(a) is `a` (`m × k`, rows `lda` apart) or, with `.transpose`,
    /// the transpose of `a` stored `k × m`; op(b) likewise `k × n` or the transpose of `b` stored
    /// `n × k`. `bias` has n floats or is nil. Sizes and leading dimensions are the caller's
    /// contract (a mismatch traps).
    ///
    ///     // dW[out, in] += dy[rows, out]ᵀ · x[rows, in]
    ///     products.multiply(.transpose, .none, m: out, n: input, k: rows, a: dy, lda: out, b: x, ldb: input,
    ///                       c: dW, ldc: input, accumulate: true)
    public func multiply(_ transposeA: BLAS.Transpose, _ transposeB: BLAS.Transpose, m: Int, n: Int, k: Int,
                         a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
                         c: UnsafeMutablePointer<Float>, ldc: Int, accumulate: Bool = false,
                         bias: UnsafePointer<Float>? = nil) {
        precondition(m >= 0 && n >= 0 && k >= 0 && lda >= max(1, transposeA == .none ? k : m)
                     && ldb >= max(1, transposeB == .none ? n : k) && ldc >= max(1, n),
                     "TrainingProducts.multiply: m \(m), n \(n), k \(k), lda \(lda), ldb \(ldb), ldc \(ldc)")
        guard m > 0, n > 0 else { return }
        guard k > 0 else {
            // An empty sum: only what was there and the bias.
            for row in 0..<m {
                let line = c + row * ldc
                if !accumulate { line.update(repeating: 0, count: n) }
                if let bias { for column in 0..<n { line[column] += bias[column] } }
            }
            return
        }
        if Self.usesBLAS || Self.isSmall(m: m, n: n, k: k, limit: smallProductLimit) {
            multiplyThroughBLAS(transposeA, transposeB, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc,
                                accumulate: accumulate, bias: bias)
            return
        }
        let depth = Self.blockDepth(k), panelFloats = Self.packedSize(inner: depth, width: n)
        let transposedFloats = transposeA == .transpose ? m * k : 0
        guard lock.try() else {
            // Another thread's product holds the scratch: this one takes its own for the call rather
            // than wait (the same arithmetic; `Linear` shares ``shared`` between its callers).
            let panels = UnsafeMutableRawPointer.allocate(byteCount: panelFloats * MemoryLayout<Float>.stride, alignment: 64)
            let transposed = UnsafeMutablePointer<Float>.allocate(capacity: max(transposedFloats, 1))
            defer { panels.deallocate(); transposed.deallocate() }
            Self.multiply(transposeA, transposeB, m: m, n: n, k: k, depth: depth, a: a, lda: lda, b: b, ldb: ldb, c: c,
                          ldc: ldc, accumulate: accumulate, bias: bias,
                          panels: panels.bindMemory(to: Float.self, capacity: panelFloats), transposed: transposed)
            return
        }
        defer { lock.unlock() }
        reservePanels(panelFloats)
        reserveTransposed(transposedFloats)
        guard let panels = panels?.assumingMemoryBound(to: Float.self) else { return }
        Self.multiply(transposeA, transposeB, m: m, n: n, k: k, depth: depth, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc,
                      accumulate: accumulate, bias: bias, panels: panels, transposed: transposed ?? panels)
    }

    /// The product of ``multiply(_:_:m:n:k:a:lda:b:ldb:c:ldc:accumulate:bias:)`` in the given scratch
    /// (`panels`: a block of `depth` rows of B packed; `transposed`: `m × k` floats when op(a) is Aᵀ).
    private static func multiply(_ transposeA: BLAS.Transpose, _ transposeB: BLAS.Transpose, m: Int, n: Int, k: Int,
                                 depth: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
                                 c: UnsafeMutablePointer<Float>, ldc: Int, accumulate: Bool, bias: UnsafePointer<Float>?,
                                 panels: UnsafeMutablePointer<Float>, transposed: UnsafeMutablePointer<Float>) {
        var rowsOfA = a, strideOfA = lda
        if transposeA == .transpose {
            // op(a) row i is column i of the stored k × m matrix: written out as m rows of k, the
            // columns split over the threads.
            Kernels.forEachRowChunk(rowCount: m, rowLength: k) { columns in
                nlukit_transpose(a + columns.lowerBound, lda, k, columns.count, transposed + columns.lowerBound * k, k, 0)
            }
            (rowsOfA, strideOfA) = (UnsafePointer(transposed), k)
        }
        // Block by block of k: each block's B rows packed, its sum added to c; the bias with the last.
        for first in stride(from: 0, to: k, by: depth) {
            let count = min(depth, k - first)
            PackedMatrix.pack(transposeB == .transpose ? b + first : b + first * ldb, ldb: ldb,
                              transposed: transposeB == .transpose, inner: count, width: n, into: panels)
            PackedMatrix.multiply(packed: UnsafePointer(panels), inner: count, width: n, rowsOfA + first, rows: m,
                                  lda: strideOfA, into: c, ldc: ldc, accumulate: accumulate || first > 0,
                                  bias: first + count == k ? bias : nil, activation: .none)
        }
    }

    /// `c = alpha·op(a)·op(b)` (overwritten), as ``multiply(_:_:m:n:k:a:lda:b:ldb:c:ldc:accumulate:bias:)``
    /// but all on the calling thread, in scratch the caller owns: for products too small to split
    /// that the caller already runs side by side (attention's per-head products, a head per pool task,
    /// as inference runs them). `panels` holds ``packedSize(inner:width:)`` floats for `k × n`, 64-byte
    /// aligned (the kernel loads panel rows as aligned vectors); `transposed` holds `m × k` floats
    /// when op(a) is Aᵀ, else it is not read. Alpha scales the finished sum, as `sgemm` does; k is
    /// summed in blocks as ``multiply(_:_:m:n:k:a:lda:b:ldb:c:ldc:accumulate:bias:)`` sums it, and
    /// `panels` need only hold a block's rows. Products below `smallProductLimit` multiply-adds go
    /// to `sgemm`, as ``smallProduct`` says.
    ///
    ///     // scores[length, length] = scale · q[length, d] · k[length, d]ᵀ, rows `hidden` apart
    ///     TrainingProducts.multiplyOnThisThread(.none, .transpose, m: length, n: length, k: d, alpha: scale,
    ///                                           a: q, lda: hidden, b: k, ldb: hidden, c: scores, ldc: length,
    ///                                           panels: panels, transposed: transposed)
    public static func multiplyOnThisThread(_ transposeA: BLAS.Transpose, _ transposeB: BLAS.Transpose, m: Int, n: Int, k: Int,
                                            alpha: Float = 1, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>,
                                            ldb: Int, c: UnsafeMutablePointer<Float>, ldc: Int,
                                            panels: UnsafeMutablePointer<Float>, transposed: UnsafeMutablePointer<Float>,
                                            smallProductLimit: Int = TrainingProducts.smallProduct) {
        precondition(m >= 0 && n >= 0 && k >= 0 && lda >= max(1, transposeA == .none ? k : m)
                     && ldb >= max(1, transposeB == .none ? n : k) && ldc >= max(1, n),
                     "TrainingProducts.multiplyOnThisThread: m \(m), n \(n), k \(k), lda \(lda), ldb \(ldb), ldc \(ldc)")
        guard m > 0, n > 0 else { return }
        guard k > 0 else {
            for row in 0..<m { (c + row * ldc).update(repeating: 0, count: n) }
            return
        }
        if usesBLAS || isSmall(m: m, n: n, k: k, limit: smallProductLimit) {
            BLAS.sgemm(transposeA, transposeB, m: m, n: n, k: k, alpha: alpha, a: a, lda: lda, b: b, ldb: ldb,
                       beta: 0, c: c, ldc: ldc)
            return
        }
        var rowsOfA = a, strideOfA = lda
        if transposeA == .transpose {
            nlukit_transpose(a, lda, k, m, transposed, k, 0)
            (rowsOfA, strideOfA) = (UnsafePointer(transposed), k)
        }
        let depth = blockDepth(k)
        for first in stride(from: 0, to: k, by: depth) {
            let count = min(depth, k - first)
            nlukit_pack(transposeB == .transpose ? b + first : b + first * ldb, ldb, transposeB == .transpose ? 1 : 0,
                        count, n, panels)
            nlukit_packed_gemm(rowsOfA + first, strideOfA, m, count, panels, n, 0, PackedMatrix.panelCount(width: n),
                               c, ldc, first > 0 ? 1 : 0, nil, 0)
        }
        if alpha != 1 {
            for row in 0..<m {
                let line = c + row * ldc
                for column in 0..<n { line[column] *= alpha }
            }
        }
    }

    /// Whether an `m × n` product over `k` has fewer than `limit` multiply-adds (an overflowing
    /// count is not small).
    static func isSmall(m: Int, n: Int, k: Int, limit: Int) -> Bool {
        let (mn, o1) = m.multipliedReportingOverflow(by: n)
        let (mnk, o2) = mn.multipliedReportingOverflow(by: k)
        return !o1 && !o2 && mnk < limit
    }

    /// The rows of k summed in one chain for a sum over `k`: k itself up to ``depthBlock``, else
    /// k cut into the fewest equal blocks no longer than that.
    static func blockDepth(_ k: Int) -> Int {
        let blocks = (k + depthBlock - 1) / depthBlock
        return (k + max(blocks, 1) - 1) / max(blocks, 1)
    }

    /// The same product through `sgemm` (``usesBLAS``): the bias is first added to (or written into)
    /// each row of c, then the product added to it.
    private func multiplyThroughBLAS(_ transposeA: BLAS.Transpose, _ transposeB: BLAS.Transpose, m: Int, n: Int, k: Int,
                                     a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
                                     c: UnsafeMutablePointer<Float>, ldc: Int, accumulate: Bool, bias: UnsafePointer<Float>?) {
        if let bias {
            for row in 0..<m {
                let line = c + row * ldc
                if accumulate {
                    for column in 0..<n { line[column] += bias[column] }
                } else {
                    line.update(from: bias, count: n)
                }
            }
        }
        BLAS.sgemm(transposeA, transposeB, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb,
                   beta: accumulate || bias != nil ? 1 : 0, c: c, ldc: ldc)
    }

    /// Makes the panel buffer hold at least `floats` (64-byte aligned: the kernel loads panel rows
    /// as aligned vectors). Called with the lock held, or from `init`.
    private func reservePanels(_ floats: Int) {
        guard floats > panelCapacity else { return }
        panels?.deallocate()
        panels = UnsafeMutableRawPointer.allocate(byteCount: floats * MemoryLayout<Float>.stride, alignment: 64)
        panelCapacity = floats
    }

    /// Makes the transposed-A buffer hold at least `floats`. Called with the lock held, or from `init`.
    private func reserveTransposed(_ floats: Int) {
        guard floats > transposedCapacity else { return }
        transposed?.deallocate()
        transposed = .allocate(capacity: floats)
        transposedCapacity = floats
    }
}

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
/// One product runs at a time on an instance (a lock; the product itself uses every pool thread):
/// give each concurrent user its own (an encoder's training workspace), or share ``shared``. Each
/// output element is one chain of fused multiply-adds over k, whatever the thread count.
///
///     let products = TrainingProducts()
///     // y[rows, out] = x[rows, in]·wᵀ + b
///     products.multiply(.none, .transpose, m: rows, n: out, k: input, a: x, lda: input, b: w, ldb: input,
///                       c: y, ldc: out, bias: b)
public final class TrainingProducts: @unchecked Sendable {
    /// For callers without a scratch of their own (a classifier head's products, a trainer's small
    /// layers): its buffers grow to the largest product it has run and stay.
    public static let shared = TrainingProducts()

    /// `NLUKIT_TRAINING_GEMM=blas` sends every product to OpenBLAS's `sgemm` instead, read once at
    /// start: for benchmarks that compare the two in one binary.
    static let usesBLAS = ProcessInfo.processInfo.environment["NLUKIT_TRAINING_GEMM"] == "blas"

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
    public init(packedCapacity: Int = 0, transposedCapacity: Int = 0) {
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
        if Self.usesBLAS {
            multiplyThroughBLAS(transposeA, transposeB, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc,
                                accumulate: accumulate, bias: bias)
            return
        }
        lock.withLock {
            var rowsOfA = a, strideOfA = lda
            if transposeA == .transpose {
                // op(a) row i is column i of the stored k × m matrix: written out as m rows of k, the
                // columns split over the threads.
                reserveTransposed(m * k)
                guard let target = transposed else { return }
                Kernels.forEachRowChunk(rowCount: m, rowLength: k) { columns in
                    nlukit_transpose(a + columns.lowerBound, lda, k, columns.count, target + columns.lowerBound * k, k, 0)
                }
                (rowsOfA, strideOfA) = (UnsafePointer(target), k)
            }
            reservePanels(Self.packedSize(inner: k, width: n))
            guard let storage = panels?.assumingMemoryBound(to: Float.self) else { return }
            PackedMatrix.pack(b, ldb: ldb, transposed: transposeB == .transpose, inner: k, width: n, into: storage)
            PackedMatrix.multiply(packed: UnsafePointer(storage), inner: k, width: n, rowsOfA, rows: m, lda: strideOfA,
                                  into: c, ldc: ldc, accumulate: accumulate, bias: bias, activation: .none)
        }
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

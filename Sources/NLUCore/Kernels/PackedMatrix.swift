import CKernels

/// A weight matrix B (k × n) packed once into 32-column panels for the products `x[m, k] · B`
/// of a model's layers, with an optional bias and activation fused into the store of each row.
///
/// OpenBLAS re-packs B on every call, which costs about a quarter of a small-M product; the C
/// kernel (``nlukit_packed_gemm``) reads this packed copy instead. Use it for a weight that is
/// multiplied many times: a linear layer's weight packed at load, a recurrent weight per sequence.
/// Immutable after `init`, so one instance may be used from several threads at once.
///
///     let dense = PackedMatrix(linearWeight: weight)              // nn.Linear weight [out, in]
///     dense.multiply(x, rows: tokens, into: hidden, bias: b, activation: .gelu)   // gelu(x·wᵀ + b)
public final class PackedMatrix: @unchecked Sendable {
    /// The activation applied to each output element after the bias: the same element functions
    /// (C code) as the standalone kernels `Kernels.gelu`, `Kernels.geluTanh` and `Kernels.relu`.
    ///
    ///     dense.multiply(x, rows: m, into: y, bias: b, activation: .geluTanh)
    public enum Activation: Sendable {
        /// No activation: `y = x·B (+ bias)`.
        case none
        /// Exact GELU `0.5·x·(1 + erf(x/√2))`.
        case gelu
        /// Tanh GELU `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`.
        case geluTanh
        /// `max(x, 0)`.
        case relu

        /// The kernel's NLUKIT_ACTIVATION_ value.
        var code: Int32 {
            switch self {
            case .none: Int32(NLUKIT_ACTIVATION_NONE)
            case .gelu: Int32(NLUKIT_ACTIVATION_GELU)
            case .geluTanh: Int32(NLUKIT_ACTIVATION_GELU_TANH)
            case .relu: Int32(NLUKIT_ACTIVATION_RELU)
            }
        }
    }

    /// The inner dimension k of the products (rows of B).
    public let inner: Int
    /// The output width n of the products (columns of B).
    public let width: Int
    private let packed: UnsafeMutableRawPointer
    private let panelCount: Int

    /// Storage for a k × n matrix, packed by the caller (through ``storage`` outside this file).
    init(inner: Int, width: Int) {
        precondition(inner >= 0 && width >= 0, "PackedMatrix of \(inner) × \(width)")
        self.inner = inner
        self.width = width
        let floats = Self.storageSize(inner: inner, width: width)
        // 64-byte alignment: the kernel loads whole panel rows as aligned vectors.
        packed = UnsafeMutableRawPointer.allocate(byteCount: floats * MemoryLayout<Float>.stride, alignment: 64)
        panelCount = Self.panelCount(width: width)
    }

    /// Packs `weight` (`rows × columns`, row-major): B = weightᵀ when `transposed` (k = columns,
    /// n = rows), else B = weight (k = rows, n = columns).
    ///
    ///     let b = PackedMatrix(weight: w, rows: 4 * hidden, columns: hidden, transposed: true)
    public convenience init(weight: UnsafePointer<Float>, rows: Int, columns: Int, transposed: Bool) {
        self.init(inner: transposed ? columns : rows, width: transposed ? rows : columns)
        pack(weight, ldb: columns, transposed: transposed)
    }

    /// Packs a PyTorch `nn.Linear` weight `[out, in]`: B = weightᵀ, so `multiply` computes
    /// `x·weightᵀ` (k = in, n = out). The weight must have rank 2 (a programming error otherwise).
    ///
    ///     let query = PackedMatrix(linearWeight: queryWeight)   // [768, 768]
    public convenience init(linearWeight: Tensor<Float>) {
        precondition(linearWeight.rank == 2, "linear weight of shape \(linearWeight.shape) is not [out, in]")
        let out = linearWeight.shape[0], input = linearWeight.shape[1]
        self.init(inner: input, width: out)
        linearWeight.withUnsafeBufferPointer { weight in
            guard let base = weight.baseAddress else { return }
            pack(base, ldb: input, transposed: true)
        }
    }

    private func pack(_ b: UnsafePointer<Float>, ldb: Int, transposed: Bool) {
        Self.pack(b, ldb: ldb, transposed: transposed, inner: inner, width: width,
                  into: packed.assumingMemoryBound(to: Float.self))
    }

    /// Packs the `inner × width` matrix B (`b[kk·ldb + j]`, or `b[j·ldb + kk]` when `transposed`)
    /// into `storage` (``storageSize(inner:width:)`` floats, 64-byte aligned), a range of panels per
    /// kernel thread: panels are independent, and packing a model's weights at load was 7 % of a
    /// one-question `nlu qa ask` on one thread. For matrices packed into a caller's buffer
    /// (``TrainingProducts``) as well as this type's own.
    static func pack(_ b: UnsafePointer<Float>, ldb: Int, transposed: Bool, inner: Int, width: Int,
                     into storage: UnsafeMutablePointer<Float>) {
        let panel = Int(NLUKIT_PANEL_WIDTH)
        Kernels.forEachRowChunk(rowCount: panelCount(width: width), rowLength: inner * panel) { panels in
            let first = panels.lowerBound * panel, count = min(width, panels.upperBound * panel) - first
            nlukit_pack(transposed ? b + first * ldb : b + first, ldb, transposed ? 1 : 0, inner, count,
                        storage + panels.lowerBound * inner * panel)
        }
    }

    /// The 32-column panels a matrix `width` columns wide is packed in (the last one zero-padded).
    static func panelCount(width: Int) -> Int { (width + Int(NLUKIT_PANEL_WIDTH) - 1) / Int(NLUKIT_PANEL_WIDTH) }

    /// The floats a packed `inner × width` matrix takes (whole panels), at least 1.
    static func storageSize(inner: Int, width: Int) -> Int { max(1, nlukit_packed_size(inner, width)) }

    deinit { packed.deallocate() }

    /// The packed floats, for kernels that fill a matrix made with ``init(inner:width:)`` (the
    /// gate gradients of a recurrent layer, packed step by step by ``GateGradientPanels``); no product
    /// may read it until it is filled.
    var storage: UnsafeMutablePointer<Float> { packed.assumingMemoryBound(to: Float.self) }

    /// `output[i, j] = activation((accumulate ? output[i, j] : 0) + Σ x[i, kk]·B[kk, j] + bias[j])`
    /// for `m` rows: row i of `x` starts at `x + i·lda` (default k), row i of `output` at
    /// `output + i·ldc` (default n); `bias` has n floats or is nil. Large products are split
    /// over threads by column panels.
    ///
    ///     dense.multiply(x, rows: 384, into: hidden, bias: b, activation: .gelu)
    public func multiply(_ x: UnsafePointer<Float>, rows m: Int, lda: Int? = nil, into output: UnsafeMutablePointer<Float>,
                         ldc: Int? = nil, accumulate: Bool = false, bias: UnsafePointer<Float>? = nil,
                         activation: Activation = .none) {
        let lda = lda ?? inner, ldc = ldc ?? width
        precondition(m >= 0 && lda >= inner && ldc >= width, "PackedMatrix.multiply: m \(m), lda \(lda), ldc \(ldc) for \(inner) × \(width)")
        Self.multiply(packed: UnsafePointer(packed.assumingMemoryBound(to: Float.self)), inner: inner, width: width, x, rows: m,
                      lda: lda, into: output, ldc: ldc, accumulate: accumulate, bias: bias, activation: activation)
    }

    /// ``multiply(_:rows:lda:into:ldc:accumulate:bias:activation:)`` over a matrix packed by
    /// ``pack(_:ldb:transposed:inner:width:into:)`` into `packed`: the panels split over the pool's threads.
    static func multiply(packed: UnsafePointer<Float>, inner: Int, width: Int, _ x: UnsafePointer<Float>, rows m: Int,
                         lda: Int, into output: UnsafeMutablePointer<Float>, ldc: Int, accumulate: Bool,
                         bias: UnsafePointer<Float>?, activation: Activation) {
        Kernels.forEachRowChunk(rowCount: panelCount(width: width), rowLength: m * inner, minimumWork: 1 << 15,
                                chunksPerThread: chunksPerThread) { panels in
            nlukit_packed_gemm(x, lda, m, inner, packed, width, panels.lowerBound, panels.upperBound, output, ldc,
                               accumulate ? 1 : 0, bias, activation.code)
        }
    }

    /// Panel chunks per thread: ``gemmChunksPerThread``, except at x86-64's portable level, whose
    /// SSE2 block writes the call's rows of A out broadcast (four copies of each value) before
    /// reading them for every panel of the call: 8 chunks a thread left two panels of a 768-wide
    /// weight to share that copy, and the level ran at 75-90 % of its peak on two threads.
    private static var chunksPerThread: Int {
        #if arch(x86_64)
        CPULevel.current == .portable ? 2 : gemmChunksPerThread
        #else
        gemmChunksPerThread
        #endif
    }

    /// The same product as ``multiply(_:rows:lda:into:ldc:accumulate:bias:activation:)``, all on the
    /// calling thread: for callers that already split their work over threads (e.g. per attention head).
    ///
    ///     // on a worker that owns rows [start, start + count) of x and y:
    ///     dense.multiplySerial(x + start * dense.inner, rows: count, into: y + start * dense.width)
    public func multiplySerial(_ x: UnsafePointer<Float>, rows m: Int, lda: Int? = nil, into output: UnsafeMutablePointer<Float>,
                               ldc: Int? = nil, accumulate: Bool = false, bias: UnsafePointer<Float>? = nil,
                               activation: Activation = .none) {
        let lda = lda ?? inner, ldc = ldc ?? width
        precondition(m >= 0 && lda >= inner && ldc >= width, "PackedMatrix.multiplySerial: m \(m), lda \(lda), ldc \(ldc) for \(inner) × \(width)")
        run(x, m: m, lda: lda, output: output, ldc: ldc, accumulate: accumulate, bias: bias, activation: activation,
            panels: 0..<panelCount)
    }

    /// The number of 32-column panels B is packed in (the last one zero-padded).
    var panels: Int { panelCount }

    /// The columns of B that the panels `panels` hold.
    func columns(ofPanels panels: Range<Int>) -> Range<Int> {
        let width = Int(NLUKIT_PANEL_WIDTH)
        return min(self.width, panels.lowerBound * width)..<min(self.width, panels.upperBound * width)
    }

    /// The columns of the panels `panels` of the product `x·B` (plus `bias`, n floats, when given),
    /// on the calling thread: for callers
    /// that share one product's columns between concurrent tasks (``RecurrentPipeline``).
    func multiplySerial(_ x: UnsafePointer<Float>, rows m: Int, into output: UnsafeMutablePointer<Float>,
                        accumulate: Bool, bias: UnsafePointer<Float>? = nil, panels: Range<Int>) {
        precondition(m >= 0 && panels.lowerBound >= 0 && panels.upperBound <= panelCount,
                     "PackedMatrix.multiplySerial: m \(m), panels \(panels) of \(panelCount)")
        run(x, m: m, lda: inner, output: output, ldc: width, accumulate: accumulate, bias: bias, activation: .none,
            panels: panels)
    }

    /// The kernel over the column panels `panels`.
    private func run(_ x: UnsafePointer<Float>, m: Int, lda: Int, output: UnsafeMutablePointer<Float>, ldc: Int,
                     accumulate: Bool, bias: UnsafePointer<Float>?, activation: Activation, panels: Range<Int>) {
        nlukit_packed_gemm(x, lda, m, inner, UnsafePointer(packed.assumingMemoryBound(to: Float.self)), width,
                           panels.lowerBound, panels.upperBound, output, ldc, accumulate ? 1 : 0, bias, activation.code)
    }
}

/// Panel chunks per thread of a packed (F32 or INT8) product, claimed by the threads as they
/// become free. One chunk per thread left the thread that finished first waiting for the other at
/// every product (a late start, a core lost for a while on a shared VM). `perf` of QA-128 on 2
/// threads (Zen 3 VM): waiting (pool spin, yield, scheduler) 6.9 % of samples at 1 chunk per
/// thread, 5.0 % at 4, 3.5 % at 8; the GEMM's share 87.6 -> 91.6 %.
let gemmChunksPerThread = 8

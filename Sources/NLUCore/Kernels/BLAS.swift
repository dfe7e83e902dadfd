#if canImport(Accelerate)
import Accelerate
#else
import CBLAS
#endif
import CKernels
import Foundation

/// The BLAS the kernels run on: OpenBLAS on Linux, Accelerate on Apple platforms.
///
/// The thread count follows `NLUKIT_THREADS` (1 to ``maxThreadCount``; another value is refused, see
/// ``ThreadCountOverride``), then `OPENBLAS_NUM_THREADS`, and defaults to the number of active cores. Call
/// ``configure(threads:)`` to change it at run time.
///
/// On Linux the process has one set of worker threads, the kernels' pool: OpenBLAS itself runs
/// single-threaded, and large products are split into row or column blocks that the pool's
/// threads hand to it side by side: OpenBLAS's own threads beside the pool would take turns
/// spinning on the same cores.
///
///     BLAS.configure(threads: 2)
///     print(BLAS.configuration)   // "OpenBLAS 0.3.21 ... SkylakeX MAX_THREADS=64"
public enum BLAS {
    /// Whether a matrix operand is used as stored or transposed.
    public enum Transpose: Sendable {
        case none, transpose
    }

    /// The most threads the environment can ask for: `NLUKIT_THREADS` above it is refused
    /// (``ThreadCountOverride``), `OPENBLAS_NUM_THREADS` above it clamped to it.
    public static let maxThreadCount = 1024

    /// The number of threads BLAS calls use, as configured from the environment at first use.
    public static let defaultThreadCount: Int = {
        if let count = ThreadCountOverride.requested { return count }
        // OpenBLAS's own variable is read as OpenBLAS reads it: a value that is no positive number is ignored, and a
        // huge one clamped (it would trap converting to the C libraries' Int32).
        if let value = ProcessInfo.processInfo.environment["OPENBLAS_NUM_THREADS"], let count = Int(value), count > 0 {
            return min(count, maxThreadCount)
        }
        return ProcessInfo.processInfo.activeProcessorCount
    }()

    // Applies the default thread count to BLAS and the kernel thread pool exactly once, before
    // the first BLAS call or threaded kernel.
    static let threadSetup: Void = {
        #if !canImport(Accelerate)
        openblas_set_num_threads(1)  // each call runs on the thread that makes it: see the type's note
        stopOpenBLASWorkers()
        #endif
        nlukit_pool_set_threads(Int32(defaultThreadCount))
    }()

    /// Settles the BLAS threads now rather than at the first product: a program that starts many
    /// short runs (the `nlu` command does, at launch) calls it first thing.
    ///
    ///     BLAS.prepare()
    public static func prepare() {
        _ = threadSetup
    }

    #if !canImport(Accelerate)
    /// OpenBLAS's pthreads build starts a worker per core when it loads, and idle workers spin on
    /// `sched_yield` for about a tenth of a second before they sleep: 0.1 s of the other core's
    /// time on every short `nlu` command (0.52 -> 0.30 CPU s for `nlu tokenize` over 2 MB). NLUKit
    /// never hands OpenBLAS more than one thread, so they are joined where the library exports
    /// `blas_thread_shutdown_` (looked up at run time: other builds have no such symbol and still
    /// link); OpenBLAS starts them again by itself if it ever needs them.
    private static func stopOpenBLASWorkers() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "blas_thread_shutdown_") else { return }
        typealias Shutdown = @convention(c) () -> Int32
        _ = unsafeBitCast(symbol, to: Shutdown.self)()
    }
    #endif

    /// Sets the number of threads BLAS products and the element-wise kernels use from now on (on
    /// Apple platforms only the kernels': Accelerate schedules its own threads).
    public static func configure(threads: Int) {
        _ = threadSetup
        nlukit_pool_set_threads(Int32(max(1, threads)))
    }

    /// Below this many multiply-adds a product runs on the calling thread: about 10 µs of one
    /// core's work, where the pool's start-up (under a microsecond) stops mattering.
    static let splitThreshold = 1 << 18

    /// Runs `body(rows, columns)` over blocks of an m × n result: one block per pool thread, along
    /// the longer side, when `m · n · k` reaches ``splitThreshold``; else the whole result at once.
    /// Accelerate threads its own calls, so there the whole result always goes at once.
    static func forEachBlock(m: Int, n: Int, k: Int, _ body: (Range<Int>, Range<Int>) -> Void) {
        #if canImport(Accelerate)
        body(0..<m, 0..<n)
        #else
        let splitRows = m >= n
        let count = splitRows ? m : n
        // Saturated: forEachRowChunk multiplies count by this, and m·n·k of a huge call must not trap.
        let (length, overflow) = (splitRows ? n : m).multipliedReportingOverflow(by: max(k, 1))
        let rowLength = overflow ? Int.max / max(count, 1) : min(length, Int.max / max(count, 1))
        Kernels.forEachRowChunk(rowCount: count, rowLength: rowLength, minimumWork: splitThreshold) { block in
            if splitRows { body(block, 0..<n) } else { body(0..<m, block) }
        }
        #endif
    }

    /// One block of a split product C = op(A)·op(B): the sub-matrix of C at `rows` × `columns`
    /// and where its operands start, as `body(m, n, a, b, c)` for the BLAS call. Row i of op(A) is
    /// row i of A, or its column i when A is transposed; likewise for op(B)'s columns.
    static func forEachProductBlock<Scalar>(
        _ transposeA: Transpose, _ transposeB: Transpose, m: Int, n: Int, k: Int,
        a: UnsafePointer<Scalar>, lda: Int, b: UnsafePointer<Scalar>, ldb: Int,
        c: UnsafeMutablePointer<Scalar>, ldc: Int,
        _ body: (BLASInt, BLASInt, UnsafePointer<Scalar>, UnsafePointer<Scalar>, UnsafeMutablePointer<Scalar>) -> Void
    ) {
        forEachBlock(m: m, n: n, k: k) { rows, columns in
            body(blasInt(rows.count), blasInt(columns.count),
                 transposeA == .none ? a + rows.lowerBound * lda : a + rows.lowerBound,
                 transposeB == .none ? b + columns.lowerBound : b + columns.lowerBound * ldb,
                 c + rows.lowerBound * ldc + columns.lowerBound)
        }
    }

    /// A description of the BLAS build and the CPU kernels it selected.
    public static var configuration: String {
        #if canImport(Accelerate)
        return "Accelerate"
        #else
        let config = openblas_get_config().map { String(cString: $0) } ?? "OpenBLAS"
        let core = openblas_get_corename().map { String(cString: $0) } ?? "unknown"
        return "\(config.trimmingCharacters(in: .whitespaces)) (core: \(core))"
        #endif
    }

    /// The CPU core type OpenBLAS selected (e.g. "SkylakeX", "Haswell", "Prescott").
    public static var coreName: String {
        #if canImport(Accelerate)
        return "Accelerate"
        #else
        return openblas_get_corename().map { String(cString: $0) } ?? "unknown"
        #endif
    }

    /// Single-precision general matrix multiply, row-major:
    /// `C = alpha * op(A) * op(B) + beta * C` with `op(A)` m×k, `op(B)` k×n and `C` m×n.
    public static func sgemm(
        _ transposeA: Transpose, _ transposeB: Transpose,
        m: Int, n: Int, k: Int,
        alpha: Float = 1,
        a: UnsafePointer<Float>, lda: Int,
        b: UnsafePointer<Float>, ldb: Int,
        beta: Float = 0,
        c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        _ = threadSetup
        guard m > 0, n > 0 else { return }
        forEachProductBlock(transposeA, transposeB, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc) {
            cblas_sgemm(CblasRowMajor, transposeA == .none ? CblasNoTrans : CblasTrans,
                        transposeB == .none ? CblasNoTrans : CblasTrans, $0, $1, blasInt(k),
                        alpha, $2, blasInt(lda), $3, blasInt(ldb), beta, $4, blasInt(ldc))
        }
    }

    /// Single-precision matrix-vector multiply, row-major: `y = alpha * op(A) * x + beta * y`,
    /// with `A` stored as rows×columns.
    public static func sgemv(
        _ transposeA: Transpose, rows: Int, columns: Int,
        alpha: Float = 1, a: UnsafePointer<Float>, lda: Int,
        x: UnsafePointer<Float>, beta: Float = 0, y: UnsafeMutablePointer<Float>
    ) {
        _ = threadSetup
        guard rows > 0, columns > 0 else { return }
        // y's entries split over the pool: rows of A, or its columns when transposed.
        let outputs = transposeA == .none ? rows : columns, inputs = transposeA == .none ? columns : rows
        forEachBlock(m: outputs, n: 1, k: inputs) { block, _ in
            let blockA = transposeA == .none ? a + block.lowerBound * lda : a + block.lowerBound
            cblas_sgemv(
                CblasRowMajor, transposeA == .none ? CblasNoTrans : CblasTrans,
                blasInt(transposeA == .none ? block.count : rows), blasInt(transposeA == .none ? columns : block.count),
                alpha, blockA, blasInt(lda), x, 1, beta, y + block.lowerBound, 1)
        }
    }

    /// Double-precision general matrix multiply, row-major, as ``sgemm(_:_:m:n:k:alpha:a:lda:b:ldb:beta:c:ldc:)``
    /// (for solvers that need the precision, e.g. CRF training's forward-backward).
    public static func dgemm(
        _ transposeA: Transpose, _ transposeB: Transpose,
        m: Int, n: Int, k: Int,
        alpha: Double = 1,
        a: UnsafePointer<Double>, lda: Int,
        b: UnsafePointer<Double>, ldb: Int,
        beta: Double = 0,
        c: UnsafeMutablePointer<Double>, ldc: Int
    ) {
        _ = threadSetup
        guard m > 0, n > 0 else { return }
        forEachProductBlock(transposeA, transposeB, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc) {
            cblas_dgemm(CblasRowMajor, transposeA == .none ? CblasNoTrans : CblasTrans,
                        transposeB == .none ? CblasNoTrans : CblasTrans, $0, $1, blasInt(k),
                        alpha, $2, blasInt(lda), $3, blasInt(ldb), beta, $4, blasInt(ldc))
        }
    }

    #if canImport(Accelerate)
    typealias BLASInt = Int32
    #else
    typealias BLASInt = blasint
    #endif

    static func blasInt(_ value: Int) -> BLASInt { BLASInt(value) }
}

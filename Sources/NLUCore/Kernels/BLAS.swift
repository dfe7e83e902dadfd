#if canImport(Accelerate)
import Accelerate
#else
import CBLAS
#endif
import CKernels
import Foundation

/// The BLAS the kernels run on: OpenBLAS on Linux, Accelerate on Apple platforms.
///
/// The thread count follows `NLUKIT_THREADS`, then `OPENBLAS_NUM_THREADS`, and defaults to the
/// number of active cores. Call ``configure(threads:)`` to change it at run time.
///
///     BLAS.configure(threads: 2)
///     print(BLAS.configuration)   // "OpenBLAS 0.3.21 ... SkylakeX MAX_THREADS=64"
public enum BLAS {
    /// Whether a matrix operand is used as stored or transposed.
    public enum Transpose: Sendable {
        case none, transpose
    }

    /// The most threads the environment can ask for (larger values are clamped to it).
    public static let maxThreadCount = 1024

    /// The number of threads BLAS calls use, as configured from the environment at first use.
    public static let defaultThreadCount: Int = {
        let environment = ProcessInfo.processInfo.environment
        for key in ["NLUKIT_THREADS", "OPENBLAS_NUM_THREADS"] {
            // Clamped: a huge value would trap converting to the C libraries' Int32.
            if let value = environment[key], let count = Int(value), count > 0 { return min(count, maxThreadCount) }
        }
        return ProcessInfo.processInfo.activeProcessorCount
    }()

    // Applies the default thread count to BLAS and the kernel thread pool exactly once, before
    // the first BLAS call or threaded kernel.
    static let threadSetup: Void = {
        #if !canImport(Accelerate)
        openblas_set_num_threads(Int32(defaultThreadCount))
        #endif
        nlukit_pool_set_threads(Int32(defaultThreadCount))
    }()

    /// Sets the number of threads BLAS and the element-wise kernels use from now on (on Apple
    /// platforms only the kernels': Accelerate schedules its own threads).
    public static func configure(threads: Int) {
        _ = threadSetup
        #if !canImport(Accelerate)
        openblas_set_num_threads(Int32(max(1, threads)))
        #endif
        nlukit_pool_set_threads(Int32(max(1, threads)))
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
        cblas_sgemm(
            CblasRowMajor,
            transposeA == .none ? CblasNoTrans : CblasTrans,
            transposeB == .none ? CblasNoTrans : CblasTrans,
            blasInt(m), blasInt(n), blasInt(k),
            alpha, a, blasInt(lda), b, blasInt(ldb), beta, c, blasInt(ldc))
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
        cblas_sgemv(
            CblasRowMajor, transposeA == .none ? CblasNoTrans : CblasTrans,
            blasInt(rows), blasInt(columns), alpha, a, blasInt(lda), x, 1, beta, y, 1)
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
        cblas_dgemm(
            CblasRowMajor,
            transposeA == .none ? CblasNoTrans : CblasTrans,
            transposeB == .none ? CblasNoTrans : CblasTrans,
            blasInt(m), blasInt(n), blasInt(k),
            alpha, a, blasInt(lda), b, blasInt(ldb), beta, c, blasInt(ldc))
    }

    #if canImport(Accelerate)
    typealias BLASInt = Int32
    #else
    typealias BLASInt = blasint
    #endif

    static func blasInt(_ value: Int) -> BLASInt { BLASInt(value) }
}

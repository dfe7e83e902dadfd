import CKernels
import Foundation

/// The instruction-set level NLUKit's own kernels (packed GEMM, element-wise, softmax, layer
/// norm, LSTM/GRU cells) are compiled for, each tuned on its own. The best level the CPU runs is
/// picked at start; `NLUKIT_CPU_LEVEL=avx512|avx2|portable` forces a lower one, so that one
/// machine can test and benchmark every level it can run.
///
///     NLUKIT_CPU_LEVEL=avx2 nlu qa ask ...      # the AVX2+FMA kernels on an AVX-512 machine
public enum CPULevel: Int, CaseIterable, Comparable, Sendable {
    /// Plain C the compiler vectorizes for the target's baseline (SSE2 on x86-64, NEON on arm64).
    case portable = 0
    /// AVX2 + FMA (Intel since Haswell, AMD since Zen 1): 16 × 256-bit registers.
    case avx2 = 1
    /// AVX-512 F/DQ/VL/BW (Intel server parts since Skylake-SP, AMD since Zen 4): 32 × 512-bit registers.
    case avx512 = 2

    /// The name `NLUKIT_CPU_LEVEL` takes: "avx512", "avx2" or "portable".
    public var name: String {
        switch self {
        case .portable: "portable"
        case .avx2: "avx2"
        case .avx512: "avx512"
        }
    }

    public static func < (a: CPULevel, b: CPULevel) -> Bool { a.rawValue < b.rawValue }

    /// The level the kernels run at now.
    public static var current: CPULevel { CPULevel(rawValue: Int(nlukit_kernel_level())) ?? .portable }

    /// The best level this CPU can run, whatever `NLUKIT_CPU_LEVEL` says.
    public static var supported: CPULevel { CPULevel(rawValue: Int(nlukit_cpu_level())) ?? .portable }

    /// The levels this CPU can run, lowest first.
    public static var runnable: [CPULevel] { allCases.filter { $0 <= supported } }

    /// Why the `NLUKIT_CPU_LEVEL` of this process is refused, or nil when it is unset or names a
    /// level this CPU runs. A refused value is never executed: the kernels run at the CPU's best
    /// level, and the command-line tools stop with this message.
    public static var overrideProblem: String? {
        guard let value = ProcessInfo.processInfo.environment["NLUKIT_CPU_LEVEL"], !value.isEmpty else { return nil }
        return problem(with: value, supported: supported)
    }

    /// Why `value` cannot be used as `NLUKIT_CPU_LEVEL` on a CPU whose best level is `supported`,
    /// or nil when it can.
    ///
    ///     CPULevel.problem(with: "avx512", supported: .avx2)
    ///     // "NLUKIT_CPU_LEVEL=avx512: this CPU has no AVX-512 (F, DQ, VL, BW); it runs avx2 or portable"
    public static func problem(with value: String, supported: CPULevel) -> String? {
        let parsed = value.withCString { nlukit_parse_cpu_level($0, Int32(supported.rawValue)) }
        let choices = allCases.filter { $0 <= supported }.reversed().map(\.name).joined(separator: " or ")
        switch parsed {
        case Int32(NLUKIT_CPU_LEVEL_UNKNOWN):
            return "NLUKIT_CPU_LEVEL=\(value): expected avx512, avx2 or portable (this CPU runs \(choices))"
        case Int32(NLUKIT_CPU_LEVEL_UNSUPPORTED):
            let missing = value == "avx512" ? "AVX-512 (F, DQ, VL, BW)" : "AVX2 and FMA"
            return "NLUKIT_CPU_LEVEL=\(value): this CPU has no \(missing); it runs \(choices)"
        default:
            return nil
        }
    }

    /// Runs `body` with the kernels at `level` (capped to what the CPU runs), then restores the
    /// level in effect before; for tests and benchmarks that run every level in one process. The
    /// level is the calling thread's, and its kernel jobs': other threads' kernels keep theirs, so
    /// that tests comparing results bit for bit may run beside it.
    ///
    ///     for level in CPULevel.runnable { CPULevel.with(level) { time(gemm) } }
    public static func with<R>(_ level: CPULevel, _ body: () throws -> R) rethrows -> R {
        let previous = nlukit_set_thread_kernel_level(Int32(level.rawValue))
        defer { _ = nlukit_set_thread_kernel_level(previous) }
        return try body()
    }
}

import Foundation

/// `NLUKIT_THREADS`: how many threads BLAS products and the element-wise kernels use, when the environment says.
///
/// The value is a whole number from 1 to ``BLAS/maxThreadCount``. Any other value (`abc`, `0`, `-3`, `100000`) is
/// never used: the library goes on as if it were unset (`OPENBLAS_NUM_THREADS`, else the number of cores), and the
/// command-line tools stop with ``overrideProblem``, as they do for an `NLUKIT_CPU_LEVEL` they cannot honour. A
/// silently ignored setting would time or run something other than what was asked for.
///
///     ThreadCountOverride.problem(with: "0", cores: 2)
///     // "NLUKIT_THREADS=0: expected a whole number of threads from 1 to 1024 (this machine has 2 cores)"
public enum ThreadCountOverride {
    /// The environment variable read.
    public static let variable = "NLUKIT_THREADS"

    /// The thread counts `NLUKIT_THREADS` may ask for.
    public static let accepted = 1...BLAS.maxThreadCount

    /// The count `value` asks for, or nil when it is not a whole number in ``accepted``.
    public static func count(from value: String) -> Int? {
        guard let count = Int(value), accepted.contains(count) else { return nil }
        return count
    }

    /// The count this process's `NLUKIT_THREADS` asks for, or nil when it is unset, empty or refused.
    static var requested: Int? {
        ProcessInfo.processInfo.environment[variable].flatMap(count(from:))
    }

    /// Why the `NLUKIT_THREADS` of this process is refused, or nil when it is unset, empty or accepted.
    public static var overrideProblem: String? {
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else { return nil }
        return problem(with: value, cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Why `value` cannot be used as `NLUKIT_THREADS` on a machine with `cores` cores, or nil when it can.
    public static func problem(with value: String, cores: Int) -> String? {
        guard count(from: value) == nil else { return nil }
        return "\(variable)=\(value): expected a whole number of threads from \(accepted.lowerBound) to \(accepted.upperBound)"
            + " (this machine has \(cores) core\(cores == 1 ? "" : "s"))"
    }
}

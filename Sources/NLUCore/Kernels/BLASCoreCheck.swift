import Foundation

/// Detects the "Known trap" of Debian 12's OpenBLAS 0.3.21: it does not recognize recent Intel
/// CPUs and falls back to its slowest x86-64 kernels ("Prescott"), 5-7× slower on GEMM.
///
/// OpenBLAS reads `OPENBLAS_CORETYPE` when the library loads, before `main`, so the fix must be
/// in the environment at process start. The `nlu` CLI re-executes itself once with it set;
/// library users call ``recommendedCoreType`` at start-up and relaunch, or export the variable.
///
///     if let core = BLASCoreCheck.recommendedCoreType {
///         print("export OPENBLAS_CORETYPE=\(core) for full speed")
///     }
public enum BLASCoreCheck {
    /// The CPU's best kernel family by its feature flags ("SkylakeX" with AVX-512, "Haswell"
    /// with AVX2), or nil when that cannot be read (e.g. not Linux).
    public static var cpuCoreType: String? {
        #if os(Linux) && arch(x86_64)
        guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let flagsLine = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") })
        else { return nil }
        let flags = Set(flagsLine.split(separator: " ").map(String.init))
        if flags.isSuperset(of: ["avx512f", "avx512bw", "avx512vl", "avx512dq"]) { return "SkylakeX" }
        if flags.isSuperset(of: ["avx2", "fma"]) { return "Haswell" }
        return nil
        #else
        return nil
        #endif
    }

    /// The `OPENBLAS_CORETYPE` to set, when OpenBLAS picked weaker kernels than the CPU supports
    /// and the user has not chosen a core; nil when detection worked or the user decided.
    public static var recommendedCoreType: String? {
        #if canImport(Accelerate)
        return nil
        #else
        if ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"] != nil { return nil }
        guard let wanted = cpuCoreType else { return nil }
        let selected = BLAS.coreName.lowercased()
        // OpenBLAS 0.3.21 names cores it does not know by an older family: "Prescott" on some
        // Intel AVX-512 parts, "Haswell" (AVX2 kernels) on AMD Zen 4. Relaunch only when the
        // selected family is weaker than the CPU's, so a newer OpenBLAS that detects well is left alone.
        return rank(ofCore: selected) < rank(ofCore: wanted.lowercased()) ? wanted : nil
        #endif
    }

    /// Why `OPENBLAS_CORETYPE` cannot work on this CPU, or nil: a core whose kernels need instructions
    /// the CPU lacks (`SkylakeX` on an AVX2-only CPU) kills the process with SIGILL at its first
    /// product, so callers refuse it up front, as they refuse an `NLUKIT_CPU_LEVEL` the CPU cannot run.
    public static var overrideProblem: String? {
        #if canImport(Accelerate)
        return nil
        #else
        guard let forced = ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"], !forced.isEmpty,
              let best = cpuCoreType, rank(ofCore: forced.lowercased()) > rank(ofCore: best.lowercased()) else { return nil }
        return "OPENBLAS_CORETYPE=\(forced) needs AVX-512, which this CPU does not have: use \(best) (its best) or unset it"
        #endif
    }

    // 2: AVX-512 kernels, 1: AVX2 kernels, 0: older or unknown.
    private static func rank(ofCore core: String) -> Int {
        switch core {
        case "skylakex", "cooperlake", "sapphirerapids": return 2
        case "haswell", "zen", "skylake": return 1
        default: return 0
        }
    }
}

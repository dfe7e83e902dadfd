import CKernels
import Foundation

/// The floating-point peak of this machine at the current ``CPULevel``: independent multiply-add
/// chains of the level's widest vector on every kernel thread at once. Benchmarks print a GEMM's
/// GFLOP/s as a share of it, which says how much is left to gain whatever the CPU.
///
///     let peak = FMAPeak.measure()    // e.g. 239 (GFLOP/s, 2 threads, AVX-512 on a Zen 4)
public enum FMAPeak {
    /// Runs `iterations` steps of the chains on each of the ``Kernels/threadCount`` threads and
    /// returns the floating-point operations done, for a caller that times it on its own clock.
    @discardableResult
    public static func run(iterations: Int) -> Double {
        let threads = Kernels.threadCount
        let flops = UnsafeMutableBufferPointer<Double>.allocate(capacity: threads)
        defer { flops.deallocate() }
        flops.initialize(repeating: 0)
        Kernels.parallelFor(threads) { thread in flops[thread] = nlukit_fma_peak_probe(max(iterations, 0)) }
        return flops.reduce(0, +)
    }

    /// GFLOP/s of ``run(iterations:)`` by wall clock: the best of `rounds` runs of about
    /// `seconds` each (the best, because on a shared machine a slower run only says another
    /// process took a core).
    public static func measure(seconds: Double = 0.1, rounds: Int = 5) -> Double {
        func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
        let probeIterations = 1 << 18
        var start = now()
        run(iterations: probeIterations)
        let iterations = max(1, Int(Double(probeIterations) * max(seconds, 1e-3) / max(now() - start, 1e-6)))
        var best = 0.0
        for _ in 0..<max(rounds, 1) {
            start = now()
            let flops = run(iterations: iterations)
            best = max(best, flops / (now() - start) / 1e9)
        }
        return best
    }
}

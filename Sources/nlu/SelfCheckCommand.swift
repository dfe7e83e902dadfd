import ArgumentParser
import Foundation
import NLUKit

/// `nlu selfcheck`: verifies that BLAS works and is fast on this machine.
struct SelfCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selfcheck",
        abstract: "Check the BLAS setup: multiply matrices with BLAS and verify against a plain loop.",
        discussion: """
        --json prints {"blas", "threads", "kernels", "kernelsForced", "size", "maxAbsoluteDifference" (null \
        when no number), "tolerance", "gflops", "passed"}; the exit code is 1 when the check fails, with either output.
        """)

    @Option(help: "Matrix size n for the n×n · n×n product (1 to 4096; above 512 the plain loop checks evenly spread rows).")
    var size: Int = 256

    @Flag(help: "Print one JSON object on stdout.")
    var json = false

    func validate() throws {
        guard SelfCheck.sizes.contains(size) else {
            throw ValidationError("--size must be between \(SelfCheck.sizes.lowerBound) and \(SelfCheck.sizes.upperBound), got \(size)")
        }
    }

    /// The `--json` form: what the text lines say, one key each.
    struct Output: Encodable {
        var blas: String
        var threads: Int
        var kernels: String
        /// True when NLUKIT_CPU_LEVEL forces a lower level than the CPU runs.
        var kernelsForced: Bool
        var size: Int
        /// Null when it is no number (a broken BLAS that gives NaN or infinity), which JSON cannot hold.
        var maxAbsoluteDifference: Float?
        var tolerance: Float
        var gflops: Double
        var passed: Bool
    }

    func run() throws {
        let report = try SelfCheck.run(size: size)
        let forced = CPULevel.current < CPULevel.supported
        if json {
            Console.print(try Console.json(Output(blas: BLAS.configuration, threads: BLAS.defaultThreadCount,
                                                  kernels: CPULevel.current.name, kernelsForced: forced, size: size,
                                                  maxAbsoluteDifference: report.maxAbsoluteDifference.isFinite ? report.maxAbsoluteDifference : nil,
                                                  tolerance: report.tolerance,
                                                  gflops: report.gflops, passed: report.passed)))
            guard report.passed else { throw ExitCode.failure }
            return
        }
        Console.print("BLAS: \(BLAS.configuration), \(BLAS.defaultThreadCount) thread(s)")
        Console.print("Kernels: \(CPULevel.current.name)\(forced ? " (NLUKIT_CPU_LEVEL; the CPU runs \(CPULevel.supported.name))" : "")")
        Console.print(String(format: "GEMM %d×%d·%d×%d: max |BLAS - loop| = %.2e, %.1f GFLOP/s",
                     size, size, size, size, report.maxAbsoluteDifference, report.gflops))
        if report.passed {
            Console.print("selfcheck: OK")
        } else {
            Console.print("selfcheck: FAILED (difference above \(report.tolerance))")
            throw ExitCode.failure
        }
    }
}

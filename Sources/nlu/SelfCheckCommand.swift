import ArgumentParser
import Foundation
import NLUKit

/// `nlu selfcheck`: verifies that BLAS works and is fast on this machine.
struct SelfCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selfcheck",
        abstract: "Check the BLAS setup: multiply matrices with BLAS and verify against a plain loop.")

    @Option(help: "Matrix size n for the n×n · n×n product (1 to 4096; above 512 the plain loop checks evenly spread rows).")
    var size: Int = 256

    func validate() throws {
        guard SelfCheck.sizes.contains(size) else {
            throw ValidationError("--size must be between \(SelfCheck.sizes.lowerBound) and \(SelfCheck.sizes.upperBound), got \(size)")
        }
    }

    func run() throws {
        let report = try SelfCheck.run(size: size)
        Console.print("BLAS: \(BLAS.configuration), \(BLAS.defaultThreadCount) thread(s)")
        let forced = CPULevel.current < CPULevel.supported ? " (NLUKIT_CPU_LEVEL; the CPU runs \(CPULevel.supported.name))" : ""
        Console.print("Kernels: \(CPULevel.current.name)\(forced)")
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

import Foundation
import Testing

/// The OpenBLAS core the scripts and benchmarks set comes from the CPU's real flags only: the
/// shell test scripts/tests/blas-env-test.sh feeds scripts/blas-env.sh (and the benchmarks'
/// Python side) the flags of AVX-512, AVX2-only and older CPUs, and checks that no script sets
/// the core itself (SkylakeX on an AVX2-only CPU dies with SIGILL).
@Suite struct BenchmarkEnvironmentTests {
    @Test func blasCoreFollowsTheCPUsFlagsOnAVX512AndAVX2OnlyCPUs() throws {
        let root = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", root.appendingPathComponent("scripts/tests/blas-env-test.sh").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains(" passed, 0 failed"), "\(text)")
        #expect(!text.contains("FAIL"), "\(text)")
    }
}

import CKernels
import Foundation
import Testing
@testable import NLUCore

/// The NLUKIT_CPU_LEVEL override's parsing and refusals (on every CPU, by passing the CPU's level
/// in), and the level switch that tests and benchmarks use, which is the calling thread's alone.
@Suite struct CPULevelTests {
    @Test func namesParseToTheirLevelsWhenTheCPURunsThem() {
        for level in CPULevel.allCases {
            #expect(CPULevel.problem(with: level.name, supported: .avx512) == nil)
            #expect(level.name.withCString { nlukit_parse_cpu_level($0, 2) } == Int32(level.rawValue))
        }
        #expect(CPULevel.problem(with: "portable", supported: .portable) == nil)
    }

    @Test func aLevelAboveTheCPUsIsRefusedNamingWhatItRuns() {
        #expect(CPULevel.problem(with: "avx512", supported: .avx2)
                == "NLUKIT_CPU_LEVEL=avx512: this CPU has no AVX-512 (F, DQ, VL, BW); it runs avx2 or portable")
        #expect(CPULevel.problem(with: "avx2", supported: .portable)
                == "NLUKIT_CPU_LEVEL=avx2: this CPU has no AVX2 and FMA; it runs portable")
        #expect("avx512".withCString { nlukit_parse_cpu_level($0, 1) } == Int32(NLUKIT_CPU_LEVEL_UNSUPPORTED))
    }

    @Test func anUnknownNameIsRefusedListingTheChoices() {
        for value in ["AVX2", "avx-512", "sse2", "2", " avx2"] {
            #expect(CPULevel.problem(with: value, supported: .avx512)
                    == "NLUKIT_CPU_LEVEL=\(value): expected avx512, avx2 or portable (this CPU runs avx512 or avx2 or portable)")
            #expect(value.withCString { nlukit_parse_cpu_level($0, 2) } == Int32(NLUKIT_CPU_LEVEL_UNKNOWN))
        }
    }

    @Test func withRunsAtTheLevelThenRestoresThePreviousOne() {
        let before = CPULevel.current
        for level in CPULevel.runnable {
            CPULevel.with(level) { #expect(CPULevel.current == level) }
            #expect(CPULevel.current == before)
        }
        // Above the CPU's level: capped, never run.
        CPULevel.with(.avx512) { #expect(CPULevel.current == CPULevel.supported) }
    }

    @Test func withLeavesOtherThreadsAtTheirLevel() {
        let outside = CPULevel.current
        for level in CPULevel.runnable {
            nonisolated(unsafe) var seen: CPULevel?
            CPULevel.with(level) {
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    seen = CPULevel.current
                    done.signal()
                }
                done.wait()
                #expect(CPULevel.current == level)
            }
            #expect(seen == outside, "another thread during with(\(level))")
        }
    }

    @Test func poolWorkersRunAtTheCallersLevel() {
        guard Kernels.threadCount > 1 else { return }
        for level in CPULevel.runnable {
            // Two tasks on two threads: one of them ran on a worker.
            let levels = TaskLevels()
            let sideBySide = CPULevel.with(level) {
                ThreadPoolTests.twoTasksRanSideBySide { task in levels.slots[task] = CPULevel.current }
            }
            #expect(sideBySide, "the two tasks never ran at the same time")
            #expect(levels.slots == [level, level])
        }
    }

    /// The level each of two tasks ran at; each task writes only its own slot.
    final class TaskLevels: @unchecked Sendable {
        var slots: [CPULevel?] = [nil, nil]
    }

    @Test(arguments: [(CPULevel.portable, 4), (.avx2, 8), (.avx512, 16)])
    func peakProbeCountsTwelveChainsOfTheLevelsVectorWidth(level: CPULevel, lanes: Int) {
        guard level <= CPULevel.supported else { return }
        CPULevel.with(level) {
            #expect(nlukit_fma_peak_probe(1000) == Double(2 * 12 * lanes * 1000))
        }
    }
}

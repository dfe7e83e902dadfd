import Foundation
import Testing

/// NLUKIT_CPU_LEVEL through `nlu`: every level this CPU runs answers as the reference pipeline
/// does, and a level it cannot run, or a misspelt one, is refused before anything runs.
@Suite struct CPULevelCommandTests {
    static let levels = ["portable", "avx2", "avx512"]

    /// The levels this machine runs, from `nlu selfcheck`'s "Kernels:" line without the override.
    static func runnableLevels() throws -> [String] {
        let run = try runNLU(["selfcheck", "--size", "8"], environment: ["NLUKIT_CPU_LEVEL": ""])
        let line = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("Kernels: ") })
        let best = try #require(levels.firstIndex(of: String(line.dropFirst("Kernels: ".count))))
        return Array(levels[...best])
    }

    @Test func everyRunnableLevelAnswersAsThePipeline() throws {
        let expected = try QACommandTests.golden(model: "bert-tiny", question: "Who jumped over the dog?", options: ["top_k": 3])
        for level in try Self.runnableLevels() {
            let check = try runNLU(["selfcheck", "--size", "8"], environment: ["NLUKIT_CPU_LEVEL": level])
            #expect(check.stdout.contains("Kernels: \(level)"), "\(check.stdout)")
            let run = try runNLU(["qa", "ask", "--model", QACommandTests.bert, "--question", "Who jumped over the dog?",
                                  "--context", QACommandTests.fox, "--top-k", "3", "--json"],
                                 environment: ["NLUKIT_CPU_LEVEL": level])
            #expect(run.status == 0, "\(level): \(run.stderr)")
            QACommandTests.expectSame(try QACommandTests.answers(run.stdout), expected)
        }
    }

    /// `--precision int8` at a level without an int8 dot product (x86-64's baseline) still answers, with a note on
    /// stderr that it is no faster than f32 there; at AVX2 and above it says nothing.
    @Test func int8AtALevelWithoutAFastINT8BlockSaysItIsSlower() throws {
        for level in try Self.runnableLevels() {
            let run = try runNLU(["qa", "ask", "--model", QACommandTests.bert, "--question", "Who jumped over the dog?",
                                  "--context", QACommandTests.fox, "--precision", "int8", "--json"],
                                 environment: ["NLUKIT_CPU_LEVEL": level])
            #expect(run.status == 0, "\(level): \(run.stderr)")
            let noted = run.stderr.contains("note: --precision int8 on this CPU level (\(level)) has no int8 dot product")
            #if arch(x86_64)
            #expect(noted == (level == "portable"), "\(level): \(run.stderr)")
            #endif
            let f32 = try runNLU(["qa", "ask", "--model", QACommandTests.bert, "--question", "Who jumped over the dog?",
                                  "--context", QACommandTests.fox, "--json"], environment: ["NLUKIT_CPU_LEVEL": level])
            #expect(!f32.stderr.contains("note: --precision int8"), "\(level): \(f32.stderr)")
        }
    }

    @Test func anUnknownLevelIsAUsageError() throws {
        let run = try runNLU(["selfcheck"], environment: ["NLUKIT_CPU_LEVEL": "avx1024"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("NLUKIT_CPU_LEVEL=avx1024: expected avx512, avx2 or portable"), "\(run.stderr)")
    }

    @Test func aLevelThisCPUCannotRunIsRefused() throws {
        let runnable = try Self.runnableLevels()
        guard runnable.count < Self.levels.count else { return }  // this CPU runs every level
        let above = Self.levels[runnable.count]
        let run = try runNLU(["selfcheck"], environment: ["NLUKIT_CPU_LEVEL": above])
        #expect(run.status == 2)
        #expect(run.stderr.contains("NLUKIT_CPU_LEVEL=\(above): this CPU has no"), "\(run.stderr)")
    }
}

/// NLUKIT_THREADS through `nlu` and `nlu-bench`: a value that is no whole number from 1 to 1024 is refused before
/// anything runs (it used to be ignored, and a huge one clamped), as a misspelt NLUKIT_CPU_LEVEL is.
@Suite struct ThreadCountCommandTests {
    @Test func aBadThreadCountIsAUsageErrorNamingTheVariableAndTheRange() throws {
        for value in ["abc", "0", "-3", "100000"] {
            let run = try runNLU(["selfcheck", "--size", "8"], environment: ["NLUKIT_THREADS": value])
            #expect(run.status == 2, "\(value): \(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.hasPrefix("Error: NLUKIT_THREADS=\(value): expected a whole number of threads from 1 to 1024 (this machine has "),
                    "\(run.stderr)")
        }
    }

    @Test func aGoodThreadCountIsUsed() throws {
        let run = try runNLU(["selfcheck", "--size", "8"], environment: ["NLUKIT_THREADS": "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(", 1 thread(s)"), "\(run.stdout)")
        // Empty is unset, as for NLUKIT_CPU_LEVEL.
        #expect(try runNLU(["selfcheck", "--size", "8"], environment: ["NLUKIT_THREADS": ""]).status == 0)
    }
}

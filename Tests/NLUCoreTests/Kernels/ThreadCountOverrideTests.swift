import Testing
@testable import NLUCore

/// NLUKIT_THREADS's parsing and refusals: a whole number from 1 to 1024, nothing else.
@Suite struct ThreadCountOverrideTests {
    @Test func wholeNumbersFromOneTo1024AreAccepted() {
        for (value, count) in [("1", 1), ("2", 2), ("16", 16), ("1024", 1024), ("08", 8)] {
            #expect(ThreadCountOverride.count(from: value) == count, "\(value)")
            #expect(ThreadCountOverride.problem(with: value, cores: 2) == nil, "\(value)")
        }
    }

    @Test func anythingElseIsRefusedNamingTheVariableAndTheRange() {
        for value in ["abc", "0", "-3", "100000", "1025", "2.5", " 4", "4 ", "99999999999999999999999"] {
            #expect(ThreadCountOverride.count(from: value) == nil, "\(value)")
            #expect(ThreadCountOverride.problem(with: value, cores: 2)
                    == "NLUKIT_THREADS=\(value): expected a whole number of threads from 1 to 1024 (this machine has 2 cores)")
        }
        #expect(ThreadCountOverride.problem(with: "0", cores: 1)?.hasSuffix("(this machine has 1 core)") == true)
        #expect(ThreadCountOverride.accepted == 1...BLAS.maxThreadCount)
    }
}

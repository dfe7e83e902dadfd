import Testing
@testable import NLUCore
import NLUInputOutput

/// `nlu selfcheck`'s library part: sizes are range-checked, and large sizes check evenly spread
/// rows so that the documented maximum (4096) finishes in seconds.
@Suite struct SelfCheckTests {
    @Test func smallSizesCheckEveryEntryAndLargeOnesABoundedSample() throws {
        let small = try SelfCheck.run(size: 64)
        #expect(small.passed && small.checkedEntries == 64 * 64)
        let large = try SelfCheck.run(size: 1024)
        // 2^27 multiply-adds: 128 rows of 1024 columns, each a 1024-long dot product.
        #expect(large.passed && large.checkedEntries == 128 * 1024)
        #expect(SelfCheck.loopBudget / (4096 * 4096) == 8)
    }

    @Test func sizesOutsideTheRangeAreRefused() {
        for size in [0, -1, 4097, Int.max] {
            #expect(throws: OutOfRangeError.self) { try SelfCheck.run(size: size) }
        }
    }
}

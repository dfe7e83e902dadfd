import Testing
@testable import NLUCore

/// The held-out share's one range and its seeded draw (the intents and sentence-pairs splits call them).
@Suite struct HeldOutSplitTests {
    @Test func theShareIsAboveZeroAndAtMostHalf() throws {
        for fraction in [0.001, 0.1, 0.5] { try HeldOutSplit.checkFraction(fraction, of: "the pairs") }
        try HeldOutSplit.checkFraction(0, of: "each intent", allowsNone: true)
        for fraction in [0, -0.1, 0.5000001, 1, .nan, .infinity] {
            let error = try #require(throws: TrainingSettingError.self) { try HeldOutSplit.checkFraction(fraction, of: "the pairs") }
            #expect(error.setting == "fraction")
            #expect(error.requirement == "above 0 and at most 0.5 (the share of the pairs held out)")
        }
        let error = try #require(throws: TrainingSettingError.self) {
            try HeldOutSplit.checkFraction(-0.5, of: "each intent", allowsNone: true)
        }
        #expect(error.requirement == "between 0 and 0.5 (the share of each intent held out)")
    }

    @Test func theSplitHoldsOutTheCountDrawnBySeedAndKeepsTheOrder() {
        let examples = Array(100..<137)
        var generator = SplitMix64(seed: 3)
        let (kept, held) = HeldOutSplit.split(examples, holdingOut: 9, using: &generator)
        #expect(held.count == 9)
        #expect(kept.count == 28)
        #expect(kept == kept.sorted() && held == held.sorted())
        #expect((kept + held).sorted() == examples)
        var same = SplitMix64(seed: 3), other = SplitMix64(seed: 4)
        #expect(HeldOutSplit.split(examples, holdingOut: 9, using: &same).held == held)
        #expect(HeldOutSplit.split(examples, holdingOut: 9, using: &other).held != held)
        var any = SplitMix64(seed: 5)
        #expect(HeldOutSplit.split(examples, holdingOut: 0, using: &any).held.isEmpty)
        #expect(HeldOutSplit.split(examples, holdingOut: examples.count, using: &any).kept.isEmpty)
    }
}

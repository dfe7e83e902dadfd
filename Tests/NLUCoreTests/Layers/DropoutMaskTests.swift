import Testing
@testable import NLUCore

/// `Dropout.fillMask` draws its mask in parallel pieces with a C kernel: the same mask, element for
/// element, as one `SplitMix64.next()` per element in order, and the generator left where those
/// draws leave it, at every CPU level.
@Suite struct DropoutMaskTests {
    static func sequentialMask(count: Int, probability: Float, generator: inout SplitMix64) -> [Float] {
        let scale = 1 / (1 - probability)
        return (0..<count).map { _ in Float(generator.next() >> 40) * 0x1p-24 >= probability ? scale : 0 }
    }

    @Test(arguments: [1, 17, 40_000, 300_001])
    func maskIsTheSequentialDraws(count: Int) {
        for level in CPULevel.runnable {
            var expectedGenerator = SplitMix64(seed: 11)
            let expected = Self.sequentialMask(count: count, probability: 0.1, generator: &expectedGenerator)
            var generator = SplitMix64(seed: 11)
            var mask = [Float](repeating: -1, count: count)
            CPULevel.with(level) {
                mask.withUnsafeMutableBufferPointer { Dropout.fillMask($0, probability: 0.1, generator: &generator) }
            }
            #expect(mask == expected, "\(level), \(count) elements")
            #expect(generator.next() == expectedGenerator.next(), "\(level): the generator continues where the draws end")
        }
    }

    @Test func keptShareFollowsTheProbability() {
        var generator = SplitMix64(seed: 5)
        var mask = [Float](repeating: 0, count: 200_000)
        mask.withUnsafeMutableBufferPointer { Dropout.fillMask($0, probability: 0.25, generator: &generator) }
        let kept = mask.filter { $0 != 0 }
        #expect(Set(kept) == [Float(1) / 0.75])
        #expect(abs(Double(kept.count) / 200_000 - 0.75) < 0.005)
    }

    @Test func skipMatchesThatManyDraws() {
        var skipped = SplitMix64(seed: 99), drawn = SplitMix64(seed: 99)
        skipped.skip(1_000)
        for _ in 0..<1_000 { _ = drawn.next() }
        #expect(skipped.next() == drawn.next())
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The CPU seconds the calling thread spends in `body`. Unlike the wall clock, another process or test
/// running beside it (a build, the rest of the suite) does not add to it: a test that compares two
/// times of single-threaded work measures this, never `ContinuousClock`.
public func threadCPUSeconds(_ body: () throws -> Void) rethrows -> Double {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    try body()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
}

/// How much more single-threaded work `run(10 * count)` takes than `run(count)`: see
/// ``linearWorkGrowth(runs:small:large:)``.
///
///     let growth = linearWorkGrowth(count: 1_000) { n in _ = tokenizer.encode(String(repeating: "a ", count: n)) }
///     #expect(growth.ratio < linearWorkBound, "\(growth)")
public func linearWorkGrowth(count: Int, runs: Int = 3, _ run: (Int) throws -> Void) rethrows -> LinearWorkGrowth {
    try linearWorkGrowth(runs: runs, small: { try run(count) }, large: { try run(10 * count) })
}

/// How much more single-threaded work `large` (ten times the input of `small`) takes than `small`: the ratio
/// of the best of `runs` CPU times of each, after a warm-up. Linear work gives about 10 and quadratic work
/// about 100, so ``linearWorkBound`` tells them apart with room for caches and the allocator; the best of
/// several CPU times does not move when the machine is busy, where a wall-clock ratio did (33-44x measured
/// for 10x linear work beside a build).
public func linearWorkGrowth(runs: Int = 3, small: () throws -> Void, large: () throws -> Void) rethrows -> LinearWorkGrowth {
    try small()  // warm up
    var smallSeconds = Double.infinity, largeSeconds = Double.infinity
    for _ in 0..<runs {
        smallSeconds = min(smallSeconds, try threadCPUSeconds(small))
        largeSeconds = min(largeSeconds, try threadCPUSeconds(large))
    }
    return LinearWorkGrowth(small: smallSeconds, large: largeSeconds)
}

/// The bound a ``linearWorkGrowth(runs:small:large:)`` ratio is checked against.
public let linearWorkBound = 40.0

/// The CPU seconds of an input and of ten times that input, and their ratio.
public struct LinearWorkGrowth: CustomStringConvertible, Sendable {
    public var small: Double
    public var large: Double
    public var ratio: Double { large / max(small, 1e-6) }
    public var description: String { "\(small) CPU s, 10x: \(large) CPU s, ratio \(ratio)" }
}

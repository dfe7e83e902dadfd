/// A small, fast, seedable random number generator (SplitMix64), so that weight initialization,
/// shuffling and sampling are reproducible from a seed on every platform.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// What `next()` adds to the state before mixing it: the n-th draw is a function of the state and
    /// n alone, which lets a kernel draw a long run in independent pieces (``Dropout/fillMask(_:probability:generator:)``).
    static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15
    private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= Self.increment
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Advances the generator as `count` calls of `next()` would.
    mutating func skip(_ count: Int) {
        state &+= UInt64(truncatingIfNeeded: count) &* Self.increment
    }
}

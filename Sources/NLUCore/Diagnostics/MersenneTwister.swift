/// MT19937, the generator behind NumPy's legacy `np.random.RandomState` (and Python's `random`),
/// seeded as `RandomState(seed)` seeds it (`init_genrand`), with NumPy's `permutation`: so a port of
/// Python code that shuffles with a fixed `RandomState` draws the very same order.
///
///     var numpy = MersenneTwister(seed: 42)
///     numpy.permutation(5)   // np.random.RandomState(seed=42).permutation(5): [1, 4, 2, 0, 3]
public struct MersenneTwister: RandomNumberGenerator, Sendable {
    private var state = [UInt32](repeating: 0, count: 624)
    private var index = 624

    /// The generator `np.random.RandomState(seed)` starts from.
    public init(seed: UInt32) {
        state[0] = seed
        for i in 1..<624 {
            state[i] = 1_812_433_253 &* (state[i - 1] ^ (state[i - 1] >> 30)) &+ UInt32(i)
        }
    }

    /// The next 32 random bits (`genrand_int32`).
    public mutating func nextUInt32() -> UInt32 {
        if index >= 624 { twist() }
        var y = state[index]
        index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C_5680
        y ^= (y << 15) & 0xEFC6_0000
        y ^= y >> 18
        return y
    }

    /// 64 bits from two draws, high word first, as NumPy's `next_uint64` for MT19937.
    public mutating func next() -> UInt64 {
        UInt64(nextUInt32()) << 32 | UInt64(nextUInt32())
    }

    /// A uniform integer in 0...max by masked rejection, NumPy's `random_interval`.
    public mutating func interval(_ max: UInt64) -> UInt64 {
        if max == 0 { return 0 }
        var mask = max
        for shift in [1, 2, 4, 8, 16, 32] as [UInt64] { mask |= mask >> shift }
        if max <= 0xFFFF_FFFF {
            while true {
                let value = UInt64(nextUInt32()) & mask
                if value <= max { return value }
            }
        }
        while true {
            let value = next() & mask
            if value <= max { return value }
        }
    }

    /// `RandomState.permutation(count)`: 0..<count shuffled by NumPy's legacy Fisher-Yates, from the end.
    public mutating func permutation(_ count: Int) -> [Int] {
        var values = Array(0..<max(0, count))
        var i = values.count - 1
        while i > 0 {
            let j = Int(interval(UInt64(i)))
            values.swapAt(i, j)
            i -= 1
        }
        return values
    }

    private mutating func twist() {
        for i in 0..<624 {
            let y = (state[i] & 0x8000_0000) | (state[(i + 1) % 624] & 0x7FFF_FFFF)
            state[i] = state[(i + 397) % 624] ^ (y >> 1) ^ (y & 1 == 0 ? 0 : 0x9908_B0DF)
        }
        index = 0
    }
}

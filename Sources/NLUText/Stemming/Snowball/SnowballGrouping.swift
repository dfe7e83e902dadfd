/// A Snowball grouping: a set of characters, as a bitmap from its smallest member.
struct SnowballGrouping: Sendable {
    private let minimum: UInt32
    private let bits: [UInt64]

    init(_ members: Set<Unicode.Scalar>) {
        let values = members.map(\.value)
        let low = values.min() ?? 0
        let high = values.max() ?? 0
        var bits = [UInt64](repeating: 0, count: Int(high - low) / 64 + 1)
        for value in values {
            let offset = Int(value - low)
            bits[offset >> 6] |= 1 << UInt64(offset & 63)
        }
        minimum = low
        self.bits = members.isEmpty ? [] : bits
    }

    @inline(__always)
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let offset = Int(scalar.value) - Int(minimum)
        guard offset >= 0, offset >> 6 < bits.count else { return false }
        return bits[offset >> 6] & (1 << UInt64(offset & 63)) != 0
    }
}

/// An immutable hash table from token bytes to ids, looked up straight from a UTF-8 buffer without
/// making a `String` per candidate (the WordPiece hot path tries many substrings per word).
///
/// Open addressing, power-of-two slots, FNV-1a hashes; each slot packs the key's 32-bit hash and its
/// entry number so most misses are decided without touching the key bytes.
final class TokenTable: Sendable {
    private let keyBytes: [UInt8]
    private let keyStarts: [Int32]
    private let ids: [Int32]
    private let slots: [UInt64]
    private let mask: Int
    /// The longest key in bytes: a candidate longer than this cannot be in the table.
    let maxKeyLength: Int

    /// Builds the table from `(key, id)` pairs with distinct keys.
    init<Keys: Sequence>(_ entries: Keys) where Keys.Element == (key: [UInt8], id: Int32) {
        var keyBytes: [UInt8] = [], keyStarts: [Int32] = [0], ids: [Int32] = [], hashes: [UInt32] = []
        var maxKeyLength = 0
        for (key, id) in entries {
            keyBytes.append(contentsOf: key)
            keyStarts.append(Int32(keyBytes.count))
            ids.append(id)
            maxKeyLength = max(maxKeyLength, key.count)
            hashes.append(key.withUnsafeBufferPointer { Self.fold(Self.seed, $0) }.hash32)
        }
        var capacity = 16
        while capacity < ids.count * 2 { capacity *= 2 }
        var slots = [UInt64](repeating: 0, count: capacity)
        for entry in ids.indices {
            var slot = Int(hashes[entry]) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = (UInt64(hashes[entry]) << 32) | UInt64(entry + 1)
        }
        self.keyBytes = keyBytes
        self.keyStarts = keyStarts
        self.ids = ids
        self.slots = slots
        self.mask = capacity - 1
        self.maxKeyLength = maxKeyLength
    }

    /// FNV-1a offset basis.
    static let seed: UInt64 = 0xCBF2_9CE4_8422_2325

    /// Folds `bytes` into the running FNV-1a state `state`.
    @inline(__always)
    static func fold(_ state: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = state
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// Folds one byte into the running state.
    @inline(__always)
    static func fold(_ state: UInt64, _ byte: UInt8) -> UInt64 {
        (state ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// The id of the key `bytes[start..<start+count]` whose FNV state is `state`, or -1.
    @inline(__always)
    func id(of bytes: UnsafePointer<UInt8>, count: Int, state: UInt64) -> Int32 {
        let hash = state.hash32
        return slots.withUnsafeBufferPointer { slots -> Int32 in
            var slot = Int(hash) & mask
            while true {
                let packed = slots[slot]
                if packed == 0 { return -1 }
                if UInt32(truncatingIfNeeded: packed >> 32) == hash {
                    let entry = Int(packed & 0xFFFF_FFFF) - 1
                    let matched = keyStarts.withUnsafeBufferPointer { starts -> Bool in
                        let start = Int(starts[entry]), length = Int(starts[entry + 1]) - start
                        guard length == count else { return false }
                        return keyBytes.withUnsafeBufferPointer { keys in
                            memcmpEqual(keys.baseAddress! + start, bytes, count)
                        }
                    }
                    if matched { return ids[entry] }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The id of `key`, or -1 (for tests and non-hot callers).
    func id(of key: [UInt8]) -> Int32 {
        key.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return -1 }
            return id(of: base, count: buffer.count, state: Self.fold(Self.seed, buffer))
        }
    }
}

@inline(__always)
private func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var index = 0
    while index < count {
        if a[index] != b[index] { return false }
        index += 1
    }
    return true
}

private extension UInt64 {
    /// The table's 32-bit hash: the FNV state folded to 32 bits.
    var hash32: UInt32 { UInt32(truncatingIfNeeded: self ^ (self >> 32)) }
}

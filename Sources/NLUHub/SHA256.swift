/// SHA-256 (FIPS 180-4), fed in pieces: the Hub names a large (LFS) file by the SHA-256 of its
/// bytes, so a download is checked against its name before it enters the cache. Foundation has no
/// digest on Linux, and a crypto package would cost more build time than these 80 lines.
///
///     var digest = SHA256()
///     digest.update(Data("abc".utf8))
///     digest.hexDigest()   // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
public struct SHA256: Sendable {
    private var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    private var pending: [UInt8] = []

    public init() {}

    /// Adds `bytes` to the message.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        pending.append(contentsOf: bytes)
        var consumed = 0
        while pending.count - consumed >= 64 {
            compress(pending[consumed..<consumed + 64])
            consumed += 64
        }
        if consumed > 0 { pending.removeFirst(consumed) }
    }

    /// The digest of everything added, as 64 lowercase hex digits. The value is finished: call it once.
    public mutating func hexDigest() -> String {
        let messageBits = (processed + UInt64(pending.count)) &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: messageBits >> UInt64(shift))) }
        pending = []
        for start in stride(from: 0, to: tail.count, by: 64) { compress(tail[start..<start + 64]) }
        let hex = Array("0123456789abcdef".utf8)
        var digits: [UInt8] = []
        for word in state {
            for shift in stride(from: 28, through: 0, by: -4) { digits.append(hex[Int((word >> UInt32(shift)) & 0xF)]) }
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// Bytes already compressed (whole 64-byte blocks).
    private var processed: UInt64 = 0

    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private mutating func compress(_ block: ArraySlice<UInt8>) {
        processed &+= 64
        // The message schedule lives in the struct: one allocation per digest, not one per 64 bytes.
        var w: [UInt32] = []
        swap(&w, &schedule)
        defer { swap(&w, &schedule) }
        var index = block.startIndex
        for t in 0..<16 {
            w[t] = UInt32(block[index]) << 24 | UInt32(block[index + 1]) << 16 | UInt32(block[index + 2]) << 8 | UInt32(block[index + 3])
            index += 4
        }
        for t in 16..<64 {
            let s0 = Self.rotate(w[t - 15], 7) ^ Self.rotate(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = Self.rotate(w[t - 2], 17) ^ Self.rotate(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for t in 0..<64 {
            let s1 = Self.rotate(e, 6) ^ Self.rotate(e, 11) ^ Self.rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temp1 = h &+ s1 &+ choice &+ Self.roundConstants[t] &+ w[t]
            let s0 = Self.rotate(a, 2) ^ Self.rotate(a, 13) ^ Self.rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temp2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }

    private var schedule = [UInt32](repeating: 0, count: 64)

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value >> count) | (value << (32 - count)) }
}

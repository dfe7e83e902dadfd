/// A small fixed map from Unicode scalars to values, for the tables that readers of unspaced text (Chinese,
/// Japanese) consult at every character: numerals, units, decimal points. A `Dictionary` hashes each look-up with
/// seeded SipHash, a few hundred instructions; here a scalar is multiplied into an open-addressed table of twice
/// the keys' count or more, so most characters, which are in no table, are turned away after one comparison.
///
///     let units: ScalarMap<Int64> = ["十": 10, "百": 100]
///     units["百"]    // 100
///     units["人"]    // nil
struct ScalarMap<Value: Sendable>: Sendable, ExpressibleByDictionaryLiteral {
    /// Each slot's scalar value, or `empty`; a key's slot is its hash's, or the first free one after it.
    private let slots: [UInt32]
    private let values: [Value?]
    private let shift: UInt32
    /// The keys in the order given.
    let keys: [Unicode.Scalar]

    private static var empty: UInt32 { UInt32.max }  // above every scalar value

    init<Pairs: Sequence>(_ pairs: Pairs) where Pairs.Element == (Unicode.Scalar, Value) {
        var keys: [Unicode.Scalar] = [], entries: [(Unicode.Scalar, Value)] = []
        for (key, value) in pairs {
            // A key given twice keeps its last value, as a dictionary's would.
            if let index = keys.firstIndex(of: key) { entries[index].1 = value } else {
                keys.append(key)
                entries.append((key, value))
            }
        }
        var bits: UInt32 = 3
        while (1 << bits) < 2 * keys.count { bits += 1 }
        shift = 32 - bits
        var slots = [UInt32](repeating: Self.empty, count: 1 << bits)
        var values = [Value?](repeating: nil, count: 1 << bits)
        for (key, value) in entries {
            var slot = Self.slot(of: key.value, shift: shift, mask: slots.count - 1)
            while slots[slot] != Self.empty { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = key.value
            values[slot] = value
        }
        self.slots = slots
        self.values = values
        self.keys = keys
    }

    init(dictionaryLiteral elements: (Unicode.Scalar, Value)...) { self.init(elements) }

    /// Fibonacci hashing: the top bits of the scalar times 2^32 / φ, which spreads neighbouring code points.
    @inline(__always)
    private static func slot(of value: UInt32, shift: UInt32, mask: Int) -> Int {
        Int(truncatingIfNeeded: (value &* 0x9E37_79B9) >> shift) & mask
    }

    subscript(scalar: Unicode.Scalar) -> Value? {
        let mask = slots.count - 1
        var slot = Self.slot(of: scalar.value, shift: shift, mask: mask)
        while true {
            let held = slots[slot]
            if held == scalar.value { return values[slot] }
            if held == Self.empty { return nil }
            slot = (slot + 1) & mask
        }
    }

    func contains(_ scalar: Unicode.Scalar) -> Bool { self[scalar] != nil }

    var isEmpty: Bool { keys.isEmpty }
}

/// A small fixed set of Unicode scalars, looked up as ``ScalarMap`` does.
///
///     let points: ScalarSet = ["点", "・"]
///     points.contains("点")   // true
struct ScalarSet: Sendable, ExpressibleByArrayLiteral {
    private let map: ScalarMap<Bool>

    init<Scalars: Sequence>(_ scalars: Scalars) where Scalars.Element == Unicode.Scalar {
        map = ScalarMap(scalars.map { ($0, true) })
    }

    init(arrayLiteral elements: Unicode.Scalar...) { self.init(elements) }

    func contains(_ scalar: Unicode.Scalar) -> Bool { map[scalar] != nil }

    /// The members in the order given.
    var members: [Unicode.Scalar] { map.keys }

    func union<Scalars: Sequence>(_ other: Scalars) -> ScalarSet where Scalars.Element == Unicode.Scalar {
        ScalarSet(members + Array(other))
    }
}

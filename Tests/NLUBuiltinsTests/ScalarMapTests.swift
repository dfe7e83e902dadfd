@testable import NLUBuiltins
import Testing

/// ``ScalarMap`` and ``ScalarSet`` answer as a `Dictionary` and a `Set` of the same entries would, for every scalar
/// asked: neighbours of the keys, scalars whose hashes collide, the whole Basic Multilingual Plane.
@Suite struct ScalarMapTests {
    @Test func literalTablesAnswerAsADictionary() {
        let map: ScalarMap<Int64> = ["十": 10, "百": 100, "千": 1_000, "万": 10_000, "億": 100_000_000]
        #expect(map["百"] == 100)
        #expect(map["億"] == 100_000_000)
        #expect(map["人"] == nil)
        #expect(map["a"] == nil)
        #expect(map.keys == ["十", "百", "千", "万", "億"])
        let empty: ScalarMap<Int> = [:]
        #expect(empty["十"] == nil && empty.isEmpty)
    }

    @Test func aKeyGivenTwiceKeepsItsLastValueOnce() {
        let map = ScalarMap([("一", 1), ("二", 2), ("一", 7)].map { (Unicode.Scalar($0.0), $0.1) })
        #expect(map["一"] == 7)
        #expect(map.keys == ["一", "二"])
    }

    /// Seeded tables of 1 to 300 keys drawn from ASCII, Latin-1, kana, ideographs and beyond, checked at every
    /// scalar of the planes they come from: keys found with their values, every other scalar missing.
    @Test(arguments: [1, 2, 7, 8, 9, 31, 64, 300])
    func everyScalarAnswersAsTheDictionaryDoes(count: Int) {
        var generator = SplitMix64(seed: UInt64(count))
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0xFF, 0x3040...0x30FF, 0x4E00...0x9FFF, 0x1F300...0x1F6FF]
        var dictionary: [Unicode.Scalar: Int] = [:]
        var pairs: [(Unicode.Scalar, Int)] = []
        while dictionary.count < count {
            let range = ranges[Int(generator.next() % UInt64(ranges.count))]
            guard let scalar = Unicode.Scalar(range.lowerBound + UInt32(generator.next() % UInt64(range.count))) else { continue }
            let value = Int(generator.next() % 1_000)
            dictionary[scalar] = value
            pairs.append((scalar, value))
        }
        let map = ScalarMap(pairs)
        let set = ScalarSet(pairs.map(\.0))
        var mismatches = 0
        for value in UInt32(0)...0x1_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if map[scalar] != dictionary[scalar] || set.contains(scalar) != (dictionary[scalar] != nil) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(Set(map.keys) == Set(dictionary.keys) && map.keys.count == dictionary.count)
    }

    @Test func setsUniteKeepingOrder() {
        let points: ScalarSet = ["点", "・"]
        let more = points.union(["。", "点"])
        #expect(more.members == ["点", "・", "。"])
        #expect(more.contains("。") && !points.contains("。"))
    }
}

/// A small seeded generator, so that a failing table can be rebuilt.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

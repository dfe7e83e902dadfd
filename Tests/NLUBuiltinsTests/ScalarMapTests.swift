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

    /// Tables of 1 to 300 keys spread over ASCII, Latin-1, kana, ideographs and beyond (key i at a stride through its
    /// range), checked at every scalar of the planes they come from: keys found with their values, every other scalar
    /// missing.
    @Test(arguments: [1, 2, 7, 8, 9, 31, 64, 300])
    func everyScalarAnswersAsTheDictionaryDoes(count: Int) {
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0xFF, 0x3040...0x30FF, 0x4E00...0x9FFF, 0x1F300...0x1F6FF]
        var dictionary: [Unicode.Scalar: Int] = [:]
        var pairs: [(Unicode.Scalar, Int)] = []
        for index in 0..<count {
            let range = ranges[index % ranges.count]
            guard let scalar = Unicode.Scalar(range.lowerBound + UInt32(index * 7_919 % range.count)) else { continue }
            dictionary[scalar] = index
            pairs.append((scalar, index))
        }
        let map = ScalarMap(pairs)
        let set = ScalarSet(pairs.map(\.0))
        var mismatches = 0
        for value in UInt32(0)...0x1_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if map[scalar] != dictionary[scalar] || set.contains(scalar) != (dictionary[scalar] != nil) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(Set(map.keys) == Set(dictionary.keys) && map.keys.count == dictionary.count && dictionary.count > count / 2)
    }

    @Test func setsUniteKeepingOrder() {
        let points: ScalarSet = ["点", "・"]
        let more = points.union(["。", "点"])
        #expect(more.members == ["点", "・", "。"])
        #expect(more.contains("。") && !points.contains("。"))
    }
}

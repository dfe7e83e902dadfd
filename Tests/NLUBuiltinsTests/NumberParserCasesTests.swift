import Foundation
import NLUBuiltins
import Testing

/// number-parser's English test cases (PyPI number-parser 0.3.2, BSD), converted by
/// scripts/fixtures/number_parser_cases.py: whole texts that are one number or ordinal, sentences with
/// several, fractions said as ratios. A case passes when the number and ordinal entities found are exactly
/// the expected ones (kinds, offsets, values). Floors per group at the level measured when they were set;
/// docs/builtins.md reports the same figures and the mapping from number-parser's functions to our kinds.
@Suite struct NumberParserCasesTests {
    /// (group: the number-parser function the cases test, minimum share passed).
    static let floors: [(String, Double)] = [
        ("number", 0.97),
        ("ordinal", 0.96),
        ("sentence", 0.94),
        ("fraction", 0.83),
    ]

    @Test func shareOfCasesPassedStaysAtItsFloorPerGroup() throws {
        let score = try scoreCorpus("cases", types: [.number, .ordinal], corpus: "number-parser")
        dumpFailures(score, name: "number-parser")
        print("number-parser: \(score)")
        #expect(score.total.values.reduce(0, +) > 300)
        for (group, floor) in Self.floors {
            #expect((score.total[group] ?? 0) > 0, "no case in \(group)")
            #expect(score.share(group) >= floor, "\(group): \(score)")
        }
    }

    /// Spelled numbers past Int64 keep every digit (schoolbook arithmetic on the digits), and bare scale
    /// words are numbers; values worked out by hand.
    @Test func spelledNumbersPastInt64StayExactAndBareScalesAreNumbers() {
        let recognizer = BuiltinRecognizer(types: [.number, .ordinal])
        func values(_ text: String) -> [String] {
            recognizer.entities(in: text).map { entity in
                if case .value(let value, _, _) = entity.resolution { return value }
                return "?"
            }
        }
        // 32 * 10^18 + 101 * 10^15 + 7: past Int64's 9.2 * 10^18.
        #expect(values("thirty-two quintillion one hundred one quadrillion and seven") == ["32101000000000000007"])
        #expect(values("nine quintillion nine hundred quadrillion") == ["9900000000000000000"])
        #expect(values("four quintillion third") == ["4000000000000000003"])
        #expect(values("a path of hundred steps, million to one") == ["100", "1000000", "1"])
        #expect(values("millions of users") == [])
        #expect(values("one hundred and forty two divided by eleven") == ["12.9090909090909"])
        #expect(values("thirty seven and fifth") == ["37", "5"])
    }
}

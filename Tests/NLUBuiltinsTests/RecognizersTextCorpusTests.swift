import Foundation
import NLUBuiltins
import Testing

/// Microsoft Recognizers-Text's English specs (MIT), converted by scripts/fixtures/builtins_recognizers_text.py:
/// the share of cases passed per kind, with floors at the level measured when they were set, so that
/// a regression fails. docs/builtins.md reports the same figures.
@Suite struct RecognizersTextCorpusTests {
    /// (fixture, kinds asked for, minimum share of cases passed).
    static let floors: [(String, Set<BuiltinEntityType>, Double)] = [
        ("number", [.number], 0.85),
        ("ordinal", [.ordinal], 0.96),
        ("percentage", [.percentage], 0.85),
        ("currency", [.currency], 0.88),
        ("temperature", [.temperature], 0.97),
        ("age", [.age], 1.0),
        ("dimension", [.dimension], 1.0),
        ("email", [.email], 0.95),
        ("url", [.url], 0.93),
        ("phonenumber", [.phonenumber], 0.95),
        ("datetime", BuiltinEntityType.dateTimeTypes, 0.68),
    ]

    @Test(arguments: floors.map(\.0))
    func shareOfCasesPassedStaysAtItsFloor(_ name: String) throws {
        let (_, types, floor) = try #require(Self.floors.first { $0.0 == name })
        let score = try scoreCorpus(name, types: types)
        dumpFailures(score, name: name)
        print("recognizers-text \(name): \(score)")
        #expect(score.overallShare >= floor, "\(name): \(score)")
    }
}

import Foundation
import NLUBuiltins
import Testing

/// Duckling's English corpus (BSD), converted by scripts/fixtures/duckling_corpus.py: the share of
/// examples passed per kind, with floors at the level measured when they were set, so that a regression
/// fails. As in Duckling's own tests, an example passes when one entity covers the whole input and
/// resolves to the expected value; its negative examples pass when nothing of the kind is found.
/// docs/builtins.md reports the same figures and the mapping from Duckling's values to ours.
@Suite struct DucklingCorpusTests {
    /// (fixture, kinds asked for, minimum share of cases passed).
    static let exactFloors: [(String, Set<BuiltinEntityType>, Double)] = [
        ("number", [.number], 0.91),
        ("ordinal", [.ordinal], 1.0),
        ("currency", [.currency], 0.91),
        ("temperature", [.temperature], 1.0),
        ("email", [.email], 1.0),
        ("url", [.url], 1.0),
        ("phonenumber", [.phonenumber], 0.94),
    ]
    /// Date-time fixtures, whose cases list the LUIS readings that agree with Duckling's value.
    static let readingFloors: [(String, Double)] = [
        ("duration", 0.92),
        ("time", 0.65),
    ]

    @Test(arguments: exactFloors.map(\.0))
    func shareOfExamplesPassedStaysAtItsFloor(_ name: String) throws {
        let (_, types, floor) = try #require(Self.exactFloors.first { $0.0 == name })
        let score = try scoreCorpus(name, types: types, corpus: "duckling")
        dumpFailures(score, name: "duckling-\(name)")
        print("duckling \(name): \(score)")
        #expect(score.overallShare >= floor, "\(name): \(score)")
    }

    @Test(arguments: readingFloors.map(\.0))
    func shareOfDateTimeExamplesPassedStaysAtItsFloor(_ name: String) throws {
        let (_, floor) = try #require(Self.readingFloors.first { $0.0 == name })
        let score = try scoreReadingCorpus(name)
        dumpFailures(score, name: "duckling-\(name)")
        print("duckling \(name): \(score)")
        #expect(score.overallShare >= floor, "\(name): \(score)")
    }

    /// The matching rule itself, on values computed by hand from Duckling's conventions.
    @Test func aReadingMatchesOnTheFieldsItNamesAndTheModsItAllows() {
        let clock = DucklingReading(entity: "time", value: "15:00:00")
        #expect(clock.matches(type: "time", DateTimeValue(timex: "T15", type: "time", value: "15:00:00")))
        #expect(!clock.matches(type: "time", DateTimeValue(timex: "T03", type: "time", value: "03:00:00")))
        #expect(!clock.matches(type: "datetime", DateTimeValue(timex: "T15", type: "time", value: "15:00:00")))
        #expect(!clock.matches(type: "time", DateTimeValue(timex: "T15", type: "time", value: "15:00:00", mod: "after")))
        let after = DucklingReading(entity: "timerange", start: "14:00:00", mods: ["after", "since"])
        #expect(after.matches(type: "timerange", DateTimeValue(timex: "T14", type: "timerange", start: "14:00:00", mod: "after")))
        #expect(!after.matches(type: "timerange", DateTimeValue(timex: "T14", type: "timerange", start: "14:00:00")))
    }
}

/// One LUIS-shaped reading that agrees with Duckling's value (scripts/fixtures/duckling_corpus.py).
struct DucklingReading: Decodable {
    var entity: String
    var value: String?
    var start: String?
    var end: String?
    var mods: [String]?

    /// Whether a found value of an entity of kind `type` is this reading: same kind, and the same value,
    /// start and end wherever the reading names them; a Mod only where the reading allows one ("about"
    /// is allowed anywhere: Duckling keeps the value of "about 3pm"). Timex is never compared.
    func matches(type: String, _ found: DateTimeValue) -> Bool {
        guard type == entity else { return false }
        if let value, found.value != value { return false }
        if let start, found.start != start { return false }
        if let end, found.end != end { return false }
        if let mods { return found.mod.map(mods.contains) ?? false }
        return found.mod == nil || found.mod == "approx"
    }
}

/// One converted Duckling time or duration example (or dateparser case, scripts/fixtures/dateparser_cases.py).
struct DucklingReadingCase: Decodable {
    var text: String
    var reference: String
    var accept: [DucklingReading]
    /// The source's own value, for the failure report (Duckling's or dateparser's).
    var duckling: String?
    var dateparser: String?
    /// Where the entity may start: 0, and after a leading "on", "at"… that LUIS leaves out of the span.
    var starts: [Int]?
    /// Where the entity may end (the text's end when absent; dateparser's cases also before a final ".").
    var ends: [Int]?
}

/// Runs the date-time recognizer on every example of `duckling/name.json`: an example passes when exactly
/// one date-time entity is found, it covers the whole input (but for a leading word LUIS leaves out), and one of its values is one of the accepted
/// readings; a negative example (no readings) passes when no date-time entity is found.
func scoreReadingCorpus(_ name: String, corpus: String = "duckling") throws -> CorpusScore {
    let data = try Data(contentsOf: builtinsFixtures.appendingPathComponent("\(corpus)/\(name).json"))
    let cases = try JSONDecoder().decode([DucklingReadingCase].self, from: data)
    let recognizer = BuiltinRecognizer(types: BuiltinEntityType.dateTimeTypes)
    var score = CorpusScore()
    for item in cases {
        let found = recognizer.entities(in: item.text, reference: try ReferenceTime(iso8601: item.reference))
        let group = item.accept.first?.entity ?? "none"
        score.total[group, default: 0] += 1
        let passed: Bool
        if item.accept.isEmpty {
            passed = found.isEmpty
        } else if found.count == 1, (item.ends ?? [item.text.unicodeScalars.count]).contains(found[0].scalarRange.upperBound),
                  (item.starts ?? [0]).contains(found[0].scalarRange.lowerBound),
                  case .dateTimes(let values) = found[0].resolution {
            passed = values.contains { value in item.accept.contains { $0.matches(type: found[0].type.rawValue, value) } }
        } else {
            passed = false
        }
        if passed {
            score.passed[group, default: 0] += 1
        } else {
            score.failures.append("\(item.text) | expected \(item.duckling ?? item.dateparser ?? "") \(item.accept.map { [$0.entity, $0.value, $0.start, $0.end].compactMap { $0 }.joined(separator: " ") }) | got \(describe(found.map(corpusEntity)))")
        }
    }
    return score
}

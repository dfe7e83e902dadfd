import Foundation
import NLUBuiltins

/// The repository's `Tests/Fixtures/builtins` folder.
let builtinsFixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/builtins")

/// One converted corpus case with its exact expected entities (scripts/fixtures/builtins_recognizers_text.py,
/// scripts/fixtures/duckling_corpus.py for Duckling's kinds other than time and duration,
/// scripts/fixtures/number_parser_cases.py).
struct CorpusCase: Decodable {
    struct Entity: Decodable, Equatable {
        var entity: String
        var start: Int
        var end: Int
        var text: String
        var resolution: Resolution
    }
    struct Resolution: Decodable, Equatable {
        var value: String?
        var unit: String?
        var isoCurrency: String?
        var values: [DateTimeValue]?
    }
    var text: String
    var reference: String?
    var entities: [Entity]
    /// The group a case is counted in when the fixture names one (number-parser: the function it tests).
    var group: String?
    /// The implementations the spec says fail the case ("dotnet, javascript, python, java"), when it says so.
    var notSupported: String?

    /// Whether the spec's reference implementation (.NET) supports the case: the ones it does not are counted apart.
    var isSupported: Bool { !(notSupported ?? "").contains("dotnet") }
}

/// How a corpus fared: cases passed per group (the expected entity kind, "none" for texts with none).
struct CorpusScore: CustomStringConvertible {
    var passed: [String: Int] = [:]
    var total: [String: Int] = [:]
    var failures: [String] = []
    /// Each passed case as [reference time, text] (reference "" when the case has none).
    var passedCases: [[String]] = []
    /// The cases the spec's reference implementation supports (``CorpusCase/isSupported``), and those passed.
    var supportedPassed = 0
    var supportedTotal = 0

    var overallShare: Double { Double(passed.values.reduce(0, +)) / Double(max(1, total.values.reduce(0, +))) }
    var supportedShare: Double { Double(supportedPassed) / Double(max(1, supportedTotal)) }
    func share(_ group: String) -> Double { Double(passed[group] ?? 0) / Double(max(1, total[group] ?? 0)) }

    var description: String {
        total.keys.sorted().map { key in
            "\(key): \(passed[key] ?? 0)/\(total[key]!) (\(String(format: "%.1f", 100 * share(key)))%)"
        }.joined(separator: ", ") + String(format: "; overall %.1f%%", 100 * overallShare)
            + (supportedTotal < total.values.reduce(0, +)
               ? String(format: "; cases .NET supports %d/%d (%.1f%%)", supportedPassed, supportedTotal, 100 * supportedShare) : "")
    }
}

/// Runs `recognizer` on every case of the fixture `corpus/name.json`; a case passes when the entities
/// found are exactly the expected ones: same kinds, offsets, and resolution (for date-times, the same set
/// of values with their timex, type, value, start, end and Mod).
func scoreCorpus(_ name: String, types: Set<BuiltinEntityType>, corpus: String = "recognizers-text",
                 language: BuiltinLanguage = .english) throws -> CorpusScore {
    let data = try Data(contentsOf: builtinsFixtures.appendingPathComponent("\(corpus)/\(name).json"))
    let cases = try JSONDecoder().decode([CorpusCase].self, from: data)
    let recognizer = BuiltinRecognizer(language: language, types: types)
    var score = CorpusScore()
    for item in cases {
        let reference = try item.reference.map { try ReferenceTime(iso8601: $0) }
            ?? ReferenceTime(date: CivilDate(year: 2016, month: 11, day: 7)!)
        let found = recognizer.entities(in: item.text, reference: reference).map(corpusEntity)
        let group = item.group ?? item.entities.first?.entity ?? "none"
        score.total[group, default: 0] += 1
        if item.isSupported { score.supportedTotal += 1 }
        if normalized(found) == normalized(item.entities) {
            score.passed[group, default: 0] += 1
            if item.isSupported { score.supportedPassed += 1 }
            score.passedCases.append([item.reference ?? "", item.text])
        } else {
            score.failures.append("\(item.text)\(item.reference.map { " @ " + $0 } ?? "") | expected \(describe(item.entities)) | got \(describe(found))")
        }
    }
    return score
}

/// A found entity in the fixtures' shape.
func corpusEntity(_ entity: BuiltinEntity) -> CorpusCase.Entity {
    var resolution = CorpusCase.Resolution()
    switch entity.resolution {
    case .value(let value, let unit, let iso):
        resolution.value = value
        resolution.unit = unit
        resolution.isoCurrency = iso
    case .unit(let unit):
        resolution.unit = unit
    case .dateTimes(let values):
        resolution.values = values
    }
    return CorpusCase.Entity(entity: entity.type.rawValue, start: entity.scalarRange.lowerBound,
                             end: entity.scalarRange.upperBound, text: entity.text, resolution: resolution)
}

/// Entities in order of position (the specs list some in the order their extractor's passes found
/// them, which carries no meaning), texts lowercased, date-time readings in one order.
private func normalized(_ entities: [CorpusCase.Entity]) -> [CorpusCase.Entity] {
    entities.sorted { ($0.start, $0.end) < ($1.start, $1.end) }.map { entity in
        var entity = entity
        entity.text = entity.text.lowercased()
        entity.resolution.values = entity.resolution.values?.sorted { describe($0) < describe($1) }
        return entity
    }
}

private func describe(_ value: DateTimeValue) -> String {
    [value.timex, value.type, value.value ?? "", value.start ?? "", value.end ?? "", value.mod ?? ""].joined(separator: ",")
}

func describe(_ entities: [CorpusCase.Entity]) -> String {
    entities.map { entity in
        let resolution = entity.resolution.values.map { $0.map(describe).joined(separator: "; ") }
            ?? [entity.resolution.value, entity.resolution.unit, entity.resolution.isoCurrency].compactMap { $0 }.joined(separator: " ")
        return "\(entity.entity)[\(entity.start),\(entity.end)) \"\(entity.text)\" {\(resolution)}"
    }.joined(separator: ", ")
}

/// Writes the failures of a corpus run to a file when NLUKIT_CORPUS_FAILURES names a folder (for tuning).
func dumpFailures(_ score: CorpusScore, name: String) {
    guard let folder = ProcessInfo.processInfo.environment["NLUKIT_CORPUS_FAILURES"] else { return }
    let url = URL(fileURLWithPath: folder).appendingPathComponent("\(name).txt")
    try? score.failures.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
}

/// Writes the cases a corpus run passed to `<name>-passing.json` when NLUKIT_CORPUS_PASSING names a folder (how
/// the committed lists of passed spec cases are made).
func dumpPassedCases(_ score: CorpusScore, name: String) throws {
    guard let folder = ProcessInfo.processInfo.environment["NLUKIT_CORPUS_PASSING"] else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let lines = try score.passedCases.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    try ("[\n" + lines.joined(separator: ",\n") + "\n]\n").write(to: URL(fileURLWithPath: folder).appendingPathComponent("\(name)-passing.json"),
                                                                atomically: true, encoding: .utf8)
}

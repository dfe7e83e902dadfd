import Foundation
@testable import NLUBuiltins
import Testing

/// The lead-word filter in front of the date-time parsers (``DateTimeLeadWords``) saves time and
/// nothing else: it must never skip a token where a date-time begins.
@Suite struct DateTimeLeadWordsTests {
    /// Every lower-case word the date-time parsers compare is classified: a possible first word of an
    /// expression (`leads`) or a word that only follows (`followers`). A word added to a parser and to
    /// neither list fails here, so the filter cannot silently fall behind the parsers.
    @Test func everyWordTheDateTimeParsersReadIsClassified() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/NLUBuiltins/DateTime")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 5)
        let typeNames = Set(BuiltinEntityType.allCases.map(\.rawValue))
        let literal = try Regex(#""([a-z][a-z.']*)""#)
        var unclassified: Set<String> = []
        var seen = 0
        for file in files where file != "DateTimeLeadWords.swift" {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in source.matches(of: literal) {
                guard let word = match.output[1].substring.map(String.init) else { continue }
                seen += 1
                if !DateTimeLeadWords.leads.contains(word), !DateTimeLeadWords.followers.contains(word), !typeNames.contains(word) {
                    unclassified.insert(word)
                }
            }
        }
        #expect(seen > 300)
        #expect(unclassified.isEmpty, "add to DateTimeLeadWords.leads (or .followers): \(unclassified.sorted())")
        #expect(DateTimeLeadWords.leads.isDisjoint(with: DateTimeLeadWords.followers))
    }

    /// With and without the filter the recognizer offers the same candidates (kind, span, resolution)
    /// on every text of the date-time corpora: the filter only skips tokens where nothing starts.
    @Test func theFilterChangesNoCandidateOnTheDateTimeCorpora() throws {
        struct Text: Decodable { var text: String; var reference: String? }
        var texts: [(String, String?)] = []
        for (corpus, name) in [("recognizers-text", "datetime"), ("duckling", "time"), ("duckling", "duration")] {
            let data = try Data(contentsOf: builtinsFixtures.appendingPathComponent("\(corpus)/\(name).json"))
            texts += try JSONDecoder().decode([Text].self, from: data).map { ($0.text, $0.reference) }
        }
        #expect(texts.count > 1500)
        var filtered = DateTimeRecognizer()
        filtered.skipsNonLeadWords = true
        var unfiltered = DateTimeRecognizer()
        unfiltered.skipsNonLeadWords = false
        var differences: [String] = []
        var candidates = 0
        for (text, referenceText) in texts {
            let reference = try referenceText.map { try ReferenceTime(iso8601: $0) }
                ?? ReferenceTime(date: CivilDate(year: 2016, month: 11, day: 7)!)
            let tokens = TokenizedText(text)
            let context = RecognitionContext(types: BuiltinEntityType.dateTimeTypes, reference: reference,
                                             numbers: NumberParser(tokens))
            var withFilter: [EntityMatch] = [], without: [EntityMatch] = []
            filtered.recognize(tokens, context: context, into: &withFilter)
            unfiltered.recognize(tokens, context: context, into: &without)
            candidates += without.count
            let describe = { (m: EntityMatch) in "\(m.type) \(m.start)-\(m.end) \(m.resolution)" }
            if withFilter.map(describe) != without.map(describe) {
                differences.append("\(text): \(Set(without.map(describe)).subtracting(withFilter.map(describe)))")
            }
        }
        #expect(candidates > 2000)
        #expect(differences.isEmpty, "\(differences.count) texts differ, e.g. \(differences.prefix(5))")
    }
}

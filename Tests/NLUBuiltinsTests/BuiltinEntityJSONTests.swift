import Foundation
import NLUBuiltins
import NLUInputOutput
import Testing

/// `BuiltinEntity.writeJSON` (what `nlu entities extract --json` writes) against `JSONEncoder` with sorted keys,
/// byte for byte: every entity the recognizers find in every language's spec fixtures, and entities made by hand
/// with every resolution field and text that needs escaping.
@Suite struct BuiltinEntityJSONTests {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private func expectSameBytes(_ entity: BuiltinEntity, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var json = JSONWriter()
        entity.writeJSON(to: &json)
        let expected = try encoder.encode(entity)
        #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self), sourceLocation: sourceLocation)
    }

    @Test func handMadeEntitiesWithEveryFieldAndEscapeMatchJSONEncoder() throws {
        let awkward = ["plain", "quote \" and backslash \\", "slash / ok", "tab\tline\nreturn\r", "\u{0}\u{1F}\u{7F}",
                       "两千三百五十", "😀", "é\u{301}", ""]
        let resolutions: [BuiltinResolution] = awkward.flatMap { text in
            [.value(text), .value(text, unit: "Dollar"), .value("1500", unit: text, isoCurrency: "USD"), .value("1", isoCurrency: text),
             .unit(text), .dateTimes([]),
             .dateTimes([DateTimeValue(timex: text, type: "datetime", value: "2016-11-08 19:00:00")]),
             .dateTimes([DateTimeValue(timex: "XXXX-WXX-1", type: "date", value: text),
                         DateTimeValue(timex: "(2016-11-07,2016-11-14,P1W)", type: "daterange", start: text, end: "2016-11-14", mod: "before"),
                         DateTimeValue(timex: "PT2H", type: text, start: nil, end: text, mod: text)])]
        }
        for (index, resolution) in resolutions.enumerated() {
            for type in BuiltinEntityType.allCases {
                let text = awkward[index % awkward.count]
                try expectSameBytes(BuiltinEntity(type: type, scalarRange: index..<(index * 7 + 10), range: text.startIndex..<text.endIndex,
                                                  text: text, resolution: resolution))
            }
        }
    }

    /// What the recognizers really produce: every kind in every language, over the Recognizers-Text spec texts.
    @Test func everyEntityFoundInTheSpecFixturesMatchesJSONEncoder() throws {
        let folder = builtinsFixtures.appendingPathComponent("recognizers-text")
        let reference = try ReferenceTime(iso8601: "2016-11-07T10:00:00")
        var kindsSeen = Set<BuiltinEntityType>(), resolutionFieldsSeen = Set<String>(), count = 0
        for language in BuiltinLanguage.allCases {
            let recognizer = BuiltinRecognizer(language: language)
            let specs = language == .english ? folder : folder.appendingPathComponent(language.rawValue)
            let files = try FileManager.default.contentsOfDirectory(atPath: specs.path).filter { $0.hasSuffix(".json") && !$0.hasSuffix("-passing.json") }.sorted()
            #expect(!files.isEmpty, "no spec fixtures for \(language.rawValue)")
            for file in files {
                let cases = try JSONDecoder().decode([CorpusCase].self, from: Data(contentsOf: specs.appendingPathComponent(file)))
                for item in cases {
                    for entity in recognizer.entities(in: item.text, reference: reference) {
                        try expectSameBytes(entity)
                        kindsSeen.insert(entity.type)
                        switch entity.resolution {
                        case .value(_, let unit, let iso):
                            resolutionFieldsSeen.insert("value")
                            if unit != nil { resolutionFieldsSeen.insert("unit") }
                            if iso != nil { resolutionFieldsSeen.insert("isoCurrency") }
                        case .unit: resolutionFieldsSeen.insert("unit alone")
                        case .dateTimes(let values):
                            for value in values {
                                if value.value != nil { resolutionFieldsSeen.insert("dateTime value") }
                                if value.start != nil { resolutionFieldsSeen.insert("start") }
                                if value.end != nil { resolutionFieldsSeen.insert("end") }
                                if value.mod != nil { resolutionFieldsSeen.insert("Mod") }
                            }
                        }
                        count += 1
                    }
                }
            }
        }
        #expect(count > 10_000, "\(count) entities")
        #expect(kindsSeen == Set(BuiltinEntityType.allCases), "kinds never seen: \(Set(BuiltinEntityType.allCases).subtracting(kindsSeen))")
        #expect(resolutionFieldsSeen == ["value", "unit", "isoCurrency", "unit alone", "dateTime value", "start", "end", "Mod"],
                "\(resolutionFieldsSeen)")
    }
}

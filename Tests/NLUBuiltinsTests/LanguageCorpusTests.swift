import Foundation
import NLUBuiltins
import Testing

/// Recognizers-Text's number, ordinal and percentage specs of the other languages (MIT), converted by
/// scripts/fixtures/builtins_recognizers_text.py into recognizers-text/<code>/: the share of cases passed per
/// language and kind, with floors at the level measured when they were set, so that a regression fails.
/// docs/builtins.md reports the same figures beside the Python port's.
@Suite struct LanguageCorpusTests {
    /// (language, fixture, minimum share of cases passed).
    static let floors: [(BuiltinLanguage, String, Double)] = [
        (.french, "number", 0.60), (.french, "ordinal", 0.61), (.french, "percentage", 0.94),
        (.spanish, "number", 0.90), (.spanish, "ordinal", 0.79), (.spanish, "percentage", 0.84),
        (.german, "number", 0.90), (.german, "ordinal", 0.71), (.german, "percentage", 1.0),
        (.portuguese, "number", 0.85), (.portuguese, "ordinal", 0.63), (.portuguese, "percentage", 0.88),
        (.italian, "number", 0.92), (.italian, "ordinal", 0.54), (.italian, "percentage", 1.0),
        (.dutch, "number", 0.77), (.dutch, "ordinal", 0.72), (.dutch, "percentage", 1.0),
    ]

    @Test(arguments: floors.map { "\($0.0.rawValue)/\($0.1)" })
    func shareOfCasesPassedStaysAtItsFloor(_ name: String) throws {
        let (language, kind, floor) = try #require(Self.floors.first { "\($0.0.rawValue)/\($0.1)" == name })
        let type = try #require(BuiltinEntityType(rawValue: kind))
        let score = try scoreCorpus(name, types: [type], language: language)
        dumpFailures(score, name: name.replacingOccurrences(of: "/", with: "-"))
        print("recognizers-text \(name): \(score)")
        #expect(score.overallShare >= floor, "\(name): \(score)")
    }

    /// Representative readings, worked by hand: compounds, "quatre-vingt", decimal comma and thousands dots,
    /// ordinal digits, fractions.
    @Test(arguments: [
        (BuiltinLanguage.french, "quatre-vingt-dix-sept pour cent, le 1er et vingt et un",
         ["percentage quatre-vingt-dix-sept pour cent 97", "ordinal 1er 1", "number vingt et un 21"]),
        (.german, "dreihundertvierundzwanzig Gäste, die 3. Banane, 2.000,352",
         ["number dreihundertvierundzwanzig 324", "ordinal 3. 3", "number 2.000,352 2000,352"]),
        (.spanish, "doscientos treinta y uno, tres cuartos", ["number doscientos treinta y uno 231", "number tres cuartos 0,75"]),
        (.italian, "centoventicinquesimo", ["ordinal centoventicinquesimo 125"]),
        (.dutch, "eenentwintig procent", ["percentage eenentwintig procent 21"]),
        (.portuguese, "cento e dezesseis", ["number cento e dezesseis 116"]),
    ])
    func readsRepresentativeCases(_ language: BuiltinLanguage, _ text: String, _ expected: [String]) {
        let found = BuiltinRecognizer(language: language).entities(in: text).map { entity -> String in
            guard case .value(let value, _, _) = entity.resolution else { return "\(entity.type.rawValue) \(entity.text)" }
            return "\(entity.type.rawValue) \(entity.text) \(value)"
        }
        #expect(found == expected)
    }

    @Test func languageCodesAndCulturesAreParsed() throws {
        #expect(try BuiltinLanguage(code: "fr") == .french)
        #expect(try BuiltinLanguage(code: "fr-FR") == .french)
        #expect(try BuiltinLanguage(code: "de_de") == .german)
        #expect(try BuiltinLanguage(code: "PT-br") == .portuguese)
        #expect(throws: BuiltinLanguageError.unsupported("zh-cn")) { try BuiltinLanguage(code: "zh-cn") }
        #expect(throws: BuiltinLanguageError.malformed("f")) { try BuiltinLanguage(code: "f") }
        #expect(throws: BuiltinLanguageError.malformed("fr--FR")) { try BuiltinLanguage(code: "fr--FR") }
        #expect(BuiltinLanguageError.unsupported("zh").description.contains("supported: en, fr, es, de, pt, it, nl"))
    }

    @Test func otherLanguagesReportOnlyTheirKinds() {
        let recognizer = BuiltinRecognizer(language: .french, types: [.number, .currency, .datetime])
        #expect(recognizer.types == [.number])
    }
}

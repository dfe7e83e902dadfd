import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// Azure CLU project exports (fixtures by scripts/fixtures/clu_projects.py, whose offsets Python's
/// own UTF-16, UTF-8 and code-point counts produced).
@Suite struct CLUImporterTests {
    func load(_ name: String, language: String? = nil) throws -> ImportResult {
        try IntentImporter.importDataset(from: fixture("platforms/\(name)"), options: ImportOptions(language: language))
    }

    @Test func allThreeStringIndexTypesGiveTheSameScalarOffsets() throws {
        let utf16 = try load("clu-utf16.json")
        #expect(utf16.format == .clu)
        #expect(try load("clu-utf8.json").dataset == utf16.dataset)
        #expect(try load("clu-codepoint.json").dataset == utf16.dataset)
        #expect(try load("clu-utf8.json").testDataset == utf16.testDataset)
        let send = try #require(utf16.dataset.intent(named: "SendEmail"))
        // "send an email to Zoë about the 😀 party tomorrow": the emoji is 2 UTF-16 units, 4 bytes, 1 scalar.
        #expect(send.utterances[0].entities == [EntityAnnotation(start: 17, end: 20, entity: "Contact", value: "Zoë"),
                                                 EntityAnnotation(start: 39, end: 47, entity: "Date", value: "tomorrow")])
        // "mail 𝒜lex at 10 pm": 𝒜 is outside the BMP.
        #expect(send.utterances[2].entities == [EntityAnnotation(start: 5, end: 9, entity: "Contact", value: "𝒜lex"),
                                                 EntityAnnotation(start: 13, end: 18, entity: "Date", value: "10 pm")])
    }

    @Test func readsTheDefaultLanguageAndKeepsTheTestSplitApart() throws {
        let result = try load("clu-utf16.json")
        let dataset = result.dataset
        #expect(dataset.language == "en")
        #expect(dataset.intents.map(\.name) == ["SendEmail", "ReadEmail"])
        #expect(dataset.intents.map(\.utterances.count) == [3, 3])
        #expect(dataset.counterexamples.map(\.text) == ["what's the weather"])
        #expect(dataset.intents.flatMap(\.utterances).reduce(0) { $0 + $1.entities.count } == 7)
        let test = try #require(result.testDataset)
        #expect(test.intents.map(\.name) == ["SendEmail", "ReadEmail"])
        #expect(test.intents.flatMap(\.utterances).map(\.text) == ["send Ünal an email 😀", "read mail from Microsoft"])
        #expect(test.intents[0].utterances[0].entities == [EntityAnnotation(start: 5, end: 9, entity: "Contact", value: "Ünal")])
        #expect(result.warnings.contains { $0.contains("en-us, de-de") || $0.contains("de-de, en-us") })
        #expect(result.warnings.contains { $0.contains("Unused") })
    }

    @Test func listRegexAndPrebuiltComponentsBecomeDictionariesPatternsAndBuiltins() throws {
        let result = try load("clu-utf16.json")
        let entities = result.dataset.entities
        #expect(entities.map(\.name) == ["Sender", "Date", "Ticket"])
        #expect(entities[0].values == [EntityValue("Microsoft", synonyms: ["MSFT"]), EntityValue("Contoso", synonyms: ["Contoso Ltd"])])
        #expect(entities[0].extensible == false)   // requiredComponents: ["list"]
        #expect(entities[1].builtin == "datetime" && entities[1].values.isEmpty)
        #expect(entities[2].values == [EntityValue("ticketId", patterns: ["TCK-[0-9]{4}"])])
        #expect(result.warnings.contains { $0.contains("Person.Name") })
    }

    @Test func languageOptionReadsAnotherLanguage() throws {
        let german = try load("clu-utf16.json", language: "de")
        #expect(german.dataset.language == "de")
        #expect(german.dataset.intents.map(\.utterances.count) == [1, 1])
        #expect(german.dataset.intents[0].utterances[0].entities == [EntityAnnotation(start: 22, end: 25, entity: "Contact", value: "Zoë")])
        #expect(german.dataset.entities[0].values[0].synonyms == ["Microsoft Deutschland"])
        #expect(german.dataset.entities[2].values == [EntityValue("ticketIdDe", patterns: ["TKT-[0-9]{4}"])])
        #expect(throws: IntentDatasetError.self) { try load("clu-utf16.json", language: "fr") }
    }

    @Test func wrongOffsetsAndUnknownIndexTypesAreReportedWithThePath() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = try String(contentsOf: fixture("platforms/clu-utf16.json"), encoding: .utf8)
        // The first span of the first utterance now starts inside the emoji's surrogate pair... or past the end.
        text = text.replacingOccurrences(of: "\"offset\": 17,", with: "\"offset\": 900,")
        let url = directory.appendingPathComponent("bad-offsets.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let result = try IntentImporter.importDataset(from: url)
        #expect(result.warnings.contains { $0.contains("assets.utterances[0].entities[0]") && $0.contains("bad-offsets.json") })
        #expect(result.dataset.intents[0].utterances[0].entities.map(\.entity) == ["Date"])

        // Offset 32 (UTF-16) is the middle of the emoji's surrogate pair.
        let split = text.replacingOccurrences(of: "\"offset\": 900,", with: "\"offset\": 32,")
        try split.write(to: url, atomically: true, encoding: .utf8)
        #expect(try IntentImporter.importDataset(from: url).warnings.contains { $0.contains("splits a character") })

        let unknown = text.replacingOccurrences(of: "\"Utf16CodeUnit\"", with: "\"Utf32\"")
        try unknown.write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: IntentDatasetError.malformedJSON(file: url.path, detail: "stringIndexType is 'Utf32', expected Utf16CodeUnit, Utf8CodeUnit or UnicodeCodePoint")) {
            try IntentImporter.importDataset(from: url)
        }
    }
}

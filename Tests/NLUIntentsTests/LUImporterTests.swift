import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// Bot Framework `.lu` files (fixtures written in the shape of botframework-cli's lu examples).
@Suite struct LUImporterTests {
    func load(_ path: String) throws -> ImportResult {
        try IntentImporter.importDataset(from: fixture("platforms/\(path)"))
    }

    @Test func labelsRolesPatternsAndImportsBecomeAnnotatedIntents() throws {
        let result = try load("lu-app/main.lu")
        #expect(result.format == .lu)
        let dataset = result.dataset
        #expect(dataset.language == "en")
        // The Greeting section comes from the import at the top; Goodbye is not imported (#Greeting).
        #expect(dataset.intents.map(\.name) == ["Greeting", "BookFlight", "Cancel"])
        #expect(dataset.intents.map(\.utterances.count) == [2, 6, 3])
        #expect(dataset.counterexamples.map(\.text) == ["what's the weather like", "tell me a joke"])
        let book = try #require(dataset.intent(named: "BookFlight")).utterances
        #expect(book[0].text == "book a flight from Seattle to Cairo")
        #expect(book[0].entities == [EntityAnnotation(start: 19, end: 26, entity: "city", value: "Seattle", role: "fromCity"),
                                     EntityAnnotation(start: 30, end: 35, entity: "city", value: "Cairo", role: "toCity")])
        #expect(book[1].entities[1] == EntityAnnotation(start: 16, end: 22, entity: "datetimeV2", value: "Friday"))
        #expect(book[2].text == "I need 2 seats to New York please")
        #expect(book[2].entities == [EntityAnnotation(start: 7, end: 8, entity: "number", value: "2", role: "seats"),
                                     EntityAnnotation(start: 18, end: 26, entity: "city", value: "New York", role: "toCity")])
        // Nested labels: the inner one first.
        #expect(book[3].text == "Boston round trip for me")
        #expect(book[3].entities == [EntityAnnotation(start: 0, end: 6, entity: "city", value: "Boston"),
                                     EntityAnnotation(start: 0, end: 17, entity: "trip", value: "Boston round trip")])
        // Patterns take the list's values in turn.
        #expect(book[4].text == "book a flight to Seattle")
        #expect(book[4].entities == [EntityAnnotation(start: 17, end: 24, entity: "city", value: "Seattle")])
        #expect(book[5].text == "please reserve a seat to Cairo")
        #expect(dataset.intent(named: "Cancel")?.utterances[0].entities == [EntityAnnotation(start: 7, end: 12, entity: "bookingId", value: "AB123")])
        #expect(result.warnings.contains { $0.contains("QnA section") && $0.contains("main.lu") })
        #expect(result.warnings.contains { $0.contains("EmptyIntent") })
    }

    @Test func entityDefinitionsOfBothSyntaxesBecomeDictionaries() throws {
        let result = try load("lu-app/main.lu")
        let entities = result.dataset.entities
        #expect(entities.map(\.name) == ["city", "bookingId", "number", "datetimeV2", "travelWords", "airline", "email"])
        #expect(entities[0].values == [EntityValue("Seattle", synonyms: ["SEA", "Seattle-Tacoma"]), EntityValue("Cairo", synonyms: ["CAI"]),
                                       EntityValue("Paris", synonyms: ["CDG"])])
        #expect(entities[1].values == [EntityValue("bookingId", patterns: ["[A-Z]{2}[0-9]{3}"])])
        #expect(entities[2].builtin == "number" && entities[3].builtin == "datetime" && entities[6].builtin == "email")
        #expect(entities[4].featureOnly && entities[4].values.map(\.value) == ["flight", "plane", "trip", "journey"])
        #expect(entities[5].values == [EntityValue("Contoso Air", synonyms: ["Contoso", "CA"])])
        #expect(result.warnings.contains { $0.contains("personName") })
    }

    @Test func aFolderReadsEveryLUFileOnce() throws {
        let result = try load("lu-app")
        #expect(result.format == .lu)
        #expect(result.dataset.intents.map(\.name) == ["Greeting", "Goodbye", "BookFlight", "Cancel"])
        #expect(result.dataset.intent(named: "Greeting")?.utterances.count == 2)
        #expect(result.dataset.entities.count == 7)
    }

    /// Imports may bring in at most 1,000 files (the files given are not counted against that).
    @Test func importsReachingMoreThanAThousandFilesAreRefused() throws {
        let folder = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let parts = folder.appendingPathComponent("parts")
        try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
        for number in 0...1_000 { try Data("# I\(number)\n- hello \(number)\n".utf8).write(to: parts.appendingPathComponent("p\(number).lu")) }
        let main = folder.appendingPathComponent("main.lu")
        try Data("# Main\n- hi\n\n[import](parts/*.lu)\n".utf8).write(to: main)
        #expect {
            try IntentImporter.importDataset(from: main, options: ImportOptions(format: .lu))
        } throws: { error in
            "\(error)".contains("reach more than 1000") && "\(error)".contains("main.lu")
        }
    }

    @Test func importCyclesAndMissingImportsNameTheFileAndLine() throws {
        let b = fixture("platforms/lu-bad/b.lu").standardizedFileURL.resolvingSymlinksInPath().path
        #expect(throws: IntentDatasetError.malformedMarkdown(file: b, line: 4, detail: "import cycle: a.lu → b.lu → a.lu")) {
            try load("lu-bad/a.lu")
        }
        let missing = fixture("platforms/lu-bad/missing.lu").standardizedFileURL.resolvingSymlinksInPath().path
        do {
            _ = try load("lu-bad/missing.lu")
            Issue.record("a missing import must fail")
        } catch let error as IntentDatasetError {
            guard case let .malformedMarkdown(file, line, detail) = error else { Issue.record("\(error)"); return }
            #expect(file == missing && line == 4 && detail.contains("does-not-exist.lu"))
        }
    }

    @Test func labelParserHandlesEscapesAndUnbalancedBraces() {
        #expect(LUImporter.labelledUtterance("a \\{literal\\} {@x=y}") == Utterance("a {literal} y", entities: [EntityAnnotation(start: 12, end: 13, entity: "x", value: "y")]))
        #expect(LUImporter.labelledUtterance("broken {@x=y") == nil)
        #expect(LUImporter.labels(in: "broken {@x=y") == .failure(.unbalanced))
        // 16 levels are read; a 17th is refused as too deep, not as unbalanced braces.
        let nested = { (depth: Int) in String(repeating: "{@e=", count: depth) + "v" + String(repeating: "}", count: depth) }
        #expect(LUImporter.labelledUtterance(nested(16))?.entities.count == 16)
        #expect(LUImporter.labels(in: nested(17)) == .failure(.nestedTooDeeply))
        #expect(LUImporter.isPattern("to {city} now") && !LUImporter.isPattern("to {city=Paris}"))
    }
}

import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// `.lu` files as LUDown and `bf luis:convert` write them: `## Intent` headings under `> !# @app.*`
/// headers. The `.lu` grammar takes `#` and `##` alike for an intent; `##` was read as a sub-section
/// of an intent above it, and a file of `##` intents imported as "no intents".
@Suite struct LUDownHeadingTests {
    @Test func doubleHashHeadingsAreIntents() throws {
        let result = try IntentImporter.importDataset(from: fixture("platforms/ludown-app.lu"))
        #expect(result.format == .lu)
        let dataset = result.dataset
        #expect(dataset.language == "en")   // > !# @app.culture = en-us
        #expect(dataset.intents.map(\.name) == ["BookFlight", "Greeting"])
        #expect(dataset.intents.map(\.utterances.count) == [2, 2])
        #expect(dataset.counterexamples.map(\.text) == ["what's the weather like"])
        #expect(dataset.intent(named: "BookFlight")?.utterances[0].entities == [EntityAnnotation(start: 17, end: 22, entity: "city", value: "Paris")])
    }

    /// With sections enabled, a `##` heading is a sub-section whose utterances join the `#` intent above it.
    @Test func doubleHashHeadingsAreSubSectionsWhenSectionsAreEnabled() throws {
        let url = try writeTemporaryFile("""
            > !# @enableSections = true
            # Travel
            ## Flights
            - book a flight
            ## Trains
            - book a train
            # Greeting
            - hi
            """, name: "sections.lu")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let dataset = try IntentImporter.importDataset(from: url).dataset
        #expect(dataset.intents.map(\.name) == ["Travel", "Greeting"])
        #expect(dataset.intent(named: "Travel")?.utterances.map(\.text) == ["book a flight", "book a train"])
    }

    /// `[import](file.lu#Intent)` picks a `##` intent as it picks a `#` one.
    @Test func importOfOneIntentFindsADoubleHashHeading() throws {
        let folder = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("## Greeting\n- hi\n## Goodbye\n- bye\n".utf8).write(to: folder.appendingPathComponent("chitchat.lu"))
        let main = folder.appendingPathComponent("main.lu")
        try Data("[import](chitchat.lu#Goodbye)\n# Help\n- help me\n".utf8).write(to: main)
        #expect(try IntentImporter.importDataset(from: main).dataset.intents.map(\.name) == ["Goodbye", "Help"])
    }
}

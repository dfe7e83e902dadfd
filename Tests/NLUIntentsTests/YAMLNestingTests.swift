import Foundation
import Testing
@testable import NLUIntents

/// The YAML pre-check measures the nesting and alias expansion the parser sees: `[` and quotes inside
/// examples are text (a large annotated Rasa file was refused as "nesting deeper than 256 levels"
/// when brackets and apostrophes were counted as characters), while deep flow or block nesting and
/// alias bombs are still refused before Yams recurses into them.
@Suite struct YAMLNestingTests {
    func importFile(_ text: String, name: String, format: DatasetFormat) throws -> ImportResult {
        let url = try writeTemporaryFile(text, name: name)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        return try IntentImporter.importDataset(from: url, options: ImportOptions(format: format))
    }

    /// 2,400 annotated examples of a restaurant bot; 300 name a restaurant with an apostrophe before a
    /// contraction (`[Joe's](restaurant) isn't open yet`), where a character count took the `'` of
    /// "Joe's" for a quote that hid the `]` and so counted one more open `[` per line.
    @Test func largeAnnotatedRasaFileIsNotTakenForDeepNesting() throws {
        let restaurants = ["Joe's", "McDonald's", "Wendy's", "Nando's", "Denny's", "Chili's", "Applebee's", "Arby's", "Hardee's", "Carl's Jr."]
        let cities = ["Paris", "New York", "Boston", "London", "Saint John's"]
        var search: [String] = [], opening: [String] = []
        for restaurant in restaurants {
            for city in cities {
                for party in 1...42 { search.append("    - find a table at [\(restaurant)](restaurant) in [\(city)](city) for [\(party)](party_size)") }
            }
            for phrasing in ["isn't open yet", "doesn't answer", "won't take my order", "wasn't open", "didn't reply", "can't seat us"] {
                for time in ["today", "now", "tonight", "this morning", "at noon"] {
                    opening.append("    - [\(restaurant)](restaurant) \(phrasing) \(time)")
                }
            }
        }
        let text = "version: \"3.1\"\nnlu:\n- intent: restaurant_search\n  examples: |\n" + search.joined(separator: "\n")
            + "\n- intent: opening_hours\n  examples: |\n" + opening.joined(separator: "\n") + "\n"
        let result = try importFile(text, name: "nlu.yml", format: .rasaYAML)
        #expect(result.dataset.intents.map(\.utterances.count) == [2_100, 300])
        let first = try #require(result.dataset.intent(named: "opening_hours")?.utterances.first)
        #expect(first == Utterance("Joe's isn't open yet today", entities: [EntityAnnotation(start: 0, end: 5, entity: "restaurant", value: "Joe's")]))
    }

    /// snips-nlu's `[slot](value)` markup in thousands of utterances, with brackets left open in text.
    @Test func annotatedSnipsNLUFileIsNotTakenForDeepNesting() throws {
        let utterances = (0..<3_000).map { "  - what's on at [venue](Joe's) [\($0) tonight? it's [late" }
        let text = "---\ntype: intent\nname: events\nutterances:\n" + utterances.joined(separator: "\n") + "\n"
        let result = try importFile(text, name: "dataset.yaml", format: .snipsNLU)
        #expect(result.dataset.utteranceCount == 3_000)
    }

    @Test(arguments: [
        ("flow", "nlu: " + String(repeating: "[", count: 10_000), 1),
        ("closed flow", "nlu:\n- " + String(repeating: "{a: ", count: 300) + String(repeating: "}", count: 300), 2),
        ("block", (0..<2_000).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n"), 257),
        ("compact block", "nlu:\n" + String(repeating: "- ", count: 5_000) + "x", 2),
    ])
    func deepNestingIsRefusedWithItsLine(_ shape: String, _ text: String, _ line: Int) throws {
        #expect {
            try importFile(text + "\n", name: "deep.yml", format: .rasaYAML)
        } throws: { error in
            let message = "\(error)"
            return message.contains("deep.yml") && message.contains("line \(line): collections nest deeper than 256 levels")
        }
    }

    /// A billion-laughs document after another document: snips-nlu files hold several, and the
    /// check used to measure aliases only when a file held a single document.
    @Test func aliasBombInALaterDocumentIsRefused() throws {
        var bomb = ["---", "type: intent", "name: a", "lol0: &a0 [\(Array(repeating: "\"lol\"", count: 9).joined(separator: ","))]"]
        for level in 1...9 { bomb.append("lol\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ","))]") }
        bomb.append("utterances: *a9")
        let text = "---\ntype: intent\nname: b\nutterances:\n  - hello\n" + bomb.joined(separator: "\n") + "\n"
        #expect {
            try importFile(text, name: "bomb.yaml", format: .snipsNLU)
        } throws: { error in
            "\(error)".contains("bomb.yaml") && "\(error)".contains("aliases expand to more than 1000000 values")
        }
    }

    @Test func shapeCountsCollectionsAndExpandedAliases() {
        let shape = YAMLShape.measure("a: &x [1, [2, {b: 3}]]\nc: [*x, *x]\n", stopDepth: 256, stopValues: 1_000)
        #expect(shape.depth == 4)
        #expect(shape.deepestLine == 1)
        // root, a, x (1 + 1 + (1 + 1 + (1 + 2)) = 7), c, its list, two aliases of 7.
        #expect(shape.values == 1 + 1 + 7 + 1 + 1 + 14)
        #expect(YAMLShape.measure("a: |\n  [[[[\n  {{{{\n", stopDepth: 256, stopValues: 1_000).depth == 1)
        #expect(YAMLShape.measure("a: \"[[[[\"\nb: '{{{{'\nc: x [[[[ y\n", stopDepth: 256, stopValues: 1_000).depth == 1)
    }
}

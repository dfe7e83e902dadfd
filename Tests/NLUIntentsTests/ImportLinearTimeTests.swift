import Foundation
import Testing
@testable import NLUIntents

/// Importing and exporting take time linear in the annotations of one utterance: offsets are
/// converted after one walk over the text, not by counting from its start for every mention (one
/// `.lu` line of 200,000 labels took more than a minute, 40,000 Watson mentions 7 s). Each case
/// times 10x the annotations against 1x, as `NLUBuiltinsTests.LinearTimeTests` does for text.
@Suite struct ImportLinearTimeTests {
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Imports the file `make(count)` writes, for `count` and 10 × `count` annotations, and checks
    /// the ratio of the times (linear work gives about 10, quadratic work 100).
    func expectLinear(_ name: String, format: DatasetFormat, count: Int,
                      _ make: (Int) -> String) throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ n: Int) throws -> Double {
            let url = folder.appendingPathComponent("\(n)-\(name)")
            try Data(make(n).utf8).write(to: url)
            return try seconds {
                let dataset = try IntentImporter.importDataset(from: url, options: ImportOptions(format: format)).dataset
                let annotated = dataset.intents.flatMap(\.utterances).map(\.entities.count).reduce(0, +)
                #expect(annotated == n, "\(name): \(annotated) annotations imported of \(n)")
            }
        }
        _ = try run(count)  // warm up
        let small = try run(count), large = try run(10 * count)
        #expect(large / max(small, 1e-6) < 30, "\(name): \(count) annotations \(small) s, \(10 * count): \(large) s")
    }

    /// A text of `count` mentions "x" with a two-unit character between them (so UTF-16 and scalar
    /// offsets differ), and each mention's UTF-16 offset.
    func mentions(_ count: Int) -> (text: String, offsets: [Int]) {
        (String(repeating: "x😀", count: count), (0..<count).map { 3 * $0 })
    }

    @Test func luLineWithManyLabels() throws {
        try expectLinear("many.lu", format: .lu, count: 2_000) { n in
            "# Greet\n- " + String(repeating: "{@e=x}😀", count: n) + "\n- hello\n"
        }
    }

    @Test func watsonExampleWithManyMentions() throws {
        try expectLinear("watson.json", format: .watson, count: 2_000) { n in
            let (text, offsets) = mentions(n)
            let list = offsets.map { #"{"entity":"e","location":[\#($0),\#($0 + 1)]}"# }.joined(separator: ",")
            return #"{"intents":[{"intent":"a","examples":[{"text":"\#(text)","mentions":[\#(list)]},{"text":"hi"}]}],"entities":[],"dialog_nodes":[]}"#
        }
    }

    @Test func watsonxExampleWithManyMentions() throws {
        try expectLinear("watsonx.json", format: .watsonxActions, count: 2_000) { n in
            let (text, offsets) = mentions(n)
            let list = offsets.map { #"{"entity":"e","location":[\#($0),\#($0 + 1)]}"# }.joined(separator: ",")
            return #"{"workspace":{"actions":[],"intents":[{"intent":"a","examples":[{"text":"\#(text)","mentions":[\#(list)]}]}],"entities":[]}}"#
        }
    }

    @Test func cluUtteranceWithManyEntities() throws {
        try expectLinear("clu.json", format: .clu, count: 2_000) { n in
            let (text, offsets) = mentions(n)
            let list = offsets.map { #"{"category":"e","offset":\#($0),"length":1}"# }.joined(separator: ",")
            return #"{"projectFileVersion":"2023-04-01","stringIndexType":"Utf16CodeUnit","metadata":{"projectKind":"Conversation","language":"en"},"assets":{"intents":[{"category":"a"}],"utterances":[{"text":"\#(text)","intent":"a","entities":[\#(list)]}]}}"#
        }
    }

    @Test func luisUtteranceWithManyEntities() throws {
        try expectLinear("luis.json", format: .luis, count: 2_000) { n in
            let (text, offsets) = mentions(n)
            let list = offsets.map { #"{"entity":"e","startPos":\#($0),"endPos":\#($0)}"# }.joined(separator: ",")
            return #"{"intents":[{"name":"a"}],"utterances":[{"text":"\#(text)","intent":"a","entities":[\#(list)]}]}"#
        }
    }

    /// Imports a Rasa file with the one example `make(count)`, for `count` and 10 × `count` characters
    /// of markup, and checks the ratio of the times and the example's text and annotations.
    func expectLinearMarkup(_ name: String, format: DatasetFormat, count: Int = 10_000,
                            text: (Int) -> String = { _ in "" }, annotations: Int = 0,
                            _ make: (Int) -> String) throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ n: Int) throws -> Double {
            let url = folder.appendingPathComponent("\(n)-\(name)")
            let example = make(n)
            let file = format == .rasaYAML
                ? "version: \"3.1\"\nnlu:\n- intent: a\n  examples: |\n    - \(example)\n    - hello\n"
                : "## intent:a\n- \(example)\n- hello\n"
            try Data(file.utf8).write(to: url)
            return try seconds {
                let dataset = try IntentImporter.importDataset(from: url, options: ImportOptions(format: format)).dataset
                let utterance = dataset.intents.flatMap(\.utterances).first { $0.text != "hello" }
                let expected = text(n).isEmpty ? example : text(n)
                #expect(utterance?.text == expected, "\(name): the text of \(n) characters of markup changed")
                #expect(utterance?.entities.count == annotations, "\(name): \(utterance?.entities.count ?? -1) annotations")
            }
        }
        _ = try run(count)  // warm up
        let small = try run(count), large = try run(10 * count)
        #expect(large / max(small, 1e-6) < 30, "\(name): \(count) characters \(small) s, \(10 * count): \(large) s")
    }

    /// Unclosed Rasa markup stays plain text, in time linear in the example: every `[` or `(` used to
    /// look for its closer to the end of the line (`[x](` over 200,000 characters took minutes).
    @Test func rasaMarkupWithManyUnclosedOpenersStaysPlainText() throws {
        try expectLinearMarkup("parentheses.yml", format: .rasaYAML) { String(repeating: "[x](", count: $0 / 4) }
        try expectLinearMarkup("brackets.md", format: .rasaMarkdown) { String(repeating: "[", count: $0) + "]" }
        try expectLinearMarkup("braces.md", format: .rasaMarkdown) { String(repeating: "[x]{", count: $0 / 4) }
        try expectLinearMarkup("unclosed.md", format: .rasaMarkdown) { String(repeating: "[", count: $0) }
        try expectLinearMarkup("open-parentheses.md", format: .rasaMarkdown) { String(repeating: "(", count: $0) }
        // Markup that does close, after all the unclosed markup, is still an annotation.
        try expectLinearMarkup("braces-then-mention.md", format: .rasaMarkdown,
                               text: { String(repeating: "[x]{", count: $0 / 4) + "Paris" }, annotations: 1) {
            String(repeating: "[x]{", count: $0 / 4) + "[Paris](city)"
        }
    }

    /// Exports count back in the same units: CLU's UTF-16 spans and `.lu` labels of many mentions.
    @Test(arguments: [ExportFormat.clu, .lu, .rasa, .dialogflowCX])
    func exportOfManyMentions(format: ExportFormat) throws {
        func dataset(_ n: Int) -> IntentDataset {
            let (text, _) = mentions(n)
            let entities = (0..<n).map { EntityAnnotation(start: 2 * $0, end: 2 * $0 + 1, entity: "e\($0 % 50)") }
            return IntentDataset(intents: [Intent(name: "a", utterances: [Utterance(text, entities: entities), Utterance("hi")])])
        }
        let small = dataset(2_000), large = dataset(20_000)
        _ = try IntentExporter.export(small, format: format)  // warm up
        let smallTime = try seconds { _ = try IntentExporter.export(small, format: format) }
        let largeTime = try seconds { _ = try IntentExporter.export(large, format: format) }
        #expect(largeTime / max(smallTime, 1e-6) < 30, "\(format): 2,000 mentions \(smallTime) s, 20,000: \(largeTime) s")
    }
}

import Foundation
import Testing
@testable import NLUIntents

/// Rasa's inline markup, well-formed and not: malformed markup stays plain text, and the first `]`
/// after a `[` ends its mention whatever else opens before it.
@Suite struct RasaMarkupTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var marked: String
        var text: String
        var entities: [EntityAnnotation]
        /// The `{...}` annotations read as plain text, as the importers' warnings quote them.
        var problems: [String] = []
        var testDescription: String { marked }
    }

    static let cases: [Case] = [
        Case(marked: "fly to [Paris](city)", text: "fly to Paris", entities: [EntityAnnotation(start: 7, end: 12, entity: "city", value: "Paris")]),
        Case(marked: "a [b] c", text: "a [b] c", entities: []),
        Case(marked: "[b](e", text: "[b](e", entities: []),
        Case(marked: "x ] y [ z", text: "x ] y [ z", entities: []),
        Case(marked: #"[b]{"entity": "e""#, text: #"[b]{"entity": "e""#, entities: [],
             problems: [#"annotation '[b]{"entity": "e"': its '{' is never closed; read as plain text"#]),
        Case(marked: "[b]{not json} z", text: "b z", entities: [],
             problems: [#"annotation '[b]{not json}': the part in braces is not a JSON object with an "entity" string; 'b' read as plain text"#]),
        Case(marked: #"[b]{"value": "v"} [c]{"entity": 3}"#, text: "b c", entities: [],
             problems: [#"annotation '[b]{"value": "v"}': the part in braces is not a JSON object with an "entity" string; 'b' read as plain text"#,
                        #"annotation '[c]{"entity": 3}': the part in braces is not a JSON object with an "entity" string; 'c' read as plain text"#]),
        Case(marked: "[[b](e) x", text: "[b x", entities: [EntityAnnotation(start: 0, end: 2, entity: "e", value: "[b")]),
        Case(marked: "[a] [b](e)", text: "[a] b", entities: [EntityAnnotation(start: 4, end: 5, entity: "e", value: "b")]),
        Case(marked: "[b](e:v) and [c", text: "b and [c", entities: [EntityAnnotation(start: 0, end: 1, entity: "e", value: "v")]),
        Case(marked: #"[b]{"entity": "e", "value": {"x": 1}} z"#, text: "b z", entities: [EntityAnnotation(start: 0, end: 1, entity: "e", value: "b")]),
        Case(marked: #"[x]{[y]{"entity": "e"}"#, text: #"[x]{y"#, entities: [EntityAnnotation(start: 4, end: 5, entity: "e", value: "y")],
             problems: [#"annotation '[x]{[y]{"entity": "e"}': its '{' is never closed; read as plain text"#]),
        Case(marked: "[x](([y](e)", text: "x", entities: [EntityAnnotation(start: 0, end: 1, entity: "([y](e", value: "x")]),
    ]

    @Test(arguments: cases)
    func markup(_ example: Case) {
        var problems: [String] = []
        let utterance = RasaAnnotationParser.parse(example.marked, problems: &problems)
        #expect(utterance.text == example.text)
        #expect(utterance.entities == example.entities)
        #expect(problems == example.problems)
    }

    /// A typo in an annotation's JSON is a warning naming the file, the line and the annotation, in
    /// YAML (literal blocks and lists) and Markdown alike; the example is kept as plain text.
    @Test func malformedJSONAnnotationIsAWarningNamingFileAndLine() throws {
        let yaml = """
        version: "3.1"
        nlu:
        - intent: travel
          examples: |
            - fly to [Paris](city)

            - fly to [Rome]{"entity": city}
        - intent: stay
          examples:
          - text: 'stay in [Oslo]{"entity" "city"}'
          - 'stay in [Bergen]{"entity": "city"}'

        """
        let yamlFile = try writeTemporaryFile(yaml, name: "nlu.yml")
        let markdownFile = try writeTemporaryFile("## intent:travel\n- fly to [Paris](city)\n- fly to [Rome]{\"entity\": city}\n", name: "nlu.md")
        defer {
            for file in [yamlFile, markdownFile] { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        }
        let fromYAML = try IntentImporter.importDataset(from: yamlFile, options: ImportOptions(format: .rasaYAML))
        #expect(fromYAML.dataset.intent(named: "travel")?.utterances.map(\.text) == ["fly to Paris", "fly to Rome"])
        #expect(fromYAML.dataset.intent(named: "stay")?.utterances.map(\.entities.count) == [0, 1])
        let rome = #"annotation '[Rome]{"entity": city}': the part in braces is not a JSON object with an "entity" string; 'Rome' read as plain text"#
        #expect(fromYAML.warnings.contains("\(yamlFile.path): line 7: \(rome)"), "\(fromYAML.warnings)")
        #expect(fromYAML.warnings.contains { $0.hasPrefix("\(yamlFile.path): line 10: annotation '[Oslo]") }, "\(fromYAML.warnings)")
        let fromMarkdown = try IntentImporter.importDataset(from: markdownFile, options: ImportOptions(format: .rasaMarkdown))
        #expect(fromMarkdown.warnings.contains("\(markdownFile.path): line 3: \(rome)"), "\(fromMarkdown.warnings)")
    }
}

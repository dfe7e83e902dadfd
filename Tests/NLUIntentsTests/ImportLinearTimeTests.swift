import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// Importing and exporting take time linear in the annotations of one utterance: offsets are
/// converted after one walk over the text, not by counting from its start for every mention (one
/// `.lu` line of 200,000 labels took more than a minute, 40,000 Watson mentions 7 s). Each case
/// times 10x the annotations against 1x, as `NLUBuiltinsTests.LinearTimeTests` does for text.
@Suite struct ImportLinearTimeTests {
    /// Imports the file `make(count)` writes, for `count` and 10 × `count` annotations, and checks
    /// the ratio of the times (linear work gives about 10, quadratic work 100).
    func expectLinear(_ name: String, format: DatasetFormat, count: Int,
                      _ make: (Int) -> String) throws {
        try expectLinearImport(name, format: format, count: count, make) { dataset, n in
            let annotated = dataset.intents.flatMap(\.utterances).map(\.entities.count).reduce(0, +)
            #expect(annotated == n, "\(name): \(annotated) annotations imported of \(n)")
        }
    }

    /// Imports the file `make(n)` writes for `count` and 10 × `count`, checks each dataset with
    /// `check(dataset, n)` and the ratio of the times.
    func expectLinearImport(_ name: String, format: DatasetFormat, count: Int, _ make: (Int) -> String,
                            check: (IntentDataset, Int) -> Void) throws {
        let folder = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try expectLinearTime(name, count: count) { n in
            let url = folder.appendingPathComponent("\(n)-\(name)")
            try Data(make(n).utf8).write(to: url)
            check(try IntentImporter.importDataset(from: url, options: ImportOptions(format: format)).dataset, n)
        }
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

    /// Imports a Rasa (or snips-nlu YAML) file with the one example `make(count)`, for `count` and
    /// 10 × `count` characters of markup, and checks the ratio of the times and the example's text and
    /// annotations.
    func expectLinearMarkup(_ name: String, format: DatasetFormat, count: Int = 10_000,
                            text: (Int) -> String = { _ in "" }, annotations: Int = 0,
                            _ make: (Int) -> String) throws {
        func file(_ example: String) -> String {
            switch format {
            case .rasaYAML: return "version: \"3.1\"\nnlu:\n- intent: a\n  examples: |\n    - \(example)\n    - hello\n"
            case .snipsNLU: return "type: intent\nname: a\nutterances:\n  - \(example)\n  - hello\n"
            default: return "## intent:a\n- \(example)\n- hello\n"
            }
        }
        try expectLinearImport(name, format: format, count: count, { file(make($0)) }) { dataset, n in
            let utterance = dataset.intents.flatMap(\.utterances).first { $0.text != "hello" }
            let expected = text(n).isEmpty ? make(n) : text(n)
            #expect(utterance?.text == expected, "\(name): the text of \(n) characters of markup changed")
            #expect(utterance?.entities.count == annotations, "\(name): \(utterance?.entities.count ?? -1) annotations")
        }
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

    /// snips-nlu YAML `[slot](text)` markup left unclosed: each `(` looked for its `)` to the end of the
    /// line (`[x](` repeated 10,000 times took seconds, 100,000 minutes). `[slot]` without `(text)` is
    /// the slot's name as text, as before.
    @Test func snipsYAMLMarkupWithManyUnclosedParenthesesStaysPlainText() throws {
        try expectLinearMarkup("parentheses.yaml", format: .snipsNLU, count: 2_000,
                               text: { "go " + String(repeating: "x(", count: $0 / 4) }) {
            "go " + String(repeating: "[x](", count: $0 / 4)
        }
        try expectLinearMarkup("mention-before.yaml", format: .snipsNLU, count: 2_000,
                               text: { "go Paris " + String(repeating: "x(", count: $0 / 4) }, annotations: 1) {
            "go [city](Paris) " + String(repeating: "[x](", count: $0 / 4)
        }
    }

    /// `.lu` definitions were looked up by scanning all earlier ones (20,000 `@ ml` lines took 71 s in
    /// a debug build).
    @Test func luFileWithManyDefinitions() throws {
        try expectLinear("definitions.lu", format: .lu, count: 2_000) { n in
            "# a\n- " + (0..<n).map { "{@e\($0)=x}" }.joined(separator: " ") + "\n- hello\n"
                + (0..<n).map { "@ ml e\($0)\n" }.joined()
        }
    }

    /// CLU and LUIS utterances may name intents their intents list lacks; each was looked up in the
    /// list of those seen so far (quadratic in the intents).
    @Test func cluAndLUISUtterancesOfManyUndeclaredIntents() throws {
        func expectIntents(_ dataset: IntentDataset, _ n: Int) {
            #expect(dataset.intents.count == n && dataset.intents.last?.name == "i\(n - 1)")
        }
        try expectLinearImport("clu.json", format: .clu, count: 2_000, { n in
            let utterances = (0..<n).map { #"{"text":"u\#($0)","intent":"i\#($0)"}"# }.joined(separator: ",")
            return #"{"projectFileVersion":"2023-04-01","metadata":{"projectKind":"Conversation","language":"en"},"assets":{"utterances":[\#(utterances)]}}"#
        }, check: expectIntents)
        try expectLinearImport("luis.json", format: .luis, count: 2_000, { n in
            let utterances = (0..<n).map { #"{"text":"u\#($0)","intent":"i\#($0)"}"# }.joined(separator: ",")
            return #"{"utterances":[\#(utterances)]}"#
        }, check: expectIntents)
    }

    /// Alexa and Lex V1 slots: each slot's type was looked up in the list of slot types, and each slot
    /// of an Amazon type in the list of built-ins found so far (quadratic in the slots).
    @Test func alexaAndLexSlotsOfManyTypes() throws {
        func expectSlots(_ dataset: IntentDataset, _ n: Int) {
            let annotations = dataset.intents.flatMap(\.utterances).map(\.entities.count).reduce(0, +)
            #expect(dataset.intents.count == n && annotations == 2 * n && dataset.entities.count == 2 * n)
            #expect(dataset.intents.last?.utterances.first?.text == "go v\(n - 1) two")
        }
        try expectLinearImport("alexa.json", format: .alexa, count: 1_000, { n in
            let intents = (0..<n).map {
                #"{"name":"I\#($0)","slots":[{"name":"s\#($0)","type":"T\#($0)"},{"name":"n\#($0)","type":"AMAZON.NUMBER"}],"samples":["go {s\#($0)} {n\#($0)}"]}"#
            }.joined(separator: ",")
            let types = (0..<n).map { #"{"name":"T\#($0)","values":[{"name":{"value":"v\#($0)"}}]}"# }.joined(separator: ",")
            return #"{"interactionModel":{"languageModel":{"invocationName":"x","intents":[\#(intents)],"types":[\#(types)]}}}"#
        }, check: expectSlots)
        try expectLinearImport("lex.json", format: .lexV1, count: 1_000, { n in
            let intents = (0..<n).map {
                #"{"name":"I\#($0)","slots":[{"name":"s\#($0)","slotType":"T\#($0)"},{"name":"n\#($0)","slotType":"AMAZON.NUMBER"}],"sampleUtterances":["go {s\#($0)} {n\#($0)}"]}"#
            }.joined(separator: ",")
            let types = (0..<n).map { #"{"name":"T\#($0)","enumerationValues":[{"value":"v\#($0)"}]}"# }.joined(separator: ",")
            return #"{"resource":{"name":"b","intents":[\#(intents)],"slotTypes":[\#(types)]}}"#
        }, check: expectSlots)
    }

    /// A zip agent of many intents: each file was found by `archive[path]`, which walks the zip's
    /// central directory, so reading an agent cost the intents times the entries.
    @Test func dialogflowCXZipOfManyIntents() throws {
        let folder = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try expectLinearTime("dialogflow-cx.zip", count: 150) { n in
            let dataset = IntentDataset(intents: (0..<n).map { Intent(name: "i\($0)", utterances: [Utterance("utterance \($0)")]) })
            let url = folder.appendingPathComponent("\(n)-agent.zip")
            try IntentExporter.export(dataset, format: .dialogflowCX).data.write(to: url)
            let imported = try IntentImporter.importDataset(from: url, options: ImportOptions(format: .dialogflowCX)).dataset
            #expect(imported.intents.count == n)
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
        let growth = try linearWorkGrowth {
            _ = try IntentExporter.export(small, format: format)
        } large: {
            _ = try IntentExporter.export(large, format: format)
        }
        #expect(growth.ratio < linearWorkBound, "\(format): 2,000 mentions → 20,000: \(growth)")
    }

    /// Imports the folder `make(folder, n)` fills, for `count` and 10 × `count` files, and checks that
    /// every intent came in.
    func expectLinearFolder(_ name: String, format: DatasetFormat, count: Int, _ make: (URL, Int) throws -> Void) throws {
        let root = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try expectLinearTime(name, count: count) { n in
            let folder = root.appendingPathComponent("\(n)-\(UUID().uuidString)")
            try make(folder, n)
            let dataset = try IntentImporter.importDataset(from: folder, options: ImportOptions(format: format)).dataset
            #expect(dataset.intents.count == n, "\(name): \(dataset.intents.count) intents imported of \(n)")
        }
    }

    /// A Rasa project folder of many small files: merging each into the whole re-indexed the whole.
    @Test func rasaProjectOfManyFiles() throws {
        try expectLinearFolder("rasa-project", format: .rasaYAML, count: 300) { folder, n in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in 0..<n {
                let yaml = "nlu:\n- intent: intent_\(file)\n  examples: |\n    - hello number \(file)\n- synonym: v\(file)\n  examples: |\n    - w\(file)\n"
                try Data(yaml.utf8).write(to: folder.appendingPathComponent("nlu_\(file).yml"))
            }
        }
    }

    /// A folder of many `.lu` files (more than the 1,000 files imports may bring in: the files of the
    /// folder itself do not count against that limit, and were refused).
    @Test func luFolderOfManyFiles() throws {
        try expectLinearFolder("lu-folder", format: .lu, count: 120) { folder, n in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for file in 0..<n {
                try Data("# Intent\(file)\n- hello {@place=there} \(file)\n- hi \(file)\n".utf8).write(to: folder.appendingPathComponent("part\(file).lu"))
            }
        }
    }

    /// A Lex V2 bot of many intents, each with slots: every intent scanned every path of the export
    /// for its slot files.
    @Test func lexV2BotOfManyIntents() throws {
        try expectLinearFolder("lexv2", format: .lexV2, count: 200) { folder, n in
            let locale = folder.appendingPathComponent("Bot/BotLocales/en_US")
            let manager = FileManager.default
            for number in 0..<n {
                let intent = locale.appendingPathComponent("Intents/Intent\(number)")
                try manager.createDirectory(at: intent, withIntermediateDirectories: true)
                let utterances = #"[{"utterance": "book {Day} \#(number)"}, {"utterance": "reserve {Time} \#(number)"}]"#
                try Data(#"{"name": "Intent\#(number)", "sampleUtterances": \#(utterances)}"#.utf8).write(to: intent.appendingPathComponent("Intent.json"))
                for (slot, type) in [("Day", "AMAZON.Date"), ("Time", "AMAZON.Time"), ("Place", "AMAZON.City")] {
                    let folder = intent.appendingPathComponent("Slots/\(slot)")
                    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
                    try Data(#"{"name": "\#(slot)", "slotTypeName": "\#(type)"}"#.utf8).write(to: folder.appendingPathComponent("Slot.json"))
                }
            }
        }
    }
}

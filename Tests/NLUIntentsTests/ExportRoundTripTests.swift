import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// `IntentExporter`: importing what we exported gives back the dataset — for each format on a
/// dataset imported from that format's own fixture (exactly equal), and on a dataset of ours with
/// non-ASCII text, nested-free annotations and counterexamples (intents, texts and spans equal).
@Suite struct ExportRoundTripTests {
    func roundTrip(_ dataset: IntentDataset, _ format: ExportFormat) throws -> (IntentDataset, [String]) {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let exported = try IntentExporter.export(dataset, format: format)
        let url = directory.appendingPathComponent("export.\(format.fileExtension)")
        try exported.data.write(to: url)
        let result = try IntentImporter.importDataset(from: url)
        #expect(result.format == format.importFormat)
        return (result.dataset, exported.warnings)
    }

    static let cases: [(ExportFormat, String)] = [
        (.rasa, "rasa-nlu.yml"), (.clu, "platforms/clu-utf16.json"), (.lu, "platforms/lu-app/main.lu"),
        (.dialogflowCX, "platforms/dialogflow-cx-agent.zip"),
    ]

    @Test(arguments: 0..<4) func importOfTheExportEqualsTheImportedDataset(_ index: Int) throws {
        let (format, name) = Self.cases[index]
        let original = try IntentImporter.importDataset(from: fixture(name)).dataset
        #expect(!original.intents.isEmpty && original.intents.contains { $0.utterances.contains { !$0.entities.isEmpty } })
        let (back, _) = try roundTrip(original, format)
        #expect(back == original, "\(format.rawValue) round trip of \(name)")
    }

    static let ours = IntentDataset(language: "en", intents: [
        Intent(name: "book", utterances: [
            Utterance("fly from Zürich to São Paulo 😀 {now}", entities: [
                EntityAnnotation(start: 9, end: 15, entity: "city", value: "Zürich", role: "from"),
                EntityAnnotation(start: 19, end: 28, entity: "city", value: "São Paulo", role: "to")]),
            Utterance("book 𝒜 table for 4", entities: [EntityAnnotation(start: 17, end: 18, entity: "count", value: "4")]),
        ]),
        Intent(name: "greet", utterances: ["hello", "good morning"]),
    ], counterexamples: ["tell me a joke"], entities: [
        EntityDefinition(name: "city", values: [EntityValue("Zürich", synonyms: ["ZRH"]), EntityValue("São Paulo")]),
    ])

    @Test(arguments: 0..<4) func ourDatasetKeepsIntentsTextsAndSpansInEveryFormat(_ index: Int) throws {
        let format = Self.cases[index].0
        let (back, _) = try roundTrip(Self.ours, format)
        #expect(back.intents.map(\.name) == ["book", "greet"], "\(format.rawValue)")
        #expect(back.intents.flatMap(\.utterances).map(\.text) == Self.ours.intents.flatMap(\.utterances).map(\.text), "\(format.rawValue)")
        #expect(back.counterexamples.map(\.text) == ["tell me a joke"], "\(format.rawValue)")
        let spans = back.intents[0].utterances.map { $0.entities.map { [$0.start, $0.end] } }
        #expect(spans == [[[9, 15], [19, 28]], [[17, 18]]], "\(format.rawValue)")
        #expect(back.intents[0].utterances[0].entities.map(\.entity) == ["city", "city"], "\(format.rawValue)")
        if format != .clu {   // CLU has no roles
            #expect(back.intents[0].utterances[0].entities.map(\.role) == ["from", "to"], "\(format.rawValue)")
        }
        #expect(back.entities.contains { $0.values.map(\.value).contains("São Paulo") }, "\(format.rawValue)")
    }

    @Test func whatAFormatCannotHoldIsWarnedAbout() throws {
        var dataset = Self.ours
        dataset.entities.append(EntityDefinition(name: "words", values: [EntityValue("flight")], featureOnly: true))
        let clu = try IntentExporter.export(dataset, format: .clu)
        #expect(clu.warnings.contains { $0.contains("roles") })
        #expect(clu.warnings.contains { $0.contains("'words'") && $0.contains("phrase list") })
        var overlapping = Self.ours
        overlapping.intents[1].utterances[0].entities = [EntityAnnotation(start: 0, end: 5, entity: "a"), EntityAnnotation(start: 2, end: 4, entity: "b")]
        let rasa = try IntentExporter.export(overlapping, format: .rasa)
        #expect(rasa.warnings.contains { $0.contains("intent 'greet' utterance 0") && $0.contains("'b'") })
        // .lu nests them instead.
        let lu = try IntentExporter.export(overlapping, format: .lu)
        #expect(String(decoding: lu.data, as: UTF8.self).contains("- {@a=he{@b=ll}o}"))
    }
}

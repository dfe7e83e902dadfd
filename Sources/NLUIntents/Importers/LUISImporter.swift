import Foundation

/// Microsoft LUIS app JSON: `intents[].name`, `utterances[]` (`text`, `intent`, `entities[]` with
/// `entity`, `startPos` and an **inclusive** `endPos`, in UTF-16 units, optional `role` and nested
/// `children`), `closedLists[]` (`subLists[].canonicalForm`, `list`). The `None` intent is the
/// out-of-scope class.
enum LUISImporter {
    struct App: Decodable {
        var culture: String?
        var intents: [NamedIntent]?
        var utterances: [LUISUtterance]?
        var closedLists: [ClosedList]?
    }
    struct NamedIntent: Decodable { var name: String }
    struct LUISUtterance: Decodable {
        var text: String
        var intent: String
        var entities: [Entity]?
    }
    final class Entity: Decodable {
        let entity: String
        let startPos: Int
        let endPos: Int
        let role: String?
        let children: [Entity]?
    }
    struct ClosedList: Decodable { var name: String; var subLists: [SubList]? }
    struct SubList: Decodable { var canonicalForm: String; var list: [String]? }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let data = try source.singleFileData(.luis, warnings: &warnings)
        let app = try JSONInput.decode(App.self, from: data, file: source.name)
        var byIntent: [String: [Utterance]] = [:]
        for utterance in app.utterances ?? [] {
            byIntent[utterance.intent, default: []].append(convert(utterance))
        }
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.language = app.culture.map(LexV1Importer.languageCode)
        var declared = (app.intents ?? []).map(\.name)
        // Utterances may name intents the intents list lacks; keep them, in order of appearance.
        for utterance in app.utterances ?? [] where !declared.contains(utterance.intent) { declared.append(utterance.intent) }
        for name in declared { try assembler.addIntent(name, utterances: byIntent[name] ?? []) }
        assembler.entities = (app.closedLists ?? []).map { list in
            EntityDefinition(name: list.name, values: (list.subLists ?? []).map {
                EntityValue($0.canonicalForm, synonyms: ($0.list ?? []).filter { $0 != list.name })
            })
        }
        return try assembler.dataset(warnings: &warnings)
    }

    private static func convert(_ utterance: LUISUtterance) -> Utterance {
        let text = utterance.text
        let scalars = Array(text.unicodeScalars)
        var annotations: [EntityAnnotation] = []
        func visit(_ entity: Entity) {
            let start = ScalarOffsets.fromUTF16(entity.startPos, in: text)
            let end = ScalarOffsets.fromUTF16(entity.endPos + 1, in: text)   // endPos is inclusive
            if start < end {
                var value = String.UnicodeScalarView()
                value.append(contentsOf: scalars[start..<end])
                annotations.append(EntityAnnotation(start: start, end: end, entity: entity.entity, value: String(value), role: entity.role))
            }
            entity.children?.forEach(visit)
        }
        utterance.entities?.forEach(visit)
        return Utterance(text, entities: annotations)
    }
}

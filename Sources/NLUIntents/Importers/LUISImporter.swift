import Foundation

/// Microsoft LUIS app JSON: `intents[].name`, `utterances[]` (`text`, `intent`, `entities[]` with
/// `entity`, `startPos` and an **inclusive** `endPos`, in UTF-16 units, optional `role` and nested
/// `children`), `closedLists[]` (`subLists[].canonicalForm`, `list`), `prebuiltEntities[].name`
/// (built-ins, ``PlatformBuiltins/luis``). The `None` intent is the out-of-scope class.
enum LUISImporter {
    struct App: Decodable {
        var culture: String?
        var intents: [NamedIntent]?
        var utterances: [LUISUtterance]?
        var closedLists: [ClosedList]?
        var prebuiltEntities: [NamedIntent]?
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
        var counts: [String: Int] = [:]
        for utterance in app.utterances ?? [] {
            let index = counts[utterance.intent, default: 0]
            counts[utterance.intent] = index + 1
            byIntent[utterance.intent, default: []].append(try convert(utterance, index: index, file: source.name))
        }
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.language = app.culture.map(LanguageChoice.language)
        var declared = (app.intents ?? []).map(\.name)
        // Utterances may name intents the intents list lacks; keep them, in order of appearance (a set
        // answers whether one is known: searching the list for each utterance was quadratic).
        var declaredNames = Set(declared)
        for utterance in app.utterances ?? [] where declaredNames.insert(utterance.intent).inserted { declared.append(utterance.intent) }
        for name in declared { try assembler.addIntent(name, utterances: byIntent[name] ?? []) }
        assembler.entities = (app.closedLists ?? []).map { list in
            EntityDefinition(name: list.name, values: (list.subLists ?? []).map {
                EntityValue($0.canonicalForm, synonyms: ($0.list ?? []).filter { $0 != list.name })
            })
        }
        var builtins = BuiltinCollector(file: source.name, table: PlatformBuiltins.luis, noun: "prebuilt entity")
        for prebuilt in app.prebuiltEntities ?? [] {
            builtins.add(entity: prebuilt.name, platformType: prebuilt.name, warnings: &warnings)
        }
        assembler.entities += builtins.definitions
        return try assembler.dataset(warnings: &warnings)
    }

    /// The utterance with its entities; a span outside the text or ending before it starts is an
    /// error naming the utterance (`index` within its intent) rather than an entity silently dropped.
    private static func convert(_ utterance: LUISUtterance, index: Int, file: String) throws -> Utterance {
        let text = utterance.text
        let scalars = Array(text.unicodeScalars)
        let offsets = ScalarOffsets(text, unit: .utf16)
        let length = offsets.length
        var annotations: [EntityAnnotation] = []
        func visit(_ entity: Entity, depth: Int) throws {
            guard depth < 64 else {
                throw IntentDatasetError.invalidAnnotation(file: file, intent: utterance.intent, index: index,
                                                           detail: "entities nested deeper than 64 levels")
            }
            // endPos is inclusive: a span is 0 ≤ startPos ≤ endPos < the text's length (UTF-16 units).
            guard entity.startPos >= 0, entity.startPos <= entity.endPos, entity.endPos < length else {
                throw IntentDatasetError.invalidAnnotation(
                    file: file, intent: utterance.intent, index: index,
                    detail: "entity '\(entity.entity)' spans startPos \(entity.startPos) to endPos \(entity.endPos), "
                        + "expected 0 ≤ startPos ≤ endPos < \(length) (the text's length in UTF-16 units)")
            }
            let start = offsets.scalarOffset(roundingUp: entity.startPos)
            let end = offsets.scalarOffset(roundingUp: entity.endPos + 1)
            if start < end {
                var value = String.UnicodeScalarView()
                value.append(contentsOf: scalars[start..<end])
                annotations.append(EntityAnnotation(start: start, end: end, entity: entity.entity, value: String(value), role: entity.role))
            }
            for child in entity.children ?? [] { try visit(child, depth: depth + 1) }
        }
        for entity in utterance.entities ?? [] { try visit(entity, depth: 0) }
        return Utterance(text, entities: annotations)
    }
}

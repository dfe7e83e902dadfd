import Foundation

/// Amazon Lex V1 bot export (JSON): `resource.intents[].sampleUtterances` with `{Slot}`
/// placeholders, `slots[]` naming each slot's `slotType`, and `resource.slotTypes[].enumerationValues`
/// (`value`, `synonyms`); slots of Amazon's built-in types are built-in entities. An intent export (whose `resource` is the intent itself) reads too.
enum LexV1Importer {
    struct Export: Decodable { var resource: Resource }
    struct Resource: Decodable {
        var name: String?
        var locale: String?
        var intents: [LexIntent]?
        var sampleUtterances: [String]?
        var slots: [Slot]?
        var slotTypes: [SlotType]?
    }
    struct LexIntent: Decodable {
        var name: String
        var description: String?
        var sampleUtterances: [String]?
        var slots: [Slot]?
    }
    struct Slot: Decodable { var name: String; var slotType: String? }
    struct SlotType: Decodable { var name: String; var enumerationValues: [EnumerationValue]? }
    struct EnumerationValue: Decodable { var value: String; var synonyms: [String]? }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let data = try source.singleFileData(.lexV1, warnings: &warnings)
        let resource = try JSONInput.decode(Export.self, from: data, file: source.name).resource
        var intents = resource.intents ?? []
        if intents.isEmpty, let samples = resource.sampleUtterances {
            intents = [LexIntent(name: resource.name ?? "intent", sampleUtterances: samples, slots: resource.slots)]
        }
        let slotTypes = resource.slotTypes ?? []
        // By name, the first of a name (a search of the list per slot made many slots quadratic).
        let typesByName = Dictionary(slotTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.language = resource.locale.map(LanguageChoice.language)
        assembler.entities = slotTypes.map { type in
            EntityDefinition(name: type.name, values: (type.enumerationValues ?? []).map { EntityValue($0.value, synonyms: $0.synonyms ?? []) })
        }
        // Slots of Amazon's built-in types (`AMAZON.DATE`) are built-in entities under the slot's name.
        var builtins = BuiltinCollector(file: source.name, table: PlatformBuiltins.amazon, noun: "slot type")
        for intent in intents {
            for slot in intent.slots ?? [] {
                guard let type = slot.slotType, type.lowercased().hasPrefix("amazon."), typesByName[type] == nil else { continue }
                builtins.add(entity: slot.name, platformType: type, key: type.lowercased(), warnings: &warnings)
            }
            var expander = PlaceholderExpander(sampleValues: sampleValues(slots: intent.slots ?? [], types: typesByName))
            try assembler.addIntent(intent.name, description: intent.description,
                                    utterances: (intent.sampleUtterances ?? []).map { expander.expand($0) })
        }
        assembler.entities += builtins.definitions
        return try assembler.dataset(warnings: &warnings)
    }

    private static func sampleValues(slots: [Slot], types: [String: SlotType]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for slot in slots {
            guard let typeName = slot.slotType else { continue }
            if let type = types[typeName] {
                result[slot.name] = (type.enumerationValues ?? []).map(\.value)
            } else {
                result[slot.name] = PlaceholderExpander.builtInValues(forType: typeName)
            }
        }
        return result
    }
}

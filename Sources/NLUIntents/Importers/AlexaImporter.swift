import Foundation

/// Alexa skill interaction model JSON: `interactionModel.languageModel.intents[]` (`name`,
/// `slots[]` with `name` and `type`, `samples[]` with `{slot}` placeholders) and
/// `languageModel.types[]` (`name`, `values[].name.value`, `synonyms`). Slots of Amazon's built-in
/// types are built-in entities under the slot's name. Built-in intents without
/// samples (AMAZON.StopIntent, ...) are skipped.
enum AlexaImporter {
    struct Model: Decodable { var interactionModel: InteractionModel }
    struct InteractionModel: Decodable { var languageModel: LanguageModel }
    struct LanguageModel: Decodable {
        var intents: [AlexaIntent]?
        var types: [SlotType]?
    }
    struct AlexaIntent: Decodable {
        var name: String
        var slots: [Slot]?
        var samples: [String]?
    }
    struct Slot: Decodable { var name: String; var type: String }
    struct SlotType: Decodable { var name: String; var values: [TypeValue]? }
    struct TypeValue: Decodable { var name: TypeValueName }
    struct TypeValueName: Decodable { var value: String; var synonyms: [String]? }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let data = try source.singleFileData(.alexa, warnings: &warnings)
        let model = try JSONInput.decode(Model.self, from: data, file: source.name).interactionModel.languageModel
        let types = model.types ?? []
        // By name, the first of a name (a search of the list per slot made many slots quadratic).
        let typesByName = Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.entities = types.map { type in
            EntityDefinition(name: type.name, values: (type.values ?? []).map { EntityValue($0.name.value, synonyms: $0.name.synonyms ?? []) })
        }
        // Slots of Amazon's built-in types (`AMAZON.NUMBER`) are built-in entities under the slot's name.
        var builtins = BuiltinCollector(file: source.name, table: PlatformBuiltins.amazon, noun: "slot type")
        for intent in model.intents ?? [] {
            var values: [String: [String]] = [:]
            for slot in intent.slots ?? [] {
                if slot.type.lowercased().hasPrefix("amazon."), typesByName[slot.type] == nil {
                    builtins.add(entity: slot.name, platformType: slot.type, key: slot.type.lowercased(), warnings: &warnings)
                }
                values[slot.name] = typesByName[slot.type].map { ($0.values ?? []).map(\.name.value) }
                    ?? PlaceholderExpander.builtInValues(forType: slot.type)
            }
            var expander = PlaceholderExpander(sampleValues: values)
            let utterances = (intent.samples ?? []).map { expander.expand($0) }
            if intent.name == "AMAZON.FallbackIntent" {
                utterances.forEach { assembler.addCounterexample($0) }
            } else {
                try assembler.addIntent(intent.name, utterances: utterances)
            }
        }
        assembler.entities += builtins.definitions
        return try assembler.dataset(warnings: &warnings)
    }
}

import Foundation
import NLUBuiltins

/// Alexa skill interaction model JSON: `interactionModel.languageModel.intents[]` (`name`,
/// `slots[]` with `name` and `type`, `samples[]` with `{slot}` placeholders) and
/// `languageModel.types[]` (`name`, `values[].name.value`, `synonyms`). Slots of Amazon's built-in
/// types are built-in entities under the slot's name. Built-in intents without
/// samples (AMAZON.StopIntent, ...) are skipped.
///
/// The model holds no locale: Alexa names each locale's file after it, `de-DE.json`, and a skill package
/// (a folder or a zip) holds one per locale in `interactionModels/custom/<locale>.json`. The locale is taken
/// from the name; of a package with several, `--language`'s is read (an error naming the ones it has when it
/// has none), else en-US, else the first English one, else the first, with a warning naming them.
enum AlexaImporter {
    static let layout = "an Alexa skill package (interactionModels/custom/<locale>.json)"

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

    /// Whether `path` is a locale's interaction model in a skill package.
    static func isModelFile(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count >= 3 && parts[parts.count - 3] == "interactionModels" && parts[parts.count - 2] == "custom"
            && parts[parts.count - 1].hasSuffix(".json")
    }

    /// The locale a model file's name is (`de-DE.json` → `de-DE`), `nil` for another name (`model.json`).
    static func locale(inName path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        guard name.lowercased().hasSuffix(".json") else { return nil }
        let stem = String(name.dropLast(5))
        return LanguageCode.isCulture(stem) ? stem : nil
    }

    /// The model file to read and its locale: the file itself, or the chosen locale's of a skill package.
    static func modelFile(in source: ImportSource, options: ImportOptions,
                          warnings: inout [String]) throws -> (path: String, locale: String?) {
        guard source.kind != .file else { return (source.paths[0], locale(inName: source.url.path)) }
        let models = source.paths.filter(isModelFile).sorted()
        guard !models.isEmpty else { throw IntentDatasetError.missingFiles(file: source.name, expected: layout) }
        var byLocale: [(locale: String, path: String)] = []
        for path in models {
            guard let locale = locale(inName: path) else {
                warnings.append("\(source.displayName(path)): not named after a locale (such as de-DE.json); skipped")
                continue
            }
            byLocale.append((locale, path))
        }
        guard !byLocale.isEmpty else { throw IntentDatasetError.missingFiles(file: source.name, expected: layout) }
        let locales = byLocale.map(\.locale)
        let chosen = try options.language.map {
            try LanguageChoice.requested($0, among: locales, file: source.name, holding: "the skill has interaction models in")
        } ?? locales.first { $0 == "en-US" } ?? locales.first { LanguageChoice.language(of: $0) == "en" } ?? locales[0]
        if locales.count > 1 {
            warnings.append(LanguageChoice.warning(file: source.name, holding: "the skill has interaction models in",
                                                   available: locales, reading: chosen))
        }
        let path = byLocale.first { $0.locale == chosen }?.path ?? byLocale[0].path
        return (path, chosen)
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let (path, locale) = try modelFile(in: source, options: options, warnings: &warnings)
        let data = try source.utf8Data(at: path, warnings: &warnings)
        let model = try JSONInput.decode(Model.self, from: data, file: source.displayName(path)).interactionModel.languageModel
        let types = model.types ?? []
        // By name, the first of a name (a search of the list per slot made many slots quadratic).
        let typesByName = Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.language = locale.map(LanguageChoice.language)
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

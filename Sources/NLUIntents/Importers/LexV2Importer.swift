import Foundation

/// Amazon Lex V2 bot export, as a `.zip` or its unzipped folder:
/// `<Bot>/BotLocales/<locale>/Intents/<Name>/Intent.json` (`name`, `sampleUtterances[].utterance`
/// with `{Slot}` placeholders), `.../Intents/<Name>/Slots/<Slot>/Slot.json` (`name`, `slotTypeName`)
/// and `.../SlotTypes/<Type>/SlotType.json` (`slotTypeValues[].sampleValue.value`, `synonyms[].value`).
enum LexV2Importer {
    struct IntentFile: Decodable {
        var name: String
        var description: String?
        var parentIntentSignature: String?
        var sampleUtterances: [SampleUtterance]?
    }
    struct SampleUtterance: Decodable { var utterance: String }
    struct SlotFile: Decodable { var name: String; var slotTypeName: String? }
    struct SlotTypeFile: Decodable {
        var name: String
        var slotTypeValues: [SlotTypeValue]?
    }
    struct SlotTypeValue: Decodable {
        var sampleValue: SampleValue
        var synonyms: [SampleValue]?
    }
    struct SampleValue: Decodable { var value: String }

    /// Whether `path` is an `Intent.json` of a bot locale.
    static func isIntentFile(_ path: String) -> Bool {
        locale(ofIntentFile: path) != nil
    }

    /// The locale folder of an intent file: `BotLocales/<locale>/Intents/<Name>/Intent.json`.
    private static func locale(ofIntentFile path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 5, parts[parts.count - 1] == "Intent.json", parts[parts.count - 3] == "Intents",
              parts[parts.count - 5] == "BotLocales" else { return nil }
        return parts[parts.count - 4]
    }

    /// The intent folder a slot file belongs to: `…/Intents/<Name>/Slots/<Slot>/Slot.json` is in
    /// `…/Intents/<Name>/` (the intent file's path without `Intent.json`).
    private static func intentFolder(ofSlotFile path: String) -> String? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 1] == "Slot.json", parts[parts.count - 3] == "Slots" else { return nil }
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/"
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        guard source.kind != .file else {
            throw IntentDatasetError.unknownFormat(file: source.name, detail: "a Lex V2 export is a .zip or a folder")
        }
        let intentFiles = source.paths.filter(isIntentFile)
        let locales = Set(intentFiles.compactMap(locale(ofIntentFile:))).sorted()
        guard !locales.isEmpty else {
            throw IntentDatasetError.missingFiles(file: source.name, expected: FormatDetector.lexV2Layout)
        }
        let chosen = try options.language.map { try LanguageChoice.requested($0, among: locales, file: source.name, holding: "the bot has locales") }
            ?? locales.first { $0 == "en_US" } ?? locales.first { $0.hasPrefix("en") } ?? locales[0]
        if locales.count > 1 {
            warnings.append(LanguageChoice.warning(file: source.name, holding: "the bot has locales", available: locales, reading: chosen))
        }
        let localeMarker = "BotLocales/\(chosen)/"
        // Slot types of the locale, by name.
        var slotTypes: [String: SlotTypeFile] = [:]
        for path in source.paths where path.contains(localeMarker + "SlotTypes/") && path.hasSuffix("/SlotType.json") {
            let type = try JSONInput.decode(SlotTypeFile.self, from: source.utf8Data(at: path, warnings: &warnings),
                                            file: source.displayName(path))
            slotTypes[type.name] = type
        }
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.language = LanguageChoice.language(of: chosen)
        assembler.entities = slotTypes.keys.sorted().compactMap { name in
            slotTypes[name].map { type in
                EntityDefinition(name: type.name, values: (type.slotTypeValues ?? []).map {
                    EntityValue($0.sampleValue.value, synonyms: ($0.synonyms ?? []).map(\.value))
                })
            }
        }
        // Slot files by intent folder, found in one pass: a scan of every path for each intent made a
        // bot of many intents quadratic.
        var slotFiles: [String: [String]] = [:]
        for path in source.paths {
            if let folder = intentFolder(ofSlotFile: path) { slotFiles[folder, default: []].append(path) }
        }
        // Slots of Amazon's built-in types (`AMAZON.Date`) are built-in entities under the slot's name.
        var builtins = BuiltinCollector(file: source.name, table: PlatformBuiltins.amazon, noun: "slot type")
        for path in intentFiles where locale(ofIntentFile: path) == chosen {
            let intent = try JSONInput.decode(IntentFile.self, from: source.utf8Data(at: path, warnings: &warnings),
                                              file: source.displayName(path))
            if intent.parentIntentSignature == "AMAZON.FallbackIntent" { continue }
            let folder = String(path.dropLast("Intent.json".count))
            var values: [String: [String]] = [:]
            for slotPath in slotFiles[folder] ?? [] {
                let slot = try JSONInput.decode(SlotFile.self, from: source.utf8Data(at: slotPath, warnings: &warnings),
                                                file: source.displayName(slotPath))
                guard let typeName = slot.slotTypeName else { continue }
                if slotTypes[typeName] == nil, typeName.lowercased().hasPrefix("amazon.") {
                    builtins.add(entity: slot.name, platformType: typeName, key: typeName.lowercased(), warnings: &warnings)
                }
                values[slot.name] = slotTypes[typeName].map { ($0.slotTypeValues ?? []).map(\.sampleValue.value) }
                    ?? PlaceholderExpander.builtInValues(forType: typeName)
            }
            var expander = PlaceholderExpander(sampleValues: values)
            try assembler.addIntent(intent.name, description: intent.description,
                                    utterances: (intent.sampleUtterances ?? []).map { expander.expand($0.utterance) })
        }
        assembler.entities += builtins.definitions
        return try assembler.dataset(warnings: &warnings)
    }
}

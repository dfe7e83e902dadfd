import Foundation

/// Google Dialogflow CX agent package (the JSON package export), as a `.zip` or its folder, the agent
/// at the root or in one folder: `agent.json` (`defaultLanguageCode`), `intents/<Name>/<Name>.json`
/// (`displayName`, `parameters[]` with `id` and `entityType`), `intents/<Name>/trainingPhrases/<lang>.json`
/// (`trainingPhrases[].parts[]`: `text`, `parameterId`), `entityTypes/<Name>/<Name>.json` (`kind`
/// KIND_MAP / KIND_LIST / KIND_REGEXP, `autoExpansionMode`) with `entityTypes/<Name>/entities/<lang>.json`
/// (`value`, `synonyms`). A part's `parameterId` resolves through the intent's parameters to its entity
/// type (`@size`, `@sys.date`); the parameter id is kept as the role when it differs. System entity
/// types become definitions with their built-in. `Default Negative Intent` phrases are counterexamples.
/// Flows, pages, webhooks and test cases are not read.
enum DialogflowCXImporter {
    struct Agent: Decodable { var defaultLanguageCode: String?; var supportedLanguageCodes: [String]? }
    struct IntentFile: Decodable {
        var displayName: String?
        var description: String?
        var parameters: [Parameter]?
    }
    struct Parameter: Decodable { var id: String; var entityType: String }
    struct PhrasesFile: Decodable { var trainingPhrases: [Phrase]? }
    struct Phrase: Decodable { var parts: [Part]? }
    struct Part: Decodable { var text: String?; var parameterId: String? }
    struct EntityTypeFile: Decodable { var displayName: String?; var kind: String?; var autoExpansionMode: String? }
    struct EntitiesFile: Decodable { var entities: [Entry]? }
    struct Entry: Decodable { var value: String; var synonyms: [String]? }

    static let negativeIntent = "Default Negative Intent"
    static let layout = "a Dialogflow CX agent (agent.json and intents/<Name>/trainingPhrases/<lang>.json)"

    /// Whether `path` is a CX training-phrase file.
    static func isPhraseFile(_ path: String) -> Bool {
        path.contains("intents/") && path.contains("/trainingPhrases/") && path.hasSuffix(".json")
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        guard source.kind != .file else {
            throw IntentDatasetError.unknownFormat(file: source.name, detail: "a Dialogflow CX agent is a .zip or a folder")
        }
        guard let agentPath = source.paths.filter({ $0 == "agent.json" || $0.hasSuffix("/agent.json") })
                .min(by: { $0.count < $1.count }) else {
            throw IntentDatasetError.missingFiles(file: source.name, expected: layout)
        }
        let root = String(agentPath.dropLast("agent.json".count))
        func decode<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
            try JSONInput.decode(type, from: source.utf8Data(at: path, warnings: &warnings), file: source.displayName(path))
        }
        let agent = try decode(Agent.self, agentPath)
        let phraseFiles = source.paths.filter { $0.hasPrefix(root + "intents/") && isPhraseFile($0) }
        let languages = Set(phraseFiles.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }).sorted()
        let chosen: String
        if let wanted = options.language {
            chosen = try LanguageChoice.requested(wanted, among: languages, file: source.name, holding: "the agent has training phrases in")
        } else {
            let fallback = agent.defaultLanguageCode ?? "en"
            chosen = languages.first { $0 == fallback } ?? languages.first { LanguageChoice.language(of: $0) == fallback }
                ?? languages.first { $0.hasPrefix("en") } ?? languages.first ?? fallback
        }
        if languages.count > 1 {
            warnings.append(LanguageChoice.warning(file: source.name, holding: "training phrases in", available: languages, reading: chosen))
        }
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.language = LanguageChoice.language(of: chosen)
        var systemTypes: [String] = []
        // intents/<Name>/<Name>.json: the definition sits beside its trainingPhrases folder.
        let definitions = source.paths.filter { path in
            guard path.hasPrefix(root + "intents/"), path.hasSuffix(".json") else { return false }
            let parts = path.dropFirst(root.count).split(separator: "/")
            return parts.count == 3 && parts[2] == "\(parts[1]).json"
        }
        var definedIn: [String: String] = [:]  // intent name → the file that defines it, for a duplicate's message
        for path in definitions {
            let intent = try decode(IntentFile.self, path)
            let folder = (path as NSString).deletingLastPathComponent
            let name = intent.displayName ?? (folder as NSString).lastPathComponent
            if name != negativeIntent, !assembler.isOutOfScope(name), let first = definedIn.updateValue(path, forKey: name) {
                throw IntentDatasetError.duplicateIntent(file: "\(source.displayName(first)) and \(source.displayName(path))", name: name)
            }
            let types = Dictionary((intent.parameters ?? []).map { ($0.id, $0.entityType) }, uniquingKeysWith: { first, _ in first })
            var utterances: [Utterance] = []
            let phrasesPath = "\(folder)/trainingPhrases/\(chosen).json"
            if source.contains(phrasesPath) {
                for (index, phrase) in (try decode(PhrasesFile.self, phrasesPath).trainingPhrases ?? []).enumerated() {
                    var builder = UtteranceBuilder()
                    for part in phrase.parts ?? [] {
                        let text = part.text ?? ""
                        guard let id = part.parameterId else { builder.append(text); continue }
                        guard let type = types[id] else {
                            warnings.append("\(source.displayName(phrasesPath)): trainingPhrases[\(index)]: parameter '\(id)' is not among the intent's parameters; read as plain text")
                            builder.append(text)
                            continue
                        }
                        let entity = String(type.drop { $0 == "@" })
                        if entity.hasPrefix("sys."), !systemTypes.contains(entity) { systemTypes.append(entity) }
                        builder.append(text, entity: entity, value: text, role: id == entity ? nil : id)
                    }
                    if !builder.text.allSatisfy(\.isWhitespace) { utterances.append(builder.utterance) }
                }
            }
            if name == negativeIntent {
                utterances.forEach { assembler.addCounterexample($0) }
            } else {
                try assembler.addIntent(name, description: intent.description, utterances: utterances)
            }
        }
        assembler.entities = try entityTypes(source, root: root, language: chosen, warnings: &warnings)
        for name in systemTypes {
            if let builtin = PlatformBuiltins.dialogflow[name] {
                assembler.entities.append(EntityDefinition(name: name, builtin: builtin))
            } else {
                warnings.append("\(source.name): system entity @\(name) has no NLUKit built-in; its annotations are kept")
            }
        }
        return try assembler.dataset(warnings: &warnings)
    }

    private static func entityTypes(_ source: ImportSource, root: String, language: String,
                                    warnings: inout [String]) throws -> [EntityDefinition] {
        var result: [EntityDefinition] = []
        for path in source.paths where path.hasPrefix(root + "entityTypes/") && path.hasSuffix(".json") {
            let parts = path.dropFirst(root.count).split(separator: "/")
            guard parts.count == 3, parts[2] == "\(parts[1]).json" else { continue }
            let type = try JSONInput.decode(EntityTypeFile.self, from: source.utf8Data(at: path, warnings: &warnings),
                                            file: source.displayName(path))
            let folder = (path as NSString).deletingLastPathComponent
            let name = type.displayName ?? String(parts[1])
            let entriesPath = "\(folder)/entities/\(language).json"
            var entries: [Entry] = []
            if source.contains(entriesPath) {
                let data = try source.utf8Data(at: entriesPath, warnings: &warnings)
                entries = try JSONInput.decode(EntitiesFile.self, from: data, file: source.displayName(entriesPath)).entities ?? []
            }
            let extensible = type.autoExpansionMode == "AUTO_EXPANSION_MODE_DEFAULT"
            switch type.kind ?? "KIND_MAP" {
            case "KIND_MAP":
                // CX lists the value among its own synonyms; the dataset keeps only the others.
                result.append(EntityDefinition(name: name, values: entries.map { entry in
                    EntityValue(entry.value, synonyms: (entry.synonyms ?? []).filter { !$0.isEmpty && $0 != entry.value })
                }, extensible: extensible))
            case "KIND_LIST":
                // A list entity's values are their own synonyms.
                result.append(EntityDefinition(name: name, values: entries.map { EntityValue($0.value) }, extensible: extensible))
            case "KIND_REGEXP":
                result.append(EntityDefinition(name: name, values: entries.enumerated().map { index, entry in
                    EntityValue("\(name)_\(index + 1)", patterns: [entry.value])
                }))
            default:
                warnings.append("\(source.displayName(path)): entity type '\(name)' has unknown kind '\(type.kind ?? "")'; read as a map")
                result.append(EntityDefinition(name: name, values: entries.map { EntityValue($0.value, synonyms: $0.synonyms ?? []) }))
            }
        }
        return result
    }
}

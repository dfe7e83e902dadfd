import Foundation

/// Google Dialogflow ES agent export, as a `.zip` or its unzipped folder: `agent.json` (`language`),
/// `intents/<Name>.json` (`name`, `fallbackIntent`) with `intents/<Name>_usersays_<lang>.json`
/// (`[{"data": [{"text": ...}, {"text": ..., "alias": ..., "meta": "@entity"}]}]`: the parts join into
/// the utterance, parts with `alias`/`meta` become annotations), and `entities/<Name>.json` with
/// `entities/<Name>_entries_<lang>.json` (`value`, `synonyms`). A fallback intent's phrases are
/// counterexamples; a parameter of a system entity type (`@sys.date`) is a built-in entity.
enum DialogflowImporter {
    struct Agent: Decodable { var language: String? }
    struct IntentFile: Decodable {
        var name: String?
        var fallbackIntent: Bool?
    }
    struct Phrase: Decodable { var data: [Part] }
    struct Part: Decodable {
        var text: String
        var alias: String?
        var meta: String?
    }
    struct Entry: Decodable { var value: String; var synonyms: [String]? }

    /// Whether `path` is the agent's `agent.json` or a training-phrase file.
    static func isAgentFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name == "agent.json" || (path.contains("intents/") && name.contains("_usersays_"))
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        guard source.kind != .file else {
            throw IntentDatasetError.unknownFormat(file: source.name, detail: "a Dialogflow agent is a .zip or a folder")
        }
        // The agent may sit at the root of the archive or in one folder.
        guard let agentPath = source.paths.filter({ $0 == "agent.json" || $0.hasSuffix("/agent.json") })
                .min(by: { $0.count < $1.count }) else {
            throw IntentDatasetError.missingFiles(file: source.name, expected: FormatDetector.dialogflowLayout)
        }
        let root = String(agentPath.dropLast("agent.json".count))
        let agent = try JSONInput.decode(Agent.self, from: source.utf8Data(at: agentPath, warnings: &warnings),
                                         file: source.displayName(agentPath))
        let phraseFiles = source.paths.filter { $0.hasPrefix(root + "intents/") && $0.contains("_usersays_") && $0.hasSuffix(".json") }
        guard !phraseFiles.isEmpty else {
            throw IntentDatasetError.missingFiles(file: source.name, expected: "\(root)intents/<Name>_usersays_<lang>.json training phrases")
        }
        let languages = Set(phraseFiles.compactMap { language(of: $0, marker: "_usersays_") }).sorted()
        let chosen: String
        if let wanted = options.language {
            chosen = try LanguageChoice.requested(wanted, among: languages, file: source.name, holding: "the agent has training phrases in")
        } else {
            let fallback = agent.language ?? "en"
            chosen = languages.first { $0 == fallback } ?? languages.first { $0.hasPrefix("en") } ?? languages[0]
        }
        if languages.count > 1 {
            warnings.append(LanguageChoice.warning(file: source.name, holding: "training phrases in", available: languages, reading: chosen))
        }
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.language = chosen
        let suffix = "_usersays_\(chosen).json"
        var builtins = BuiltinCollector(file: source.name, table: PlatformBuiltins.dialogflow, noun: "system entity")
        for definitionPath in source.paths where definitionPath.hasPrefix(root + "intents/")
            && definitionPath.hasSuffix(".json") && !definitionPath.contains("_usersays_") {
            let definition = try JSONInput.decode(IntentFile.self, from: source.utf8Data(at: definitionPath, warnings: &warnings),
                                                  file: source.displayName(definitionPath))
            let base = String(definitionPath.dropLast(".json".count))
            let name = definition.name ?? String(base.split(separator: "/").last ?? "")
            var utterances: [Utterance] = []
            let phrasesPath = base + suffix
            if source.contains(phrasesPath) {
                let phrases = try JSONInput.decode([Phrase].self, from: source.utf8Data(at: phrasesPath, warnings: &warnings),
                                                   file: source.displayName(phrasesPath))
                utterances = phrases.map(utterance)
                // A part annotated with a system entity (`"meta": "@sys.date"`) is a built-in under its parameter name.
                for part in phrases.flatMap(\.data) {
                    guard let meta = part.meta, meta.hasPrefix("@sys."), let entity = entityName(part) else { continue }
                    builtins.add(entity: entity, platformType: String(meta.dropFirst()), warnings: &warnings)
                }
            }
            if definition.fallbackIntent == true {
                utterances.forEach { assembler.addCounterexample($0) }
            } else {
                try assembler.addIntent(name, utterances: utterances)
            }
        }
        let entrySuffix = "_entries_\(chosen).json"
        for path in source.paths where path.hasPrefix(root + "entities/") && path.hasSuffix(entrySuffix) {
            let entries = try JSONInput.decode([Entry].self, from: source.utf8Data(at: path, warnings: &warnings),
                                               file: source.displayName(path))
            let name = String(path.dropLast(entrySuffix.count).split(separator: "/").last ?? "")
            assembler.entities.append(EntityDefinition(name: name, values: entries.map {
                EntityValue($0.value, synonyms: ($0.synonyms ?? []).filter { !$0.isEmpty })
            }))
        }
        assembler.entities += builtins.definitions
        return try assembler.dataset(warnings: &warnings)
    }

    /// The entity a part annotates: its parameter name (`alias`), else its entity type without the `@`.
    private static func entityName(_ part: Part) -> String? {
        guard let entity = part.alias ?? part.meta.map({ String($0.drop { $0 == "@" }) }), !entity.isEmpty else { return nil }
        return entity
    }

    private static func utterance(_ phrase: Phrase) -> Utterance {
        var builder = UtteranceBuilder()
        for part in phrase.data {
            if let entity = entityName(part) {
                builder.append(part.text, entity: entity, value: part.text)
            } else {
                builder.append(part.text)
            }
        }
        return builder.utterance
    }

    private static func language(of path: String, marker: String) -> String? {
        guard let range = path.range(of: marker, options: .backwards), path.hasSuffix(".json") else { return nil }
        return String(path[range.upperBound...].dropLast(".json".count))
    }
}

import Foundation
import Yams

/// snips-nlu's own dataset format: the JSON `snips-nlu generate-dataset` writes (`language`,
/// `intents.<name>.utterances[].data[]` parts with `entity` and `slot_name`, `entities.<name>` with
/// `data[]` values and synonyms, `automatically_extensible`, and `snips/*` built-ins), and the YAML
/// it reads (documents of `type: intent` with `slots` and `utterances` written `[slot](text)`, and
/// `type: entity` with `values`, a list being a value and its synonyms). A mention's entity is the
/// slot's entity type; the slot name is kept as the role when it differs.
enum SnipsNLUImporter {
    struct Dataset: Decodable {
        var language: String?
        var intents: [String: JSONIntent]
        var entities: [String: JSONEntity]?
    }
    struct JSONIntent: Decodable { var utterances: [JSONUtterance]? }
    struct JSONUtterance: Decodable { var data: [Part] }
    struct Part: Decodable { var text: String; var entity: String?; var slot_name: String? }
    struct JSONEntity: Decodable {
        var data: [Value]?
        var automatically_extensible: Bool?
    }
    struct Value: Decodable { var value: String; var synonyms: [String]? }

    /// Whether `root` is a snips-nlu JSON dataset.
    static func isDataset(_ root: [String: Any]) -> Bool {
        root["intents"] is [String: Any] && (root["entities"] is [String: Any] || root["language"] is String)
    }

    /// Whether YAML `text` is a snips-nlu dataset (documents with `type: intent` or `type: entity`).
    static func isYAMLDataset(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { $0 == "type: intent" || $0 == "type: entity" }
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let text = try source.singleFileText(.snipsNLU, warnings: &warnings)
        if text.drop(while: \.isWhitespace).first == "{" {
            return try readJSON(Data(text.utf8), file: source.name, options: options, warnings: &warnings)
        }
        return try readYAML(text, file: source.name, options: options, warnings: &warnings)
    }

    private static func readJSON(_ data: Data, file: String, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let dataset = try JSONInput.decode(Dataset.self, from: data, file: file)
        var assembler = DatasetAssembler(file: file, options: options, mergesDuplicates: false)
        assembler.language = dataset.language
        for name in dataset.intents.keys.sorted() {
            let utterances = (dataset.intents[name]?.utterances ?? []).map { utterance -> Utterance in
                var builder = UtteranceBuilder()
                for part in utterance.data {
                    if let entity = part.entity {
                        let slot = part.slot_name
                        builder.append(part.text, entity: entity, value: part.text, role: slot == entity ? nil : slot)
                    } else {
                        builder.append(part.text)
                    }
                }
                return builder.utterance
            }
            try assembler.addIntent(name, utterances: utterances)
        }
        for name in (dataset.entities ?? [:]).keys.sorted() {
            guard let entity = dataset.entities?[name] else { continue }
            if let definition = builtin(name, file: file, warnings: &warnings) {
                assembler.entities.append(definition)
                continue
            }
            if name.hasPrefix("snips/") { continue }
            assembler.entities.append(EntityDefinition(name: name, values: (entity.data ?? []).map {
                EntityValue($0.value, synonyms: ($0.synonyms ?? []).filter { !$0.isEmpty })
            }, extensible: entity.automatically_extensible ?? true))
        }
        return try assembler.dataset(warnings: &warnings)
    }

    private static func builtin(_ name: String, file: String, warnings: inout [String]) -> EntityDefinition? {
        guard name.hasPrefix("snips/") else { return nil }
        guard let builtin = PlatformBuiltins.snips[name] else {
            warnings.append("\(file): built-in entity \(name) has no NLUKit counterpart; skipped")
            return nil
        }
        return EntityDefinition(name: name, builtin: builtin)
    }

    private static func readYAML(_ text: String, file: String, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        try NestingLimits.checkYAML(text, file: file)
        var documents: [Node] = []
        do {
            // Document by document through the parser: `Yams.compose_all`'s sequence keeps a syntax
            // error to itself and just ends, so a file broken in its first intent read as "no intents".
            let parser = try Parser(yaml: text)
            while let document = try parser.nextRoot() { documents.append(document) }
        } catch {
            throw IntentDatasetError.malformedYAML(file: file, detail: YAMLSyntaxProblem.describe(error))
        }
        var assembler = DatasetAssembler(file: file, options: options, mergesDuplicates: true)
        var entityNames = Set<String>()
        for (index, node) in documents.enumerated() {
            let place = "\(file): document \(index + 1)"
            guard let mapping = node.any as? [String: Any], let type = mapping["type"] as? String,
                  let name = (mapping["name"] as? String) ?? (mapping["name"] as? Int).map(String.init) else {
                warnings.append("\(file): document \(index + 1) has no 'type' and 'name'; skipped")
                continue
            }
            switch type {
            case "intent":
                var slots: [String: String] = [:]
                for slot in mapping["slots"] as? [[String: Any]] ?? [] {
                    if let slotName = slot["name"] as? String, let entity = slot["entity"] as? String { slots[slotName] = entity }
                }
                let lines = (node["utterances"]?.sequence.map(Array.init) ?? []).enumerated().compactMap { position, item in
                    YAMLText.item(item, at: "\(place) (intent '\(name)'): utterances[\(position)]", warnings: &warnings)
                }
                for line in lines {
                    assembler.add(utterance(line, slots: slots, file: file, intent: name, warnings: &warnings), to: name)
                }
                if lines.isEmpty { try assembler.addIntent(name, utterances: []) }
            case "entity":
                entityNames.insert(name)
                var values: [EntityValue] = []
                for (position, value) in (node["values"]?.sequence.map(Array.init) ?? []).enumerated() {
                    let at = "\(place) (entity '\(name)'): values[\(position)]"
                    let words = value.sequence.map { list in
                        list.enumerated().compactMap { YAMLText.item($1, at: "\(at)[\($0)]", warnings: &warnings) }
                    } ?? [YAMLText.item(value, at: at, warnings: &warnings)].compactMap { $0 }
                    if let first = words.first { values.append(EntityValue(first, synonyms: Array(words.dropFirst()))) }
                }
                let extensible = (mapping["automatically_extensible"] as? Bool) ?? true
                assembler.entities.append(EntityDefinition(name: name, values: values, extensible: extensible))
            default:
                warnings.append("\(file): document \(index + 1) has type '\(type)' (expected intent or entity); skipped")
            }
        }
        return try assembler.dataset(warnings: &warnings)
    }

    /// `Turn on the [room](kitchen) lights`: `[slot](text)`, the slot's entity from the intent's
    /// `slots` (the slot name itself when undeclared); `[slot]` alone keeps the slot name as text.
    /// Time is linear in the line however much markup is unclosed (``MarkupClosers``): each `(`
    /// looking for its `)` to the end of the line made `[x](` repeated quadratic.
    private static func utterance(_ line: String, slots: [String: String], file: String, intent: String,
                                  warnings: inout [String]) -> Utterance {
        let characters = Array(line)
        var closers = MarkupClosers(characters)
        var builder = UtteranceBuilder()
        var position = 0   // the first character not appended yet
        while let open = characters[position...].firstIndex(of: "["), let close = characters[open...].firstIndex(of: "]") {
            builder.append(String(characters[position..<open]))
            let slot = String(characters[(open + 1)..<close])
            let after = close + 1
            if after < characters.count, characters[after] == "(", let end = closers.closing(of: after) {
                let text = String(characters[(after + 1)..<end])
                let entity = slots[slot] ?? slot
                if slots[slot] == nil, !slots.isEmpty {
                    warnings.append("\(file): intent '\(intent)': slot '\(slot)' is not declared in its slots; read as entity '\(slot)'")
                }
                builder.append(text, entity: entity, value: text, role: entity == slot ? nil : slot)
                position = end + 1
            } else {
                builder.append(slot)
                position = after
            }
        }
        builder.append(String(characters[position...]))
        return builder.utterance
    }
}

import Foundation

/// Legacy Rasa NLU JSON: `rasa_nlu_data.common_examples[]` (`text`, `intent`, `entities[]` with
/// `start`, exclusive `end`, `entity`, `value`, `role`), `entity_synonyms[]`, `regex_features[]`
/// and `lookup_tables[]`.
enum RasaJSONImporter {
    struct File: Decodable {
        var rasa_nlu_data: Data_
    }
    struct Data_: Decodable {
        var common_examples: [Example]?
        var entity_synonyms: [Synonym]?
        var regex_features: [Regex]?
        var lookup_tables: [Lookup]?
    }
    struct Example: Decodable {
        var text: String
        var intent: String?
        var entities: [Entity]?
    }
    struct Entity: Decodable {
        var start: Int
        var end: Int
        var entity: String
        var value: String?
        var role: String?
    }
    struct Synonym: Decodable { var value: String; var synonyms: [String] }
    struct Regex: Decodable { var name: String; var pattern: String }
    struct Lookup: Decodable {
        var name: String
        var elements: [String]?
        /// Rasa 1.x: `elements` may be the path of a text file of values.
        var file: String?

        enum CodingKeys: String, CodingKey { case name, elements }
        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            if let path = try? container.decode(String.self, forKey: .elements) { file = path } else {
                elements = try container.decodeIfPresent([String].self, forKey: .elements)
            }
        }
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let data = try source.singleFileData(.rasaJSON, warnings: &warnings)
        let file = try JSONInput.decode(File.self, from: data, file: source.name).rasa_nlu_data
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: true)
        var unlabelled = 0
        for (index, example) in (file.common_examples ?? []).enumerated() {
            let length = example.text.unicodeScalars.count
            let utterance = Utterance(example.text, entities: (example.entities ?? []).compactMap {
                // Offsets outside the text (hand-edited files): drop the annotation, keep the example.
                guard $0.start >= 0, $0.start < $0.end, $0.end <= length else {
                    warnings.append("\(source.name): common_examples[\(index)]: entity '\($0.entity)' at \($0.start)..<\($0.end) is outside the text (\(length) characters); annotation dropped")
                    return nil
                }
                return EntityAnnotation(start: $0.start, end: $0.end, entity: $0.entity, value: $0.value, role: $0.role)
            })
            guard let intent = example.intent, !intent.isEmpty else { unlabelled += 1; continue }
            assembler.add(utterance, to: intent)
        }
        if unlabelled > 0 { warnings.append("\(source.name): skipped \(unlabelled) example(s) without an intent") }
        if let synonyms = file.entity_synonyms, !synonyms.isEmpty {
            assembler.entities.append(EntityDefinition(name: "synonyms", values: synonyms.map { EntityValue($0.value, synonyms: $0.synonyms) }))
        }
        for regex in file.regex_features ?? [] {
            assembler.entities.append(EntityDefinition(name: regex.name, values: [EntityValue(regex.name, patterns: [regex.pattern])]))
        }
        for (index, lookup) in (file.lookup_tables ?? []).enumerated() {
            var elements = lookup.elements ?? []
            if let path = lookup.file {
                guard let values = try LookupFiles.values(path, from: source.name, at: "\(source.name): lookup_tables[\(index)].elements",
                                                          in: source.exportFolder, warnings: &warnings) else { continue }
                elements = values
            }
            assembler.entities.append(EntityDefinition(name: lookup.name, values: elements.map { EntityValue($0) }))
        }
        return try assembler.dataset(warnings: &warnings)
    }
}

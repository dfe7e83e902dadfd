import Foundation
import Yams

/// Rasa NLU training data in YAML (Rasa 2 and 3): `nlu:` holds items `- intent: name` with
/// `examples: |` (one `- example` per line, with `[text](entity)` / `[text]{"entity": ...}` markup),
/// and `- synonym:`, `- lookup:`, `- regex:` items that become entity dictionaries. Stories, rules
/// and responses are ignored.
enum RasaYAMLImporter {
    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        if source.kind == .folder { return try RasaProjectImporter.read(source, options: options, warnings: &warnings) }
        let text = try source.singleFileText(.rasaYAML, warnings: &warnings)
        try NestingLimits.checkYAML(text, file: source.name)
        // Read as nodes, so that names and examples are the text written (``YAMLText``).
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch {
            throw IntentDatasetError.malformedYAML(file: source.name, detail: YAMLSyntaxProblem.describe(error))
        }
        guard let document = root?.mapping else {
            throw IntentDatasetError.malformedYAML(file: source.name, detail: "the top level is not a mapping with an 'nlu' key")
        }
        guard let items = document["nlu"]?.sequence else {
            throw IntentDatasetError.malformedYAML(file: source.name, detail: "expected a list under the top-level key 'nlu'")
        }
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: true)
        var synonyms: [EntityValue] = []
        for (index, item) in items.enumerated() {
            guard let entry = item.mapping else {
                throw IntentDatasetError.malformedYAML(file: source.name, detail: "nlu[\(index)] is not a mapping")
            }
            let examples = try exampleLines(entry["examples"], file: source.name, index: index, warnings: &warnings)
            if let intent = YAMLText.scalar(entry["intent"]) {
                if examples.isEmpty { warnings.append("\(source.name): nlu[\(index)]: intent '\(intent)' has no examples") }
                for example in examples {
                    let place = "\(source.name): \(example.line.map { "line \($0)" } ?? "nlu[\(index)]")"
                    assembler.add(RasaAnnotationParser.parse(example.text, at: place, warnings: &warnings), to: intent)
                }
            } else if let synonym = YAMLText.scalar(entry["synonym"]) {
                synonyms.append(EntityValue(synonym, synonyms: examples.map(\.text)))
            } else if let lookup = YAMLText.scalar(entry["lookup"]) {
                assembler.entities.append(EntityDefinition(name: lookup, values: examples.map { EntityValue($0.text) }))
            } else if let regex = YAMLText.scalar(entry["regex"]) {
                assembler.entities.append(EntityDefinition(name: regex, values: [EntityValue(regex, patterns: examples.map(\.text))]))
            }
        }
        if !synonyms.isEmpty { assembler.entities.append(EntityDefinition(name: "synonyms", values: synonyms)) }
        return try assembler.dataset(warnings: &warnings)
    }

    /// The `- example` lines of an `examples: |` block (a list of texts, or of mappings with `text`, is
    /// accepted too; an item that is neither is skipped with a warning naming it), each with its line
    /// in the file when known (a literal block's lines follow its `|`; a list item has its own).
    private static func exampleLines(_ value: Node?, file: String, index: Int,
                                     warnings: inout [String]) throws -> [(text: String, line: Int?)] {
        switch value {
        case nil: return []
        case let .scalar(block)?:
            let firstLine = block.style == .literal ? block.mark.map { $0.line + 1 } : nil
            // Empty lines kept, so that each line's offset in the block is its offset in the file.
            let lines = block.string.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            return lines.enumerated().compactMap { offset, line in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("-") else { return nil }
                return (trimmed.dropFirst().trimmingCharacters(in: .whitespaces), firstLine.map { $0 + offset } ?? block.mark?.line)
            }
        case let .sequence(list)?:
            return list.enumerated().compactMap { position, item in
                let text = YAMLText.scalar(item.mapping?["text"])
                    ?? YAMLText.item(item, at: "\(file): nlu[\(index)].examples[\(position)]", warnings: &warnings)
                return text.map { ($0, item.mark?.line) }
            }
        default:
            throw IntentDatasetError.malformedYAML(file: file, detail: "nlu[\(index)].examples is neither a block of '- example' lines nor a list")
        }
    }
}

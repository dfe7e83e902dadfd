import Foundation

/// Legacy Rasa NLU Markdown: `## intent:name` headings followed by `- example` lines (with
/// `[text](entity)` markup), and `## synonym:value`, `## lookup:name`, `## regex:name` sections; a
/// lookup section may name a text file of values instead (Rasa 1.x, see ``LookupFiles``).
enum RasaMarkdownImporter {
    private enum Section { case none, intent(String), synonym(String), lookup(String), regex(String) }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let text = try source.singleFileText(.rasaMarkdown, warnings: &warnings)
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: true)
        var section = Section.none
        var synonyms: [EntityValue] = []
        var lookups: [(String, [String])] = []
        var regexes: [(String, [String])] = []
        // Split on every line break: "\r\n" is one Character, so splitting on "\n" would miss Windows files.
        for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("<!--") { continue }
            if line.hasPrefix("##") {
                let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                let parts = heading.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[1].isEmpty else {
                    throw IntentDatasetError.malformedMarkdown(file: source.name, line: number + 1,
                                                               detail: "expected a heading '## intent:name' (or synonym:, lookup:, regex:), found '\(line)'")
                }
                switch parts[0] {
                case "intent": section = .intent(parts[1])
                case "synonym": section = .synonym(parts[1]); synonyms.append(EntityValue(parts[1]))
                case "lookup": section = .lookup(parts[1]); lookups.append((parts[1], []))
                case "regex": section = .regex(parts[1]); regexes.append((parts[1], []))
                default:
                    throw IntentDatasetError.malformedMarkdown(file: source.name, line: number + 1,
                                                               detail: "unknown section type '\(parts[0])' (expected intent, synonym, lookup or regex)")
                }
                continue
            }
            if case .lookup = section, LookupFiles.isReference(line) {
                // Rasa 1.x: `## lookup:name` followed by the path of a text file of values.
                if let values = try LookupFiles.values(line, from: source.name, at: "\(source.name): line \(number + 1)", in: source.exportFolder,
                                                       warnings: &warnings) {
                    lookups[lookups.count - 1].1 += values
                }
                continue
            }
            guard line.hasPrefix("-") || line.hasPrefix("*") else {
                throw IntentDatasetError.malformedMarkdown(file: source.name, line: number + 1, detail: "expected '- example', found '\(line)'")
            }
            let item = line.dropFirst().trimmingCharacters(in: .whitespaces)
            switch section {
            case .none:
                throw IntentDatasetError.malformedMarkdown(file: source.name, line: number + 1, detail: "example before any '## intent:name' heading")
            case .intent(let name):
                assembler.add(RasaAnnotationParser.parse(item, at: "\(source.name): line \(number + 1)", warnings: &warnings), to: name)
            case .synonym: synonyms[synonyms.count - 1].synonyms.append(item)
            case .lookup: lookups[lookups.count - 1].1.append(item)
            case .regex: regexes[regexes.count - 1].1.append(item)
            }
        }
        if !synonyms.isEmpty { assembler.entities.append(EntityDefinition(name: "synonyms", values: synonyms)) }
        for (name, values) in lookups where !values.isEmpty { assembler.entities.append(EntityDefinition(name: name, values: values.map { EntityValue($0) })) }
        for (name, patterns) in regexes { assembler.entities.append(EntityDefinition(name: name, values: [EntityValue(name, patterns: patterns)])) }
        return try assembler.dataset(warnings: &warnings)
    }
}

import Foundation

/// IBM Watson Assistant (formerly Conversation) workspace JSON: `intents[].intent`,
/// `intents[].examples[].text` with optional `mentions[]` (`entity`, `location` = [start, end) in
/// UTF-16 units), `counterexamples[].text`, `entities[].values[]` (synonyms or patterns).
/// System entities (`sys-number`, `sys-date`...) become built-ins (``PlatformBuiltins/watson``).
/// `dialog_nodes` are NLUDialogue's (`WatsonDialogueImporter`), not a dataset's, and the rest is ignored;
/// a UTF-8 byte-order mark is tolerated.
enum WatsonAssistantImporter {
    struct Workspace: Decodable {
        var language: String?
        var intents: [WatsonIntent]?
        var entities: [WatsonEntity]?
        var counterexamples: [Example]?
    }
    struct WatsonIntent: Decodable {
        var intent: String
        var description: String?
        var examples: [Example]?
    }
    struct Example: Decodable {
        var text: String
        var mentions: [Mention]?
    }
    struct Mention: Decodable {
        var entity: String
        var location: [Int]
    }
    struct WatsonEntity: Decodable {
        var entity: String
        var values: [Value]?
    }
    struct Value: Decodable {
        var value: String
        var synonyms: [String]?
        var patterns: [String]?
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let data = try source.singleFileData(.watson, warnings: &warnings)
        let workspace = try JSONInput.decode(Workspace.self, from: data, file: source.name)
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.language = workspace.language
        for (index, intent) in (workspace.intents ?? []).enumerated() {
            try assembler.addIntent(intent.intent, description: intent.description,
                                    utterances: utterances(intent.examples, path: "intents[\(index)].examples", file: source.name, warnings: &warnings))
        }
        for utterance in utterances(workspace.counterexamples, path: "counterexamples", file: source.name, warnings: &warnings) {
            assembler.addCounterexample(utterance)
        }
        // System entities are listed as entities named `sys-*` without values; those NLUKit recognizes are built-ins.
        var builtins = BuiltinCollector(file: source.name, table: PlatformBuiltins.watson, noun: "system entity")
        assembler.entities = (workspace.entities ?? []).compactMap { entity in
            if entity.entity.hasPrefix("sys-"), builtins.add(entity: entity.entity, platformType: entity.entity, warnings: &warnings) {
                return nil
            }
            return EntityDefinition(name: entity.entity, values: (entity.values ?? []).map {
                EntityValue($0.value, synonyms: $0.synonyms ?? [], patterns: $0.patterns ?? [])
            })
        }
        assembler.entities += builtins.definitions
        return try assembler.dataset(warnings: &warnings)
    }

    /// The utterances of `examples` (at JSON path `path`), with their mentions.
    static func utterances(_ examples: [Example]?, path: String, file: String, warnings: inout [String]) -> [Utterance] {
        (examples ?? []).enumerated().map { index, example in
            utterance(example, path: "\(path)[\(index)]", file: file, warnings: &warnings)
        }
    }

    /// The example with its mentions; a `location` that is not `[start, end]` with
    /// 0 ≤ start < end ≤ the text's length in UTF-16 units, on character boundaries, is dropped with
    /// a warning naming the mention's JSON path (as CLU's importer does for its spans).
    static func utterance(_ example: Example, path: String, file: String, warnings: inout [String]) -> Utterance {
        let text = example.text
        guard let mentions = example.mentions, !mentions.isEmpty else { return Utterance(text) }
        let scalars = Array(text.unicodeScalars)
        let offsets = ScalarOffsets(text, unit: .utf16)
        var annotations: [EntityAnnotation] = []
        for (index, mention) in mentions.enumerated() {
            let location = mention.location
            guard location.count == 2, location[0] >= 0, location[0] < location[1],
                  let start = offsets.scalarOffset(exactly: location[0]), let end = offsets.scalarOffset(exactly: location[1]) else {
                let shown = "[\(location.map(String.init).joined(separator: ", "))]"
                let problem = location.count != 2 ? "is not [start, end]"
                    : "is outside the text (\(offsets.length) UTF-16 units), empty or splits a character"
                warnings.append("\(file): \(path).mentions[\(index)]: '\(mention.entity)' location \(shown) \(problem); annotation dropped")
                continue
            }
            var value = String.UnicodeScalarView()
            value.append(contentsOf: scalars[start..<end])
            annotations.append(EntityAnnotation(start: start, end: end, entity: mention.entity, value: String(value)))
        }
        return Utterance(text, entities: annotations)
    }
}

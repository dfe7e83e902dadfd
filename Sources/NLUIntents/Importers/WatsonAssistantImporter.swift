import Foundation

/// IBM Watson Assistant (formerly Conversation) workspace JSON: `intents[].intent`,
/// `intents[].examples[].text` with optional `mentions[]` (`entity`, `location` = [start, end) in
/// UTF-16 units), `counterexamples[].text`, `entities[].values[]` (synonyms or patterns).
/// System entities (`sys-number`, `sys-date`...) become built-ins (``PlatformBuiltins/watson``).
/// `dialog_nodes` and the rest are ignored; a UTF-8 byte-order mark is tolerated.
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
        for intent in workspace.intents ?? [] {
            try assembler.addIntent(intent.intent, description: intent.description,
                                    utterances: (intent.examples ?? []).map(utterance))
        }
        for example in workspace.counterexamples ?? [] { assembler.addCounterexample(utterance(example)) }
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

    static func utterance(_ example: Example) -> Utterance {
        let text = example.text
        guard let mentions = example.mentions, !mentions.isEmpty else { return Utterance(text) }
        let scalars = Array(text.unicodeScalars)
        let offsets = ScalarOffsets(text, unit: .utf16)  // one walk for all of the example's mentions
        let annotations = mentions.compactMap { mention -> EntityAnnotation? in
            guard mention.location.count == 2 else { return nil }
            let start = offsets.scalarOffset(roundingUp: mention.location[0])
            let end = offsets.scalarOffset(roundingUp: mention.location[1])
            guard start < end else { return nil }
            var value = String.UnicodeScalarView()
            value.append(contentsOf: scalars[start..<end])
            return EntityAnnotation(start: start, end: end, entity: mention.entity, value: String(value))
        }
        return Utterance(text, entities: annotations)
    }
}

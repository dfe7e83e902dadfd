import Foundation

/// IBM watsonx Assistant actions skill export (the "new experience"): a skill JSON whose `workspace`
/// (or the document itself) holds `actions`, `intents`, `entities`, `counterexamples`, `variables`
/// and `collections`. An action triggered by an intent of its own (`condition.intent`, named like
/// `action_123_intent_456`) gives that intent the action's `title`; named intents keep their name.
/// Entities keep values, synonyms and patterns; `sys-*` entities become built-ins. Steps, variables,
/// collections (folders of actions) and system settings hold no training data and are not read.
enum WatsonxActionsImporter {
    struct Skill: Decodable {
        var language: String?
        var workspace: Workspace?
    }
    struct Workspace: Decodable {
        var language: String?
        var actions: [Action]?
        var intents: [WatsonAssistantImporter.WatsonIntent]?
        var entities: [WatsonAssistantImporter.WatsonEntity]?
        var counterexamples: [WatsonAssistantImporter.Example]?
    }
    struct Action: Decodable {
        var action: String
        var title: String?
        var condition: Condition?
    }
    struct Condition: Decodable { var intent: String? }

    /// Whether `root` is an actions skill (or its workspace).
    static func isActionsSkill(_ root: [String: Any]) -> Bool {
        let workspace = (root["workspace"] as? [String: Any]) ?? root
        return workspace["actions"] is [Any] && (workspace["intents"] != nil || root["type"] as? String == "action")
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let data = try source.singleFileData(.watsonxActions, warnings: &warnings)
        let skill = try JSONInput.decode(Skill.self, from: data, file: source.name)
        let workspace: Workspace
        if let nested = skill.workspace { workspace = nested } else {
            workspace = try JSONInput.decode(Workspace.self, from: data, file: source.name)
        }
        // The intent an action owns takes the action's title (titles clash rarely; keep ids then).
        var titles: [String: String] = [:]
        var used = Set((workspace.intents ?? []).map(\.intent))
        for action in workspace.actions ?? [] {
            guard let intent = action.condition?.intent, intent.hasPrefix("action_"),
                  let title = action.title?.trimmingCharacters(in: .whitespaces), !title.isEmpty else { continue }
            if used.insert(title).inserted { titles[intent] = title } else {
                warnings.append("\(source.name): action '\(action.action)' title '\(title)' names another intent too; its intent keeps the id \(intent)")
            }
        }
        let triggered = Set((workspace.actions ?? []).compactMap { $0.condition?.intent })
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        assembler.language = workspace.language ?? skill.language
        // Warnings name JSON paths from the document's root.
        let root = skill.workspace == nil ? "" : "workspace."
        for (index, intent) in (workspace.intents ?? []).enumerated() {
            if intent.intent.hasPrefix("action_"), !triggered.contains(intent.intent) {
                warnings.append("\(source.name): intent \(intent.intent) belongs to no action; kept under its id")
            }
            let utterances = WatsonAssistantImporter.utterances(intent.examples, path: "\(root)intents[\(index)].examples",
                                                                file: source.name, warnings: &warnings)
            try assembler.addIntent(titles[intent.intent] ?? intent.intent, description: intent.description, utterances: utterances)
        }
        for utterance in WatsonAssistantImporter.utterances(workspace.counterexamples, path: "\(root)counterexamples",
                                                            file: source.name, warnings: &warnings) {
            assembler.addCounterexample(utterance)
        }
        assembler.entities = (workspace.entities ?? []).compactMap { entity in
            if entity.entity.hasPrefix("sys-") {
                guard let builtin = PlatformBuiltins.watson[entity.entity] else {
                    warnings.append("\(source.name): system entity \(entity.entity) has no NLUKit built-in; skipped")
                    return nil
                }
                return EntityDefinition(name: entity.entity, builtin: builtin)
            }
            return EntityDefinition(name: entity.entity, values: (entity.values ?? []).map {
                EntityValue($0.value, synonyms: $0.synonyms ?? [], patterns: $0.patterns ?? [])
            })
        }
        return try assembler.dataset(warnings: &warnings)
    }
}

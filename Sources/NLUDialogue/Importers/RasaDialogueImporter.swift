import Foundation
import NLUInputOutput
import Yams

/// Reads a Rasa 3 project's dialogue into a rule dialogue (``DialogueRules``): `domain.yml` (responses,
/// slots with their mappings, forms with `required_slots`; Rasa 2's mappings inside `forms` too) and the
/// `rules:` and `stories:` of the YAML files under `data/`. What cannot run here is returned as warnings,
/// by item: custom actions (`action_*`, `validate_*`), stories with checkpoints or `or`, response
/// conditions and channels.
///
///     let (model, warnings) = try RasaDialogueImporter.read(project: URL(fileURLWithPath: "formbot"))
public enum RasaDialogueImporter {
    /// Built-in actions the rule runner knows.
    static let builtinActions: Set<String> = ["action_listen", "action_deactivate_loop", "action_deactivate_form", RuleRunner.restartAction,
                                              RuleRunner.backAction, RuleRunner.sessionStartAction, RuleRunner.defaultFallbackAction]

    /// A project folder (`domain.yml` or `domain/`, and `data/`), or a domain file alone.
    /// - Throws: ``RasaDialogueError`` naming the file and line.
    public static func read(project url: URL) throws -> (model: DialogueModel, warnings: [String]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw RasaDialogueError(file: url.path, line: nil, reason: "no such file or folder")
        }
        var warnings: [String] = []
        var rules = DialogueRules()
        guard isDirectory.boolValue else {
            try readDomain(url, into: &rules, warnings: &warnings)
            return try finish(rules, name: url.deletingPathExtension().lastPathComponent, warnings: warnings, fallback: nil)
        }
        let domain = url.appendingPathComponent("domain.yml")
        guard FileManager.default.fileExists(atPath: domain.path) else {
            throw RasaDialogueError(file: domain.path, line: nil, reason: "a Rasa project has a domain.yml")
        }
        try readDomain(domain, into: &rules, warnings: &warnings)
        for file in yamlFiles(under: url.appendingPathComponent("data")) {
            try readTrainingData(file, into: &rules, warnings: &warnings)
        }
        let config = url.appendingPathComponent("config.yml")
        let fallback = FileManager.default.fileExists(atPath: config.path) ? try readFallback(config) : nil
        return try finish(rules, name: url.lastPathComponent, warnings: warnings, fallback: fallback)
    }

    /// RulePolicy's fallback in `config.yml`: `enable_fallback_prediction` (default true) and
    /// `core_fallback_action_name` (default `action_default_fallback`); `nil` without a RulePolicy entry.
    /// (`core_fallback_threshold` is the fallback's confidence: with rules and stories every other prediction is
    /// certain, so it decides nothing here; it is range-checked as Rasa's schema does.)
    private static func readFallback(_ url: URL) throws -> (enabled: Bool, action: String)? {
        guard let config = try parse(url) else { return nil }
        let policies = config["policies"]?.sequence ?? []
        guard let policy = policies.first(where: { $0.mapping?["name"]?.string == "RulePolicy" })?.mapping else { return nil }
        func field(_ name: String) -> Node? { policy[name].flatMap { $0.null == nil ? $0 : nil } }
        func refuse(_ node: Node, _ name: String, _ expected: String) -> RasaDialogueError {
            RasaDialogueError(file: url.path, line: node.mark.map { $0.line },
                              reason: "RulePolicy.\(name): expected \(expected); got '\(node.scalar?.string ?? "a collection")'")
        }
        var enabled = true, action = RuleRunner.defaultFallbackAction
        if let node = field("enable_fallback_prediction") {
            guard let value = node.bool else { throw refuse(node, "enable_fallback_prediction", "true or false") }
            enabled = value
        }
        if let node = field("core_fallback_action_name") {
            guard let value = node.string, !value.isEmpty, node.scalar != nil else { throw refuse(node, "core_fallback_action_name", "an action name") }
            action = value
        }
        if let node = field("core_fallback_threshold") {
            guard node.bool == nil, let value = node.float, (0...1).contains(value) else { throw refuse(node, "core_fallback_threshold", "a number from 0 to 1") }
        }
        return (enabled, action)
    }

    /// Rasa's `session_config` (its schema: `session_expiration_time` a number of minutes ≥ 0, 0 turning sessions
    /// off; `carry_over_slots_to_new_session` a boolean); what is missing or null takes Rasa's default (60, true).
    private static func session(_ node: Node?, file: String) throws -> DialogueSession {
        var session = DialogueSession.rasaDefault
        guard let node, node.null == nil else { return session }
        guard let config = node.mapping else {
            throw RasaDialogueError(file: file, line: node.mark.map { $0.line }, reason: "session_config: expected a mapping")
        }
        if let minutes = config["session_expiration_time"], minutes.null == nil {
            guard minutes.bool == nil, let value = minutes.float, value.isFinite, value >= 0 else {
                throw RasaDialogueError(file: file, line: minutes.mark.map { $0.line },
                                        reason: "session_config.session_expiration_time: expected a number of minutes, 0 or more; got '\(minutes.scalar?.string ?? "a collection")'")
            }
            session.expirationMinutes = value
        }
        if let carry = config["carry_over_slots_to_new_session"], carry.null == nil {
            guard let value = carry.bool else {
                throw RasaDialogueError(file: file, line: carry.mark.map { $0.line },
                                        reason: "session_config.carry_over_slots_to_new_session: expected true or false; got '\(carry.scalar?.string ?? "a collection")'")
            }
            session.carryOverSlots = value
        }
        return session
    }

    private static func finish(_ rules: DialogueRules, name: String, warnings: [String],
                               fallback: (enabled: Bool, action: String)?) throws -> (model: DialogueModel, warnings: [String]) {
        var rules = rules
        var warnings = warnings
        // RulePolicy's fallback: Rasa's action_default_fallback (built in: utter_default when the domain has it, then
        // the message taken back) unless config.yml names another action or turns fallback prediction off.
        let fallback = fallback ?? (true, RuleRunner.defaultFallbackAction)
        if fallback.enabled {
            rules.fallbackAction = fallback.action
            if !builtinActions.contains(fallback.action), rules.responses[fallback.action] == nil {
                warnings.append("config.yml: RulePolicy.core_fallback_action_name '\(fallback.action)' is a custom action of the source platform: not run")
            }
        }
        let known = Set(rules.responses.keys).union(rules.forms.map(\.name)).union(builtinActions)
        var reported = Set<String>()
        for rule in rules.rules {
            for step in rule.steps {
                guard let action = step.action, !known.contains(action), reported.insert(action).inserted else { continue }
                if action.hasPrefix("utter_") {
                    throw RasaDialogueError(file: "\(rule.kind.rawValue) '\(rule.name)'", line: nil, reason: "action '\(action)' has no response in the domain")
                }
                warnings.append("\(rule.kind.rawValue) '\(rule.name)': action '\(action)' is a custom action (Python): it cannot run here; it is skipped with a warning when predicted")
            }
        }
        return (DialogueModel(name: name, source: "rasa", nodes: [], rules: rules), warnings)
    }

    static func yamlFiles(under folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { ["yml", "yaml"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
    }

    static func parse(_ url: URL) throws -> Node.Mapping? {
        let data: Data
        do { data = try InputFile.read(url) } catch let error as InputReadError {
            throw RasaDialogueError(file: url.path, line: nil, reason: "cannot be read (\(error.reason))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw RasaDialogueError(file: url.path, line: nil, reason: "is not UTF-8 text")
        }
        do {
            return try Yams.compose(yaml: text)?.mapping
        } catch let error as YamlError {
            switch error {
            case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _):
                throw RasaDialogueError(file: url.path, line: mark.line, reason: "YAML: \(problem)")
            default:
                throw RasaDialogueError(file: url.path, line: nil, reason: "YAML: \(error)")
            }
        }
    }

    // MARK: domain

    private static func readDomain(_ url: URL, into rules: inout DialogueRules, warnings: inout [String]) throws {
        let file = url.path
        guard let domain = try parse(url) else { throw RasaDialogueError(file: file, line: nil, reason: "the domain is not a mapping") }
        rules.session = try session(domain["session_config"], file: file)
        // Rasa fills a response's `{name}` from the tracker's slots (`requested_slot` among them when forms exist).
        var slotNames = Set((domain["slots"]?.mapping ?? [:]).keys.compactMap(\.string))
        if domain["forms"] != nil { slotNames.insert(RuleRunner.requestedSlot) }
        for (key, value) in domain["responses"]?.mapping ?? [:] {
            guard let name = key.string else { continue }
            rules.responses[name] = try responses(value, name: name, file: file, slots: slotNames, warnings: &warnings)
        }
        var formMappings: [String: [SlotMapping]] = [:]
        for (key, value) in domain["forms"]?.mapping ?? [:] {
            guard let name = key.string else { continue }
            let body = value.mapping ?? [:]
            var required: [String] = []
            if let list = body["required_slots"] {
                guard let items = list.sequence else { throw error(file, list, "forms.\(name).required_slots is not a list") }
                required = items.compactMap(\.string)
            } else {
                // Rasa 2: the form lists its slots with their mappings, which apply while the form runs.
                for (slotKey, mappingList) in body {
                    guard let slot = slotKey.string else { continue }
                    if slot == "ignored_intents" { continue }
                    required.append(slot)
                    var mappings: [SlotMapping] = []
                    for item in mappingList.sequence ?? [] {
                        guard var mapping = try slotMapping(item, place: "forms.\(name).\(slot)", file: file, warnings: &warnings) else { continue }
                        mapping.conditions = mapping.type == .fromEntity ? [.init(activeLoop: name)] : [.init(activeLoop: name, requestedSlot: slot)]
                        mappings.append(mapping)
                    }
                    formMappings[slot, default: []] += mappings
                }
            }
            let ignored = body["ignored_intents"].map { $0.sequence?.compactMap(\.string) ?? [$0.string].compactMap { $0 } }
            rules.forms.append(DialogueForm(name: name, requiredSlots: required, ignoredIntents: ignored))
        }
        for (key, value) in domain["slots"]?.mapping ?? [:] {
            guard let name = key.string, name != RuleRunner.requestedSlot else { continue }
            let body = value.mapping ?? [:]
            let typeName = body["type"]?.string ?? "any"
            let type: RuleSlot.ValueType
            switch typeName {
            case "text", "unfeaturized": type = .text
            case "float": type = .float
            case "bool": type = .bool
            case "list": type = .list
            case "categorical": type = .categorical
            case "any": type = .any
            default:
                warnings.append("\(file) line \(line(value)): slot '\(name)': type '\(typeName)' kept as any value")
                type = .any
            }
            var mappings: [SlotMapping] = []
            for item in body["mappings"]?.sequence ?? [] {
                if let mapping = try slotMapping(item, place: "slot '\(name)'", file: file, warnings: &warnings) { mappings.append(mapping) }
            }
            mappings += formMappings[name] ?? []
            rules.slots.append(RuleSlot(name: name, type: type, initialValue: body["initial_value"].map(Self.value), mappings: mappings))
        }
        for form in rules.forms {
            for slot in form.requiredSlots where !rules.slots.contains(where: { $0.name == slot }) {
                throw RasaDialogueError(file: file, line: nil, reason: "form '\(form.name)' requires slot '\(slot)', which is not in slots")
            }
        }
        for action in domain["actions"]?.sequence?.compactMap(\.string) ?? [] where rules.responses[action] == nil {
            warnings.append("\(file): action '\(action)' is a custom action (Python): it cannot run here"
                            + (action.hasPrefix("validate_") ? " (slots are taken as their mappings give them, without its validation)" : ""))
        }
    }

    private static func responses(_ node: Node, name: String, file: String, slots: Set<String>,
                                  warnings: inout [String]) throws -> [DialogueResponse] {
        guard let variations = node.sequence else { throw error(file, node, "response '\(name)' is not a list of variations") }
        var texts: [String] = []
        var others: [DialogueResponse] = []
        for variation in variations {
            guard let body = variation.mapping else { throw error(file, variation, "response '\(name)': a variation is not a mapping") }
            if body["condition"] != nil || body["channel"] != nil {
                warnings.append("\(file) line \(line(variation)): response '\(name)': a variation with a condition or channel is skipped")
                continue
            }
            if let text = body["text"]?.string {
                if let unknown = placeholders(text).first(where: { !slots.contains($0) }) {
                    // Rasa's interpolation fails on the missing key and gives the whole text as written.
                    warnings.append("\(file) line \(line(variation)): response '\(name)': {\(unknown)} names no slot; the text is shown as written, as Rasa does")
                    texts.append(text)
                } else {
                    texts.append(template(text))
                }
            }
            if let buttons = body["buttons"]?.sequence {
                others.append(.options(title: "", description: nil, preference: "button", options: buttons.compactMap { button in
                    guard let title = button.mapping?["title"]?.string else { return nil }
                    return DialogueResponse.Option(label: template(title), value: button.mapping?["payload"]?.string ?? title)
                }))
            }
            if let image = body["image"]?.string { others.append(.image(source: image, title: nil, description: nil)) }
            if let custom = body["custom"] { others.append(.payload(value(custom))) }
        }
        return (texts.isEmpty ? [] : [.text(values: texts, selection: texts.count > 1 ? .random : .sequential)]) + others
    }

    /// The names of `text`'s `{name}` placeholders as Rasa's interpolation reads them (anything but a newline or
    /// a brace between braces).
    static func placeholders(_ text: String) -> [String] {
        var names: [String] = []
        var open: String.Index?
        for index in text.indices {
            switch text[index] {
            case "{": open = index
            case "}":
                if let start = open, text.index(after: start) < index { names.append(String(text[text.index(after: start)..<index])) }
                open = nil
            case "\n": open = nil
            default: break
            }
        }
        return names
    }

    /// Rasa's `{slot}` as NLUKit's `<? $slot ?>`.
    static func template(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "{", let close = text[index...].firstIndex(of: "}") {
                let name = text[text.index(after: index)..<close]
                if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                    result += "<? $\(name) ?>"
                    index = text.index(after: close)
                    continue
                }
            }
            result.append(text[index])
            index = text.index(after: index)
        }
        return result
    }

    private static func slotMapping(_ node: Node, place: String, file: String, warnings: inout [String]) throws -> SlotMapping? {
        guard let body = node.mapping, let type = body["type"]?.string else { throw error(file, node, "\(place): a mapping needs a type") }
        let kind: SlotMapping.Kind
        switch type {
        case "from_entity": kind = .fromEntity
        case "from_text": kind = .fromText
        case "from_intent": kind = .fromIntent
        case "from_trigger_intent": kind = .fromTriggerIntent
        default:
            warnings.append("\(file) line \(line(node)): \(place): mapping type '\(type)' (a custom action fills it) cannot run here; skipped")
            return nil
        }
        if kind == .fromEntity, body["entity"]?.string == nil { throw error(file, node, "\(place): from_entity needs an entity") }
        let conditions = body["conditions"]?.sequence?.map { item -> SlotMapping.Condition in
            let condition = item.mapping ?? [:]
            return SlotMapping.Condition(activeLoop: condition["active_loop"]?.string, requestedSlot: condition["requested_slot"]?.string)
        }
        return SlotMapping(type: kind, entity: body["entity"]?.string, role: body["role"]?.string, group: body["group"]?.string,
                           intent: body["intent"].map(list), notIntent: body["not_intent"].map(list),
                           value: body["value"].map(value), conditions: conditions)
    }

    // MARK: rules and stories

    private static func readTrainingData(_ url: URL, into rules: inout DialogueRules, warnings: inout [String]) throws {
        let file = url.path
        guard let root = try parse(url) else { return }
        for (key, kind) in [("rules", DialogueRule.Kind.rule), ("stories", .story)] {
            guard let list = root[Node(key)] else { continue }
            guard let items = list.sequence else { throw error(file, list, "'\(key)' is not a list") }
            for item in items {
                guard let body = item.mapping, let name = body[kind == .rule ? "rule" : "story"]?.string else {
                    throw error(file, item, "an item of '\(key)' needs a '\(kind == .rule ? "rule" : "story")' name")
                }
                guard let stepList = body["steps"]?.sequence else { throw error(file, item, "\(kind.rawValue) '\(name)' has no steps") }
                var steps: [DialogueRule.Step] = []
                var unsupported: String?
                for step in stepList {
                    if step.string == "..." { continue }
                    guard let stepBody = step.mapping else { throw error(file, step, "\(kind.rawValue) '\(name)': a step is not a mapping") }
                    if stepBody["checkpoint"] != nil || stepBody["or"] != nil {
                        unsupported = stepBody["checkpoint"] != nil ? "a checkpoint" : "an 'or' step"
                        break
                    }
                    steps += try ruleSteps(stepBody, node: step, place: "\(kind.rawValue) '\(name)'", file: file)
                }
                if let unsupported {
                    warnings.append("\(file) line \(line(item)): \(kind.rawValue) '\(name)' has \(unsupported): not imported")
                    continue
                }
                var condition: [DialogueRule.Step] = []
                for entry in body["condition"]?.sequence ?? [] {
                    guard let entryBody = entry.mapping else { continue }
                    condition += try ruleSteps(entryBody, node: entry, place: "rule '\(name)' condition", file: file)
                }
                let start = body["conversation_start"]?.bool ?? false
                let wait = body["wait_for_user_input"]?.bool ?? true
                rules.rules.append(DialogueRule(name: name, kind: kind, condition: condition, steps: steps, conversationStart: start, waitForUserInput: wait))
            }
        }
    }

    static func ruleSteps(_ body: Node.Mapping, node: Node, place: String, file: String) throws -> [DialogueRule.Step] {
        if let intent = body["intent"]?.string {
            let entities = body["entities"]?.sequence?.compactMap { $0.string ?? $0.mapping?.keys.first?.string }
            return [.user(intent, entities: entities)]
        }
        if let action = body["action"]?.string { return [.action(action)] }
        if let loop = body["active_loop"] { return [.loop(loop.string == "null" ? nil : loop.string)] }
        if let slots = body["slot_was_set"]?.sequence {
            return slots.compactMap { item in
                if let name = item.string { return DialogueRule.Step(slot: name) }
                guard let (key, value) = item.mapping?.first, let name = key.string else { return nil }
                return DialogueRule.Step(slot: name, value: Self.value(value))
            }
        }
        if body["user"] != nil { throw error(file, node, "\(place): a user step needs an intent") }
        throw error(file, node, "\(place): a step is one of intent, action, active_loop, slot_was_set")
    }

    // MARK: values

    static func value(_ node: Node) -> DialogueValue {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain {
                if scalar.string == "null" || scalar.string == "~" || scalar.string.isEmpty { return .null }
                if let bool = node.bool { return .bool(bool) }
                if let number = node.float, node.int != nil || scalar.string.contains(".") { return .number(number) }
            }
            return .string(scalar.string)
        case .sequence(let items):
            return .array(items.map(value))
        case .mapping(let members):
            var object: [String: DialogueValue] = [:]
            for (key, member) in members { if let name = key.string { object[name] = value(member) } }
            return .object(object)
        }
    }

    private static func list(_ node: Node) -> [String] { node.sequence?.compactMap(\.string) ?? [node.string].compactMap { $0 } }

    static func line(_ node: Node) -> Int { (node.mark?.line ?? 0) }

    private static func error(_ file: String, _ node: Node, _ reason: String) -> RasaDialogueError {
        RasaDialogueError(file: file, line: node.mark?.line, reason: reason)
    }
}

/// A Rasa project that cannot be read: the file, the line (1-based) when known, and why.
public struct RasaDialogueError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var reason: String
    public init(file: String, line: Int?, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }
    public var description: String { "\(file)\(line.map { " line \($0)" } ?? ""): \(reason)" }
}

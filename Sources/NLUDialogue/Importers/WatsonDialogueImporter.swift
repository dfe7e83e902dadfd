import Foundation
import NLUInputOutput

/// Reads the `dialog_nodes` of an IBM Watson Assistant workspace (v1 JSON export) into a ``DialogueModel``.
///
/// The node tree and sibling order (`parent`, `previous_sibling`), `conditions`, `context`, `output.generic`
/// and `output.text`, `next_step` (`get_user_input`, `skip_user_input`, `jump_to` with `condition`, `body`
/// or `user_input`), folders, multiple conditional responses (`response_condition` children), slots of
/// `frame` nodes with their handlers (`focus` prompt, `input` condition and value, `filled`, `nomatch`),
/// node-level `generic` handlers, `digress_in`, `digress_out`, `digress_out_slots` and `disabled` map to
/// the model. What does not is listed in the warnings by node id, never silently dropped:
/// an expression outside the supported subset (the node never matches; an unsupported `<? ?>` in a text
/// shows its variable unformatted), a response type without an equivalent (kept as a payload), handler
/// behaviours other than `reprompt` and `skip_all_slots`.
///
///     let (model, warnings) = try WatsonDialogueImporter.read(data, file: "car_workspace.json")
public enum WatsonDialogueImporter {
    struct Workspace: Decodable {
        var name: String?
        var language: String?
        var dialog_nodes: [WatsonNode]?
    }
    struct WatsonNode: Decodable {
        var dialog_node: String
        var type: String?
        var title: String?
        var parent: String?
        var previous_sibling: String?
        var conditions: String?
        var output: DialogueValue?
        var context: DialogueValue?
        var next_step: NextStep?
        var event_name: String?
        var variable: String?
        var digress_in: String?
        var digress_out: String?
        var digress_out_slots: String?
        var disabled: Bool?
    }
    struct NextStep: Decodable {
        var behavior: String
        var selector: String?
        var dialog_node: String?
    }

    /// The dialogue of the workspace in `data`, and what could not be mapped.
    /// - Throws: `JSONFileError` naming `file` when the JSON does not parse or has no `dialog_nodes`.
    public static func read(_ data: Data, file: String) throws -> (model: DialogueModel, warnings: [String]) {
        let workspace = try JSONFile.decode(Workspace.self, from: data, file: file)
        guard let nodes = workspace.dialog_nodes else {
            throw JSONFileError(file: file, field: "dialog_nodes", reason: "is missing: the workspace has no dialog")
        }
        var reader = Reader(file: file, nodes: nodes)
        let converted = reader.convert(parent: nil)
        let model = DialogueModel(name: workspace.name, language: workspace.language, source: "watson",
                                  settings: .init(intentThreshold: 0.2), nodes: converted)
        return (model, reader.warnings)
    }

    /// The conversion's working state: the nodes by id and parent, and the warnings so far.
    struct Reader {
        let file: String
        var byID: [String: WatsonNode] = [:]
        var childrenByParent: [String: [WatsonNode]] = [:]
        var rootNodes: [WatsonNode] = []
        var warnings: [String] = []

        init(file: String, nodes: [WatsonNode]) {
            self.file = file
            var unordered: [String?: [WatsonNode]] = [:]
            var parents: [String?] = []
            for node in nodes {
                if byID[node.dialog_node] != nil {
                    warnings.append("node '\(node.dialog_node)': the id is used twice; the second node is ignored")
                    continue
                }
                byID[node.dialog_node] = node
                if unordered[node.parent] == nil { parents.append(node.parent) }
                unordered[node.parent, default: []].append(node)
            }
            for parent in parents {
                let ordered = order(unordered[parent] ?? [], parent: parent)
                if let parent { childrenByParent[parent] = ordered } else { rootNodes = ordered }
            }
            for (parent, _) in childrenByParent where byID[parent] == nil {
                warnings.append("node '\(parent)' is named as a parent but does not exist; its children are ignored")
            }
        }

        /// Siblings in `previous_sibling` order; one the chain does not reach goes last, with a warning.
        private mutating func order(_ siblings: [WatsonNode], parent: String?) -> [WatsonNode] {
            let ids = Set(siblings.map(\.dialog_node))
            var following: [String: WatsonNode] = [:]
            var ordered: [WatsonNode] = []
            for node in siblings {
                if let previous = node.previous_sibling, ids.contains(previous) { following[previous] = node }
            }
            var current = siblings.first { $0.previous_sibling == nil || !ids.contains($0.previous_sibling ?? "") }
            var placed = Set<String>()
            while let node = current, placed.insert(node.dialog_node).inserted {
                ordered.append(node)
                current = following[node.dialog_node]
            }
            for node in siblings where !placed.contains(node.dialog_node) {
                warnings.append("node '\(node.dialog_node)': its previous_sibling chain does not reach it; placed last among its siblings")
                ordered.append(node)
            }
            return ordered
        }

        private func children(of id: String) -> [WatsonNode] { childrenByParent[id] ?? [] }

        /// The model's nodes for the children of `parent` (the root when `nil`), depth first.
        mutating func convert(parent: String?) -> [DialogueNode] {
            var result: [DialogueNode] = []
            for node in parent.map(children(of:)) ?? rootNodes {
                let type = node.type ?? "standard"
                switch type {
                case "standard", "frame", "folder":
                    result.append(convertNode(node, kind: type == "folder" ? .folder : .standard, hasSlots: type == "frame"))
                    result += convert(parent: node.dialog_node)
                case "response_condition", "slot", "event_handler":
                    // Read with their parent (below); here only when the parent cannot hold them.
                    if parent == nil || !["standard", "frame", "folder"].contains(byID[parent ?? ""]?.type ?? "standard") {
                        warnings.append("node '\(node.dialog_node)': a \(type) node outside a dialog node is ignored")
                    }
                default:
                    warnings.append("node '\(node.dialog_node)': node type '\(type)' is not supported; ignored with its children")
                }
            }
            return result
        }

        private mutating func convertNode(_ node: WatsonNode, kind: DialogueNode.Kind, hasSlots: Bool) -> DialogueNode {
            let id = node.dialog_node
            var converted = DialogueNode(id: id, title: node.title, parent: node.parent, kind: kind)
            converted.condition = condition(node.conditions, node: id, field: "conditions")
            converted.context = context(node.context, node: id, field: "context")
            converted.responses = responses(node.output, node: id, field: "output")
            converted.next = next(node.next_step, node: id)
            converted.disabled = node.disabled ?? false
            if let value = node.digress_in {
                converted.digressIn = enumValue(value, node: id, field: "digress_in",
                                                ["does_not_return": .doesNotReturn, "returns": .returns, "not_available": .notAvailable]) ?? .doesNotReturn
            }
            if let value = node.digress_out {
                converted.digressOut = enumValue(value, node: id, field: "digress_out",
                                                 ["allow_returning": .allowReturning, "allow_all": .allowAll,
                                                  "allow_all_never_return": .allowAllNeverReturn]) ?? .allowReturning
            }
            if let value = node.digress_out_slots {
                converted.digressOutSlots = enumValue(value, node: id, field: "digress_out_slots",
                                                      ["not_allowed": .notAllowed, "allow_returning": .allowReturning, "allow_all": .allowAll]) ?? .notAllowed
            }
            for child in children(of: id) {
                switch child.type ?? "standard" {
                case "response_condition":
                    guard child.disabled != true else { continue }
                    converted.conditionalResponses.append(ConditionalResponse(
                        id: child.dialog_node,
                        condition: condition(child.conditions, node: child.dialog_node, field: "conditions"),
                        context: optionalContext(child.context, node: child.dialog_node),
                        responses: responses(child.output, node: child.dialog_node, field: "output"),
                        next: child.next_step.map { _ in next(child.next_step, node: child.dialog_node) }))
                case "slot":
                    if hasSlots {
                        if let slot = slot(child) { converted.slots.append(slot) }
                    } else {
                        warnings.append("node '\(child.dialog_node)': slot of node '\(id)', whose slots are turned off (it is not a frame); ignored")
                    }
                case "event_handler":
                    if hasSlots, child.event_name == "generic" {
                        converted.slotHandlers.append(handler(child))
                    } else {
                        warnings.append("node '\(child.dialog_node)': event handler '\(child.event_name ?? "?")' on a node (not a slot) is not supported; ignored")
                    }
                default:
                    break
                }
            }
            return converted
        }

        private mutating func slot(_ node: WatsonNode) -> DialogueSlot? {
            let id = node.dialog_node
            guard let variable = node.variable?.trimmingCharacters(in: .whitespaces), variable.hasPrefix("$"), variable.count > 1 else {
                warnings.append("node '\(id)': slot without a $variable; ignored")
                return nil
            }
            let name = String(variable.dropFirst())
            var slot = DialogueSlot(variable: name)
            if node.conditions != nil { warnings.append("node '\(id)': a slot's own conditions are not supported; ignored") }
            for handler in children(of: id) {
                let handlerID = handler.dialog_node
                switch handler.event_name {
                case "focus":
                    slot.prompt = responses(handler.output, node: handlerID, field: "output")
                case "input":
                    slot.condition = condition(handler.conditions, node: handlerID, field: "conditions") ?? "@" + name
                    var updates = context(handler.context, node: handlerID, field: "context")
                    slot.value = updates.removeValue(forKey: name) ?? .string("<? \(slot.condition ?? "null") ?>")
                    slot.context = updates.isEmpty ? nil : updates
                case "filled", "nomatch":
                    let behavior = handler.next_step?.behavior
                    if let behavior, behavior != "reprompt" {
                        warnings.append("node '\(handlerID)': '\(handler.event_name ?? "")' handler behavior '\(behavior)' is not supported; the slot continues as usual")
                    }
                    let response = ConditionalResponse(id: handlerID, condition: condition(handler.conditions, node: handlerID, field: "conditions"),
                                                       context: optionalContext(handler.context, node: handlerID),
                                                       responses: responses(handler.output, node: handlerID, field: "output"))
                    if handler.event_name == "filled" { slot.filled.append(response) } else { slot.noMatch.append(response) }
                default:
                    warnings.append("node '\(handlerID)': slot event '\(handler.event_name ?? "?")' is not supported; ignored")
                }
            }
            if slot.condition == nil {
                warnings.append("node '\(id)': slot $\(name) has no input handler (condition); it is never filled")
                slot.condition = "false"
            }
            return slot
        }

        private mutating func handler(_ node: WatsonNode) -> SlotHandler {
            let id = node.dialog_node
            var action = SlotHandler.Action.reprompt
            switch node.next_step?.behavior {
            case nil, "reprompt": break
            case "skip_all_slots": action = .skipAllSlots
            case let behavior?:
                warnings.append("node '\(id)': handler behavior '\(behavior)' is not supported; the slot is asked again")
            }
            return SlotHandler(condition: condition(node.conditions, node: id, field: "conditions") ?? "false",
                               context: optionalContext(node.context, node: id),
                               responses: responses(node.output, node: id, field: "output"), action: action)
        }

        private mutating func next(_ step: NextStep?, node: String) -> DialogueNode.Next {
            guard let step else { return .init(action: .wait) }
            switch step.behavior {
            case "get_user_input": return .init(action: .wait)
            case "skip_user_input": return .init(action: .skipUserInput)
            case "jump_to":
                guard let target = step.dialog_node, byID[target] != nil else {
                    warnings.append("node '\(node)': next_step jumps to '\(step.dialog_node ?? "")', which does not exist; it waits for the user instead")
                    return .init(action: .wait)
                }
                let selector: DialogueNode.Next.Selector
                switch step.selector ?? "condition" {
                case "condition": selector = .condition
                case "body": selector = .body
                case "user_input": selector = .userInput
                case let other:
                    warnings.append("node '\(node)': jump selector '\(other)' is not supported; the target's condition is evaluated")
                    selector = .condition
                }
                return .init(action: .jump, target: target, selector: selector)
            default:
                warnings.append("node '\(node)': next_step behavior '\(step.behavior)' is not supported here; it waits for the user")
                return .init(action: .wait)
            }
        }

        /// The condition, checked against the supported subset; one outside it becomes `false`.
        private mutating func condition(_ text: String?, node: String, field: String) -> String? {
            guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
            do {
                _ = try ExpressionParser.parse(text)
                return text
            } catch {
                warnings.append("node '\(node)': \(field) '\(text)' is not supported (\(error.reason) at offset \(error.offset)); the node never matches")
                return "false"
            }
        }

        private mutating func optionalContext(_ value: DialogueValue?, node: String) -> [String: DialogueValue]? {
            let updates = context(value, node: node, field: "context")
            return updates.isEmpty ? nil : updates
        }

        private mutating func context(_ value: DialogueValue?, node: String, field: String) -> [String: DialogueValue] {
            guard let value else { return [:] }
            guard case .object(let members) = value else {
                if value != .null { warnings.append("node '\(node)': \(field) is not an object; ignored") }
                return [:]
            }
            var updates: [String: DialogueValue] = [:]
            for (key, member) in members { updates[key] = templates(in: member, node: node, field: "\(field).\(key)") }
            return updates
        }

        /// `value` with every string made a template the runtime reads (see ``degrade(_:node:field:)``).
        private mutating func templates(in value: DialogueValue, node: String, field: String) -> DialogueValue {
            switch value {
            case .string(let text): return .string(degrade(text, node: node, field: field))
            case .array(let items): return .array(items.enumerated().map { templates(in: $1, node: node, field: "\(field)[\($0)]") })
            case .object(let members):
                var converted: [String: DialogueValue] = [:]
                for (key, member) in members { converted[key] = templates(in: member, node: node, field: "\(field).\(key)") }
                return .object(converted)
            case .null, .bool, .number: return value
            }
        }

        /// The text with each `<? ?>` expression outside the supported subset replaced: by its leading
        /// `$variable` or `@entity` when it starts with one (`<? $time.reformatDateTime('h:mm a') ?>` shows `$time` as it is),
        /// or `@entity`, by nothing otherwise — each with a warning.
        private mutating func degrade(_ text: String, node: String, field: String) -> String {
            guard text.contains("<?") else { return text }
            var result = ""
            var rest = Substring(text)
            while let open = rest.range(of: "<?") {
                result += rest[..<open.lowerBound]
                guard let close = rest[open.upperBound...].range(of: "?>") else {
                    warnings.append("node '\(node)': \(field): '<?' is not closed by '?>'; the rest of the text is dropped")
                    return result
                }
                let inner = String(rest[open.upperBound..<close.lowerBound])
                do {
                    _ = try ExpressionParser.parse(inner)
                    result += rest[open.lowerBound..<close.upperBound]
                } catch {
                    let trimmed = inner.trimmingCharacters(in: .whitespaces)
                    var replacement = ""
                    if let sigil = trimmed.first, sigil == "$" || sigil == "@" {
                        let name = trimmed.dropFirst().prefix { $0.unicodeScalars.allSatisfy(ExpressionParser.isNameScalar) }
                        if !name.isEmpty { replacement = String(sigil) + name }
                    }
                    warnings.append("node '\(node)': \(field): expression '<?\(inner)?>' is not supported (\(error.reason)); "
                                    + (replacement.isEmpty ? "left out" : "shown as \(replacement)"))
                    result += replacement
                }
                rest = rest[close.upperBound...]
            }
            return result + rest
        }

        private mutating func responses(_ output: DialogueValue?, node: String, field: String) -> [DialogueResponse] {
            guard case .object(var members)? = output else { return [] }
            var result: [DialogueResponse] = []
            if case .array(let generic)? = members.removeValue(forKey: "generic") {
                for (index, item) in generic.enumerated() {
                    if let response = genericResponse(item, node: node, field: "\(field).generic[\(index)]") { result.append(response) }
                }
                if members.removeValue(forKey: "text") != nil {
                    warnings.append("node '\(node)': \(field) has both generic and text; the text is ignored (as Watson does)")
                }
            } else if let text = members.removeValue(forKey: "text") {
                switch text {
                case .string(let single):
                    result.append(.text(values: [degrade(single, node: node, field: field + ".text")], selection: .sequential))
                case .object(let object):
                    let values = strings(object["values"]).map { degrade($0, node: node, field: field + ".text") }
                    if !values.isEmpty { result.append(.text(values: values, selection: selection(object["selection_policy"], node: node))) }
                case .array(let items):
                    let values = items.compactMap(\.string).map { degrade($0, node: node, field: field + ".text") }
                    if !values.isEmpty { result.append(.text(values: values, selection: .sequential)) }
                default:
                    break
                }
            }
            // What remains (`ui_action`, `action`, an app's own keys) goes to the app as a payload.
            if !members.isEmpty { result.append(.payload(templates(in: .object(members), node: node, field: field))) }
            return result
        }

        private mutating func genericResponse(_ item: DialogueValue, node: String, field: String) -> DialogueResponse? {
            guard case .object(let object) = item, case .string(let type)? = object["response_type"] else {
                warnings.append("node '\(node)': \(field) has no response_type; ignored")
                return nil
            }
            func text(_ key: String) -> String? { object[key]?.string }
            switch type {
            case "text":
                var values: [String] = []
                if case .array(let items)? = object["values"] {
                    for item in items { if case .string(let value)? = item["text"] { values.append(degrade(value, node: node, field: field)) } }
                }
                return values.isEmpty ? nil : .text(values: values, selection: selection(object["selection_policy"], node: node))
            case "option":
                var options: [DialogueResponse.Option] = []
                if case .array(let items)? = object["options"] {
                    for item in items {
                        guard case .string(let label)? = item["label"] else { continue }
                        let value = item["value"]?["input"]?["text"]
                        options.append(.init(label: degrade(label, node: node, field: field),
                                             value: degrade(value?.string ?? label, node: node, field: field)))
                    }
                }
                return .options(title: degrade(text("title") ?? "", node: node, field: field + ".title"),
                                description: text("description").map { degrade($0, node: node, field: field + ".description") },
                                preference: text("preference"), options: options)
            case "image":
                guard let source = text("source") else { return nil }
                return .image(source: degrade(source, node: node, field: field + ".source"), title: text("title"), description: text("description"))
            case "pause":
                let time = object["time"]?.number ?? 0
                return .pause(milliseconds: Int(min(max(time, 0), 600_000)), typing: object["typing"] == .bool(true))
            case "user_defined":
                return .payload(templates(in: object["user_defined"] ?? .null, node: node, field: field))
            default:
                warnings.append("node '\(node)': response type '\(type)' has no equivalent; kept as a payload")
                return .payload(templates(in: item, node: node, field: field))
            }
        }

        private mutating func selection(_ value: DialogueValue?, node: String) -> DialogueResponse.Selection {
            guard case .string(let policy)? = value else { return .sequential }
            switch policy {
            case "sequential": return .sequential
            case "random": return .random
            case "multiline": return .multiline
            default:
                warnings.append("node '\(node)': selection_policy '\(policy)' is not supported; sequential")
                return .sequential
            }
        }

        private func strings(_ value: DialogueValue?) -> [String] {
            guard case .array(let items)? = value else { return [] }
            return items.compactMap(\.string)
        }

        private mutating func enumValue<T>(_ value: String, node: String, field: String, _ table: [String: T]) -> T? {
            if let mapped = table[value] { return mapped }
            warnings.append("node '\(node)': \(field) '\(value)' is not supported; the default is used")
            return nil
        }
    }
}

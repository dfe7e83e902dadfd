/// Checks a ``DialogueModel`` and parses its expressions and templates, naming the node and field of the
/// first problem: a duplicate or unknown id, a condition or reference that does not parse (with its
/// offset), a jump without a target, a loop of `body` jumps that no user turn can break.
struct DialogueCompiler {
    /// The node being compiled, for errors.
    private var node: String?

    static func compile(_ model: DialogueModel) throws(DialogueModelError) -> (nodes: [String: CompiledNode], fallback: [CompiledResponse]) {
        let settings = model.settings
        guard settings.intentThreshold.isFinite, (0...1).contains(settings.intentThreshold) else {
            throw DialogueModelError(node: nil, field: "settings.intentThreshold", reason: "\(settings.intentThreshold) is not from 0 to 1")
        }
        guard (1...10_000).contains(settings.maxStepsPerTurn) else {
            throw DialogueModelError(node: nil, field: "settings.maxStepsPerTurn", reason: "\(settings.maxStepsPerTurn) is not from 1 to 10000")
        }
        var ids = Set<String>()
        for (index, node) in model.nodes.enumerated() {
            if node.id.isEmpty { throw DialogueModelError(node: nil, field: "nodes[\(index)].id", reason: "is empty") }
            if !ids.insert(node.id).inserted { throw DialogueModelError(node: node.id, field: "id", reason: "is used by another node too") }
        }
        var compiler = DialogueCompiler()
        var compiled: [String: CompiledNode] = [:]
        for node in model.nodes {
            compiler.node = node.id
            if let parent = node.parent, !ids.contains(parent) {
                throw DialogueModelError(node: node.id, field: "parent", reason: "no node has the id '\(parent)'")
            }
            try compiler.checkNext(node.next, field: "next", ids: ids)
            for (index, conditional) in node.conditionalResponses.enumerated() {
                if let next = conditional.next { try compiler.checkNext(next, field: "conditionalResponses[\(index)].next", ids: ids) }
            }
            for (index, handler) in node.slotHandlers.enumerated() {
                if let next = handler.next { try compiler.checkNext(next, field: "slotHandlers[\(index)].next", ids: ids) }
            }
            compiled[node.id] = try compiler.compile(node)
        }
        try checkParentCycles(model)
        try checkBodyJumpCycles(model)
        compiler.node = nil
        return (compiled, try compiler.responses(model.fallback, field: "fallback"))
    }

    /// Checks a rule dialogue (forms ask for declared slots, each step is one thing, no name is used twice)
    /// and compiles its responses; errors name the response, form or rule as the node.
    static func compile(_ rules: DialogueRules) throws(DialogueModelError) -> [String: [CompiledResponse]] {
        let slots = Set(rules.slots.map(\.name))
        if slots.count != rules.slots.count { throw DialogueModelError(node: nil, field: "rules.slots", reason: "a slot name is used twice") }
        var formNames = Set<String>()
        for form in rules.forms {
            if !formNames.insert(form.name).inserted { throw DialogueModelError(node: form.name, field: "rules.forms", reason: "the form is defined twice") }
            if rules.responses[form.name] != nil { throw DialogueModelError(node: form.name, field: "rules.forms", reason: "a response has the form's name") }
            for slot in form.requiredSlots where !slots.contains(slot) {
                throw DialogueModelError(node: form.name, field: "requiredSlots", reason: "no slot '\(slot)' is defined")
            }
        }
        for rule in rules.rules {
            for (index, step) in (rule.condition + rule.steps).enumerated() {
                let kinds = [step.intent, step.action, step.activeLoop, step.slot].compactMap { $0 }.count
                guard kinds == 1 else {
                    throw DialogueModelError(node: rule.name, field: "steps[\(index)]", reason: "a step is one of intent, action, activeLoop, slot (found \(kinds))")
                }
            }
            if rule.steps.count > RuleTracker.maximumEvents / 2 {
                throw DialogueModelError(node: rule.name, field: "steps", reason: "\(rule.steps.count) steps; at most \(RuleTracker.maximumEvents / 2)")
            }
        }
        var compiled: [String: [CompiledResponse]] = [:]
        for name in rules.responses.keys.sorted() {
            var compiler = DialogueCompiler()
            compiler.node = name
            compiled[name] = try compiler.responses(rules.responses[name] ?? [], field: "responses")
        }
        return compiled
    }

    private func checkNext(_ next: DialogueNode.Next, field: String, ids: Set<String>) throws(DialogueModelError) {
        switch next.action {
        case .jump:
            guard let target = next.target else { throw error(field + ".target", "a jump needs a target node id") }
            guard ids.contains(target) else { throw error(field + ".target", "no node has the id '\(target)'") }
        case .wait, .skipUserInput:
            if next.target != nil { throw error(field + ".target", "only a jump has a target") }
        }
    }

    private static func checkParentCycles(_ model: DialogueModel) throws(DialogueModelError) {
        let parents = Dictionary(model.nodes.map { ($0.id, $0.parent) }, uniquingKeysWith: { first, _ in first })
        for node in model.nodes {
            var seen: Set<String> = [node.id]
            var current = node.parent
            while let id = current {
                if !seen.insert(id).inserted {
                    throw DialogueModelError(node: node.id, field: "parent", reason: "the node is its own ancestor (through '\(id)')")
                }
                current = parents[id] ?? nil
            }
        }
    }

    /// A chain of unconditional `body` jumps back to its start loops forever: refused at load. Loops through
    /// conditions are left to the per-turn step limit, since a condition may break them.
    private static func checkBodyJumpCycles(_ model: DialogueModel) throws(DialogueModelError) {
        let byID = Dictionary(model.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for node in model.nodes {
            var path = [node.id]
            var current = node
            while current.slots.isEmpty, current.conditionalResponses.isEmpty, current.next.action == .jump,
                  current.next.selector == .body, let target = current.next.target, let next = byID[target] {
                if next.id == node.id {
                    throw DialogueModelError(node: node.id, field: "next", reason: "jumps loop without waiting for the user: \((path + [node.id]).joined(separator: " → "))")
                }
                if path.contains(next.id) { break }
                path.append(next.id)
                current = next
            }
        }
    }

    private func compile(_ node: DialogueNode) throws(DialogueModelError) -> CompiledNode {
        CompiledNode(
            node: node,
            condition: try node.condition.map { (text: String) throws(DialogueModelError) in try expression(text, field: "condition") },
            context: try context(node.context, field: "context"),
            responses: try responses(node.responses, field: "responses"),
            conditionalResponses: try conditionals(node.conditionalResponses, field: "conditionalResponses"),
            slots: try slots(node.slots),
            slotHandlers: try handlers(node.slotHandlers),
            confirmation: try node.confirmation.map { (confirmation: SlotConfirmation) throws(DialogueModelError) in
                CompiledConfirmation(prompt: try responses(confirmation.prompt, field: "confirmation.prompt"),
                                     yes: try expression(confirmation.yes, field: "confirmation.yes"),
                                     no: try expression(confirmation.no, field: "confirmation.no"),
                                     denied: try responses(confirmation.denied ?? [], field: "confirmation.denied"))
            })
    }

    private func slots(_ slots: [DialogueSlot]) throws(DialogueModelError) -> [CompiledSlot] {
        var compiled: [CompiledSlot] = []
        var variables = Set<String>()
        for (index, slot) in slots.enumerated() {
            let field = "slots[\(index)]"
            guard !slot.variable.isEmpty, !slot.variable.hasPrefix("$") else {
                throw error(field + ".variable", "'\(slot.variable)' is not a variable name (write it without '$')")
            }
            if !variables.insert(slot.variable).inserted { throw error(field + ".variable", "'\(slot.variable)' is filled by another slot too") }
            let conditionText = slot.condition ?? slot.entity.map { "@" + $0 }
            guard let conditionText else { throw error(field, "a slot needs an entity or a condition") }
            let value = slot.value ?? slot.entity.map { .string("@" + $0) } ?? slot.condition.map { .string("<? \($0) ?>") } ?? .null
            compiled.append(CompiledSlot(
                variable: slot.variable,
                condition: try expression(conditionText, field: field + (slot.condition == nil ? ".entity" : ".condition")),
                value: try self.value(value, field: field + ".value"),
                context: try context(slot.context ?? [:], field: field + ".context"),
                prompt: try responses(slot.prompt, field: field + ".prompt"),
                filled: try conditionals(slot.filled, field: field + ".filled"),
                noMatch: try conditionals(slot.noMatch, field: field + ".noMatch")))
        }
        return compiled
    }

    private func handlers(_ handlers: [SlotHandler]) throws(DialogueModelError) -> [CompiledHandler] {
        var compiled: [CompiledHandler] = []
        for (index, handler) in handlers.enumerated() {
            let field = "slotHandlers[\(index)]"
            compiled.append(CompiledHandler(condition: try expression(handler.condition, field: field + ".condition"),
                                            context: try context(handler.context ?? [:], field: field + ".context"),
                                            responses: try responses(handler.responses, field: field + ".responses"),
                                            action: handler.action, next: handler.next))
        }
        return compiled
    }

    private func conditionals(_ conditionals: [ConditionalResponse], field: String) throws(DialogueModelError) -> [CompiledConditional] {
        var compiled: [CompiledConditional] = []
        for (index, conditional) in conditionals.enumerated() {
            let path = "\(field)[\(index)]"
            compiled.append(CompiledConditional(
                id: conditional.id,
                condition: try conditional.condition.map { (text: String) throws(DialogueModelError) in try expression(text, field: path + ".condition") },
                context: try context(conditional.context ?? [:], field: path + ".context"),
                responses: try responses(conditional.responses, field: path + ".responses"),
                next: conditional.next))
        }
        return compiled
    }

    private func responses(_ responses: [DialogueResponse], field: String) throws(DialogueModelError) -> [CompiledResponse] {
        var compiled: [CompiledResponse] = []
        for (index, response) in responses.enumerated() {
            let path = "\(field)[\(index)]"
            switch response {
            case .text(let values, let selection):
                var templates: [TextTemplate] = []
                for (valueIndex, text) in values.enumerated() { templates.append(try template(text, field: "\(path).values[\(valueIndex)]")) }
                compiled.append(.text(templates, selection))
            case .options(let title, let description, let preference, let options):
                var compiledOptions: [(label: TextTemplate, value: TextTemplate)] = []
                for (optionIndex, option) in options.enumerated() {
                    compiledOptions.append((try template(option.label, field: "\(path).options[\(optionIndex)].label"),
                                            try template(option.value, field: "\(path).options[\(optionIndex)].value")))
                }
                compiled.append(.options(title: try template(title, field: path + ".title"),
                                         description: try description.map { (text: String) throws(DialogueModelError) in try template(text, field: path + ".description") },
                                         preference: preference, options: compiledOptions))
            case .image(let source, let title, let description):
                compiled.append(.image(source: try template(source, field: path + ".source"),
                                       title: try title.map { (text: String) throws(DialogueModelError) in try template(text, field: path + ".title") },
                                       description: try description.map { (text: String) throws(DialogueModelError) in try template(text, field: path + ".description") }))
            case .pause(let milliseconds, let typing):
                compiled.append(.pause(milliseconds: milliseconds, typing: typing))
            case .payload(let payload):
                compiled.append(.payload(try value(payload, field: path + ".payload")))
            }
        }
        return compiled
    }

    private func context(_ context: [String: DialogueValue], field: String) throws(DialogueModelError) -> CompiledContext {
        var compiled: CompiledContext = []
        for key in context.keys.sorted() {
            guard let value = context[key] else { continue }
            if key.isEmpty { throw error(field, "a context variable name is empty") }
            compiled.append((key, try self.value(value, field: "\(field).\(key)")))
        }
        return compiled
    }

    private func value(_ value: DialogueValue, field: String) throws(DialogueModelError) -> CompiledValue {
        switch value {
        case .string(let text):
            let parsed = try template(text, field: field)
            return parsed.isPlainText ? .constant(value) : .template(parsed)
        case .array(let items):
            var compiled: [CompiledValue] = []
            for (index, item) in items.enumerated() { compiled.append(try self.value(item, field: "\(field)[\(index)]")) }
            return .array(compiled)
        case .object(let members):
            var compiled: [(key: String, value: CompiledValue)] = []
            for key in members.keys.sorted() {
                guard let member = members[key] else { continue }
                compiled.append((key, try self.value(member, field: "\(field).\(key)")))
            }
            return .object(compiled)
        case .null, .bool, .number:
            return .constant(value)
        }
    }

    private func expression(_ text: String, field: String) throws(DialogueModelError) -> ConditionExpression {
        do {
            return try ExpressionParser.parse(text)
        } catch {
            throw self.error(field, error.description)
        }
    }

    private func template(_ text: String, field: String) throws(DialogueModelError) -> TextTemplate {
        do {
            return try TextTemplate.parse(text)
        } catch {
            throw self.error(field, error.description)
        }
    }

    private func error(_ field: String, _ reason: String) -> DialogueModelError {
        DialogueModelError(node: node, field: field, reason: reason)
    }
}

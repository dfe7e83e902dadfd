/// A node with its expressions parsed once, when the dialogue is loaded (``DialogueCompiler``), so a turn
/// only evaluates.
struct CompiledNode: Sendable {
    let node: DialogueNode
    let condition: ConditionExpression?
    let context: CompiledContext
    let responses: [CompiledResponse]
    let conditionalResponses: [CompiledConditional]
    let slots: [CompiledSlot]
    let slotHandlers: [CompiledHandler]
    let confirmation: CompiledConfirmation?

    var id: String { node.id }
    /// The fallback node (`anything_else`) may always be digressed to.
    var isFallback: Bool { condition == .special(.anythingElse) }
}

/// A value whose strings are templates (context updates, payloads).
indirect enum CompiledValue: Sendable {
    case template(TextTemplate)
    case constant(DialogueValue)
    case array([CompiledValue])
    case object([(key: String, value: CompiledValue)])

    func value(in scope: EvaluationScope, unset: inout [String]) -> DialogueValue {
        switch self {
        case .template(let template): return template.value(in: scope, unset: &unset)
        case .constant(let value): return value
        case .array(let items): return .array(items.map { $0.value(in: scope, unset: &unset) })
        case .object(let members):
            var object: [String: DialogueValue] = [:]
            for member in members { object[member.key] = member.value.value(in: scope, unset: &unset) }
            return .object(object)
        }
    }
}

/// Context updates in key order (a turn applies them in the same order every time).
typealias CompiledContext = [(key: String, value: CompiledValue)]

enum CompiledResponse: Sendable {
    case text([TextTemplate], DialogueResponse.Selection)
    case options(title: TextTemplate, description: TextTemplate?, preference: String?, options: [(label: TextTemplate, value: TextTemplate)])
    case image(source: TextTemplate, title: TextTemplate?, description: TextTemplate?)
    case pause(milliseconds: Int, typing: Bool)
    case payload(CompiledValue)
}

struct CompiledConditional: Sendable {
    let id: String?
    let condition: ConditionExpression?
    let context: CompiledContext
    let responses: [CompiledResponse]
    let next: DialogueNode.Next?
}

struct CompiledSlot: Sendable {
    let variable: String
    let condition: ConditionExpression
    let value: CompiledValue
    let context: CompiledContext
    let prompt: [CompiledResponse]
    let filled: [CompiledConditional]
    let noMatch: [CompiledConditional]
    var isRequired: Bool { !prompt.isEmpty }
}

struct CompiledHandler: Sendable {
    let condition: ConditionExpression
    let context: CompiledContext
    let responses: [CompiledResponse]
    let action: SlotHandler.Action
    let next: DialogueNode.Next?
}

struct CompiledConfirmation: Sendable {
    let prompt: [CompiledResponse]
    let yes: ConditionExpression
    let no: ConditionExpression
    let denied: [CompiledResponse]
}

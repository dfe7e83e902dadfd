import NLUInputOutput

/// Builds the nodes of a Dialogflow CX agent's flows and pages (``DialogflowCXDialogueImporter``): each
/// state — a flow's start page or a page — becomes a node whose children are laid out so that NLUKit's
/// sibling evaluation follows CX's order:
///
///     <State>                 entry fulfillment; then the form, or the condition routes
///       <State>/form          the form's slots; intent routes in scope are its slot handlers
///       <State>/entry         (never matches) where the condition routes are evaluated on entry
///       <State>/entry route[i] …   the condition routes, first true one transitions
///       <State>/wait          none did: wait for the user at <State>/turn
///       <State>/turn          (never matches) where a user turn is evaluated
///       <State>/route[i], <State>/group 'G' route[i], <State>/flow route[i] …   intent routes (the page's own, its
///                             route groups', the flow's own, the flow's groups'), then condition routes (page, groups)
///       <State>/no-match      anything else: the no-match handler, then stay
///
/// A route that names no target stays on its page (waits at `<State>/turn` again).
struct DialogflowCXNodeBuilder {
    typealias Source = DialogflowCXDialogueImporter
    let language: String
    let intents: Set<String>
    let entityTypes: Set<String>
    let flows: [Source.FlowSource]
    /// The agent's route groups (`transitionRouteGroups/` beside `flows/`), listed by any flow or page.
    let agentRouteGroups: [Source.RouteGroupSource]
    var warnings: [String] = []

    init(language: String, intents: Set<String>, entityTypes: Set<String>, flows: [Source.FlowSource],
         agentRouteGroups: [Source.RouteGroupSource] = []) {
        self.language = language
        self.intents = intents
        self.entityTypes = entityTypes
        self.flows = flows
        self.agentRouteGroups = agentRouteGroups
    }

    /// One state of the session: where a route can lead and the session waits.
    private struct State {
        let id: String
        /// How warnings name it: `flow 'F'`, `flow 'F', page 'P'`.
        let label: String
        let file: String
        let flow: Source.FlowSource
        let page: Source.Page?
    }

    /// A route in scope on a state, with where it is written: `name` makes its node ids (`<State>/<name>`,
    /// `<State>/entry <name>`), `field`, `file` and `label` name it in errors and warnings.
    private struct ScopedRoute {
        let route: Source.Route
        let name: String
        let field: String
        let file: String
        let label: String
    }

    /// The node where a user turn on `state` is evaluated.
    func firstTurnRoute(ofState state: String) -> String { state + "/turn" }

    private func stateID(flow: Source.FlowSource, page: String?) -> String {
        guard let page else { return flow.name }
        return flow.name == flows.first?.name ? page : "\(flow.name): \(page)"
    }

    mutating func nodes() throws -> [DialogueNode] {
        var nodes: [DialogueNode] = []
        for flow in flows {
            nodes += try stateNodes(State(id: stateID(flow: flow, page: nil), label: "flow '\(flow.name)'", file: flow.file, flow: flow, page: nil))
            for (page, file) in flow.pages {
                let name = page.displayName ?? file
                nodes += try stateNodes(State(id: stateID(flow: flow, page: name), label: "flow '\(flow.name)', page '\(name)'",
                                              file: file, flow: flow, page: page))
            }
        }
        return nodes
    }

    private mutating func stateNodes(_ state: State) throws -> [DialogueNode] {
        let page = state.page
        let parameters = page?.form?.parameters ?? []
        let required = parameters.filter { $0.required == true }.map(\.displayName)
        // Routes in scope, in CX's order. On a start page: the flow's intent routes (its own, then its route
        // groups'), then its condition routes; on a page: its intent routes (own, then its groups'), the flow's
        // intent routes (own, then the flow's groups'), then its condition routes (own, then its groups').
        // A flow's routes are reported once, by the flow, however many pages they are in scope on.
        let flow = state.flow
        let flowLabel = "flow '\(flow.name)'"
        let flowListed = try listedRoutes(own: flow.flow.transitionRoutes ?? [], groups: flow.flow.transitionRouteGroups ?? [],
                                          flow: flow, file: flow.file, label: flowLabel, ownName: page == nil ? "route" : "flow route",
                                          groupName: page == nil ? "group" : "flow group")
        let listed = try page.map {
            try listedRoutes(own: $0.transitionRoutes ?? [], groups: $0.transitionRouteGroups ?? [], flow: flow, file: state.file,
                             label: state.label, ownName: "route", groupName: "group")
        } ?? flowListed
        var routes = listed.filter { $0.route.intent != nil }
        if page != nil { routes += flowListed.filter { $0.route.intent != nil } }
        let conditionRoutes = listed.filter { $0.route.intent == nil }
        routes += conditionRoutes

        var children: [DialogueNode] = []
        let stay = DialogueNode.Next(action: .jump, target: firstTurnRoute(ofState: state.id), selector: .userInput)
        var handlers: [SlotHandler] = []
        if !parameters.isEmpty {
            var slots: [DialogueSlot] = []
            for (index, parameter) in parameters.enumerated() {
                slots.append(try slot(parameter, state: state, field: "form.parameters[\(index)]"))
            }
            for scoped in routes where scoped.route.intent != nil {
                let (condition, context, responses) = try routeParts(scoped, required: required)
                let next = try transition(scoped, from: state)
                handlers.append(SlotHandler(condition: condition, context: context, responses: responses, next: next))
            }
            for scoped in conditionRoutes where !(scoped.route.condition ?? "").contains("$page.params.status") {
                warnings.append("\(scoped.label): \(scoped.field): a condition route is evaluated once the form is complete, not while it collects")
            }
            children.append(DialogueNode(id: state.id + "/form", parent: state.id, slots: slots, slotHandlers: handlers,
                                         next: .init(action: .jump, target: state.id + "/entry", selector: .condition)))
        }
        children.append(DialogueNode(id: state.id + "/entry", parent: state.id))
        for scoped in conditionRoutes {
            let (condition, context, responses) = try routeParts(scoped, required: required)
            children.append(DialogueNode(id: "\(state.id)/entry \(scoped.name)", parent: state.id, condition: condition, context: context,
                                         responses: responses, next: try transition(scoped, from: state) ?? stay))
        }
        children.append(DialogueNode(id: state.id + "/wait", parent: state.id, condition: "true", next: stay))
        children.append(DialogueNode(id: firstTurnRoute(ofState: state.id), parent: state.id))
        for scoped in routes {
            let (condition, context, responses) = try routeParts(scoped, required: required)
            children.append(DialogueNode(id: "\(state.id)/\(scoped.name)", parent: state.id, condition: condition, context: context,
                                         responses: responses, next: try transition(scoped, from: state) ?? stay))
        }
        // No-match: the page's handler, else the flow's; other events cannot happen to typed text or are not mapped.
        var noMatch: (handler: Source.EventHandler, field: String, file: String, label: String)?
        for (eventHandlers, file, label) in [(page?.eventHandlers ?? [], state.file, state.label), (state.flow.flow.eventHandlers ?? [], state.flow.file, flowLabel)] {
            for (index, handler) in eventHandlers.enumerated() {
                if handler.event == "sys.no-match-default" {
                    if noMatch == nil { noMatch = (handler, "eventHandlers[\(index)]", file, label) }
                } else {
                    warnings.append("\(label): eventHandlers[\(index)]: event '\(handler.event ?? "")' is not mapped")
                }
            }
        }
        var noMatchNode = DialogueNode(id: state.id + "/no-match", parent: state.id, condition: "anything_else", next: stay)
        if let noMatch {
            let (handler, field, file, label) = noMatch
            let (context, responses) = try fulfillment(handler.triggerFulfillment, label: label, field: field + ".triggerFulfillment")
            noMatchNode.context = context
            noMatchNode.responses = responses
            noMatchNode.next = try transition(page: handler.targetPage, flow: handler.targetFlow, from: state, label: label,
                                              field: field, file: file) ?? stay
        }
        children.append(noMatchNode)

        let (context, responses) = try fulfillment(page?.entryFulfillment, label: state.label, field: "entryFulfillment")
        let next: DialogueNode.Next = parameters.isEmpty
            ? .init(action: .jump, target: state.id + "/entry", selector: .condition)
            : .init(action: .jump, target: state.id + "/form", selector: .body)
        return [DialogueNode(id: state.id, title: state.label, context: context, responses: responses, next: next)] + children
    }

    /// The routes a page or flow lists itself (`<ownName>[i]`), then those of the route groups it lists, in
    /// its order (`<groupName> '<Group>' route[i]`); a group is the flow's of that name, else the agent's.
    /// - Throws: `JSONFileError` naming `file` and the field when a listed group is neither.
    private func listedRoutes(own: [Source.Route], groups: [String], flow: Source.FlowSource, file: String, label: String,
                              ownName: String, groupName: String) throws -> [ScopedRoute] {
        var routes = own.enumerated().map { index, route in
            ScopedRoute(route: route, name: "\(ownName)[\(index)]", field: "transitionRoutes[\(index)]", file: file, label: label)
        }
        for (index, reference) in groups.enumerated() {
            // Exports list a group by display name; the API by resource name (`…/transitionRouteGroups/<id>`).
            let id = reference.components(separatedBy: "/transitionRouteGroups/").last ?? reference
            func matches(_ source: Source.RouteGroupSource) -> Bool {
                source.name == reference || source.group.name.map { $0 == id || $0.hasSuffix("/" + id) } == true
            }
            guard let source = flow.routeGroups.first(where: matches) ?? agentRouteGroups.first(where: matches) else {
                let known = (flow.routeGroups + agentRouteGroups).map(\.name)
                throw JSONFileError(file: file, field: "transitionRouteGroups[\(index)]",
                                    reason: "'\(reference)' names no route group of flow '\(flow.name)' or of the agent (its route groups: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
            }
            let groupLabel = "\(label), route group '\(source.name)'"
            for (routeIndex, route) in (source.group.transitionRoutes ?? []).enumerated() {
                routes.append(ScopedRoute(route: route, name: "\(groupName) '\(source.name)' route[\(routeIndex)]",
                                          field: "transitionRoutes[\(routeIndex)]", file: source.file, label: groupLabel))
            }
        }
        return routes
    }

    /// A route's condition (its intent and its condition, both when both are set), context and responses.
    private mutating func routeParts(_ scoped: ScopedRoute,
                                     required: [String]) throws -> (String, [String: DialogueValue], [DialogueResponse]) {
        let (route, label, field, file) = (scoped.route, scoped.label, scoped.field, scoped.file)
        var parts: [String] = []
        if let intent = route.intent {
            guard intents.contains(intent) else {
                throw JSONFileError(file: file, field: field + ".intent", reason: "'\(intent)' is not an intent of the agent's intents/")
            }
            parts.append("(\(IntentCondition.matching(intent)))")
        }
        if let condition = route.condition, !condition.isEmpty {
            let (expression, problem) = DialogflowCXExpressions.condition(condition, required: required)
            if let expression {
                parts.append("(\(expression))")
            } else {
                warnings.append("\(label): \(field): condition '\(condition)' is not supported (\(problem ?? "")); the route never matches")
                parts.append("false")
            }
        }
        let (context, responses) = try fulfillment(route.triggerFulfillment, label: label, field: field + ".triggerFulfillment")
        return (parts.isEmpty ? "false" : parts.joined(separator: " && "), context, responses)
    }

    /// Where a route leads; `nil` when it names no target (the session stays on the page).
    private mutating func transition(_ scoped: ScopedRoute, from state: State) throws -> DialogueNode.Next? {
        try transition(page: scoped.route.targetPage, flow: scoped.route.targetFlow, from: state, label: scoped.label,
                       field: scoped.field, file: scoped.file)
    }

    /// Where a route or handler leads; `nil` when it names no target (the session stays on the page).
    private mutating func transition(page target: String?, flow: String?, from state: State, label: String, field: String,
                                     file: String) throws -> DialogueNode.Next? {
        func jump(_ id: String) -> DialogueNode.Next { .init(action: .jump, target: id, selector: .body) }
        if let flowName = flow {
            guard let targetFlow = flows.first(where: { $0.name == flowName }) else {
                throw JSONFileError(file: file, field: field + ".targetFlow", reason: "'\(flowName)' names no flow of the agent (its flows: \(flows.map(\.name).joined(separator: ", ")))")
            }
            return jump(stateID(flow: targetFlow, page: nil))
        }
        guard let target else { return nil }
        switch target {
        case "End Session", "END_SESSION":
            return jump(Source.endOfSession)
        case "End Flow", "END_FLOW":
            if state.flow.name != flows.first?.name {
                warnings.append("\(label): \(field): End Flow goes to the start flow's start page (CX returns to the page that started the flow)")
                return jump(stateID(flow: flows[0], page: nil))
            }
            // Ending the start flow ends the session.
            return jump(Source.endOfSession)
        case "Start", "START_PAGE":
            return jump(stateID(flow: state.flow, page: nil))
        case "Current Page", "CURRENT_PAGE":
            return jump(state.id)
        case "Previous Page", "PREVIOUS_PAGE":
            warnings.append("\(label): \(field): Previous Page is not mapped; the session stays on the page")
            return nil
        default:
            guard state.flow.pages.contains(where: { $0.page.displayName == target }) else {
                let pages = state.flow.pages.compactMap(\.page.displayName)
                throw JSONFileError(file: file, field: field + ".targetPage",
                                    reason: "'\(target)' names no page of flow '\(state.flow.name)' (its pages: \(pages.isEmpty ? "none" : pages.joined(separator: ", ")))")
            }
            return jump(stateID(flow: state.flow, page: target))
        }
    }

    private mutating func slot(_ parameter: Source.FormParameter, state: State, field: String) throws -> DialogueSlot {
        let name = parameter.displayName
        guard SlotPlaceholders.isName(name) else {
            throw JSONFileError(file: state.file, field: field + ".displayName",
                                reason: "'\(name)' is not a parameter name NLUKit can hold (letters, digits, '_' and '-')")
        }
        let type = String((parameter.entityType ?? "").drop { $0 == "@" })
        guard type.hasPrefix("sys.") || entityTypes.contains(type) else {
            throw JSONFileError(file: state.file, field: field + ".entityType",
                                reason: "'\(parameter.entityType ?? "")' is neither a system entity (@sys.…) nor an entity type of the agent's entityTypes/")
        }
        let label = "\(state.label), parameter '\(name)'"
        if parameter.isList == true { warnings.append("\(label): a list parameter takes the first mention only") }
        if let value = parameter.defaultValue, value != .null { warnings.append("\(label): defaultValue is not mapped") }
        var prompt: [DialogueResponse] = []
        if parameter.required == true {
            let initial = parameter.fillBehavior?.initialPromptFulfillment
            (_, prompt) = try fulfillment(initial, label: label, field: field + ".fillBehavior.initialPromptFulfillment")
            if !(initial?.setParameterActions ?? []).isEmpty { warnings.append("\(label): the initial prompt's parameter presets are not mapped") }
            if prompt.isEmpty { warnings.append("\(label): required without a prompt in '\(language)'; collected only when given") }
        }
        var noMatch: [ConditionalResponse] = []
        for (index, handler) in (parameter.fillBehavior?.repromptEventHandlers ?? []).enumerated() {
            let handlerField = "\(field).fillBehavior.repromptEventHandlers[\(index)]"
            guard handler.event == "sys.no-match-default" else {
                warnings.append("\(label): reprompt handler '\(handler.event ?? "")' is not mapped (every no-match gets sys.no-match-default, else the initial prompt)")
                continue
            }
            if handler.targetPage != nil || handler.targetFlow != nil { warnings.append("\(label): \(handlerField): the reprompt handler's transition is not mapped") }
            let (context, responses) = try fulfillment(handler.triggerFulfillment, label: label, field: handlerField + ".triggerFulfillment")
            noMatch = [ConditionalResponse(context: context.isEmpty ? nil : context, responses: responses)]
        }
        // The intent model tags a parameter's values with the entity type's name (`size`, `sys.number`). A template
        // reads `@sys` before a dot, an expression the whole system name: the value is written as one.
        let value: DialogueValue? = type.contains(".") ? .string("<? @\(type) ?>") : nil
        return DialogueSlot(variable: name, entity: type, value: value, prompt: prompt, noMatch: noMatch)
    }

    /// A fulfillment's context (its parameter presets) and responses (its messages in the agent's language).
    private mutating func fulfillment(_ fulfillment: Source.Fulfillment?, label: String,
                                      field: String) throws -> ([String: DialogueValue], [DialogueResponse]) {
        guard let fulfillment else { return ([:], []) }
        if let webhook = fulfillment.webhook, !webhook.isEmpty { warnings.append("\(label): \(field): webhook '\(webhook)' is not called") }
        if fulfillment.conditionalCases != nil { warnings.append("\(label): \(field): conditional cases are not mapped") }
        var context: [String: DialogueValue] = [:]
        for action in fulfillment.setParameterActions ?? [] {
            if case .string(let text)? = action.value {
                context[action.parameter] = .string(template(text, label: label, field: field))
            } else {
                context[action.parameter] = action.value ?? .null
            }
        }
        var responses: [DialogueResponse] = []
        for (index, message) in (fulfillment.messages ?? []).enumerated() {
            if let code = message["languageCode"]?.string, code != language { continue }
            if let channel = message["channel"]?.string, !channel.isEmpty {
                warnings.append("\(label): \(field).messages[\(index)]: a message for channel '\(channel)' is not mapped")
                continue
            }
            if let text = message["text"]?["text"], case .array(let values) = text {
                let texts = values.compactMap(\.string).map { template($0, label: label, field: "\(field).messages[\(index)]") }.filter { !$0.isEmpty }
                if !texts.isEmpty { responses.append(.text(values: texts, selection: .random)) }
            } else if let payload = message["payload"] {
                responses.append(.payload(templates(in: payload, label: label, field: "\(field).messages[\(index)].payload")))
            } else {
                let rest = message.filter { $0.key != "languageCode" && $0.key != "channel" }
                guard !rest.isEmpty else { continue }
                warnings.append("\(label): \(field).messages[\(index)]: \(rest.keys.sorted().joined(separator: ", ")) kept as a payload")
                responses.append(.payload(.object(rest)))
            }
        }
        return (context, responses)
    }

    /// A payload's strings as templates: CX resolves parameter references in custom payloads too.
    private mutating func templates(in value: DialogueValue, label: String, field: String) -> DialogueValue {
        switch value {
        case .string(let text): return .string(template(text, label: label, field: field))
        case .array(let values): return .array(values.map { templates(in: $0, label: label, field: field) })
        case .object(let members): return .object(members.mapValues { templates(in: $0, label: label, field: field) })
        case .null, .bool, .number: return value
        }
    }

    private mutating func template(_ text: String, label: String, field: String) -> String {
        let (result, unsupported) = DialogflowCXExpressions.template(text)
        for reference in unsupported { warnings.append("\(label): \(field): \(reference) is not supported; left out") }
        return result
    }
}

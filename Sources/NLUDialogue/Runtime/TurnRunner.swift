/// Runs one turn of a conversation, following Watson Assistant's evaluation order:
///
/// 1. A node filling slots takes the turn first (its handlers, then every slot's condition); a turn that
///    fills nothing may digress (``DialogueNode/digressOutSlots``) or gets the slot's no-match answer.
/// 2. Otherwise the turn starts where the last one left off: the children of the node that answered, or the
///    target of a `userInput` jump and its following siblings; if none matches, the root nodes are evaluated
///    as a digression (``DialogueNode/digressOut`` says which root nodes may take it).
/// 3. Without a position, the root nodes are evaluated top to bottom; the first whose condition holds answers
///    (a folder's children are evaluated in its place); when none does, the dialogue's fallback answers.
///
/// A node that answers sets its context, gives its responses (then the first conditional response that holds),
/// and follows its next step: wait (at its children, if it has any), evaluate its children at once, or jump.
/// When a branch ends with a digression to return from, the interrupted node's responses (or slot prompt) are
/// given again.
struct TurnRunner {
    /// Digressions nest at most this deep; a deeper one does not return.
    static let maximumReturns = 16

    let dialogue: Dialogue
    let message: ParsedMessage
    var state: DialogueState
    // Internal, not private: the rule runner (``RuleRunner``) gives responses through this runner.
    var responses: [DialogueOutput] = []
    var visited: [String] = []
    var warnings: [String] = []
    private var steps = 0
    private var isReturning = false

    init(dialogue: Dialogue, message: ParsedMessage, state: DialogueState) {
        self.dialogue = dialogue
        self.message = message
        self.state = state
    }

    var turn: DialogueTurn { DialogueTurn(responses: responses, state: state, visited: visited, warnings: warnings) }

    private var scope: EvaluationScope {
        EvaluationScope(message: message, context: state.context, isFirstTurn: state.turn == 0, isReturning: isReturning,
                        intentThreshold: dialogue.model.settings.intentThreshold)
    }

    mutating func run() throws(DialogueError) {
        let position = state.position
        state.position = nil
        switch position {
        case .slot(let frame, let slot)?:
            try continueSlots(frame, asked: slot)
        case .confirmation(let frame)?:
            try continueConfirmation(frame)
        case .children(let node)?:
            if try !evaluate(children(of: node)) {
                try digress(from: .children(node: node), mode: dialogue.nodes[node]?.node.digressOut ?? .allowReturning)
            }
        case .jumpTarget(let node)?:
            if try !evaluate(siblings(from: node)) { try evaluateRoot() }
        case nil:
            try evaluateRoot()
        }
        state.turn += 1
    }

    // MARK: evaluation

    private func children(of id: String) -> [String] { dialogue.children[id] ?? [] }

    /// `id` and the siblings listed after it.
    private func siblings(from id: String) -> [String] {
        let list = dialogue.nodes[id]?.node.parent.map(children(of:)) ?? dialogue.roots
        guard let index = list.firstIndex(of: id) else { return [id] }
        return Array(list[index...])
    }

    private mutating func evaluateRoot() throws(DialogueError) {
        if try !evaluate(dialogue.roots) { give(dialogue.fallback, key: "fallback") }
    }

    /// Evaluates `candidates` in order (folders opened in place) and runs the first whose condition holds.
    /// `returnTo`: a digression's origin, pushed when the root node taken returns.
    private mutating func evaluate(_ candidates: [String], allowed: ((CompiledNode) -> Bool)? = nil,
                                   returnTo origin: DialogueState.Position? = nil) throws(DialogueError) -> Bool {
        for id in candidates {
            guard let node = dialogue.nodes[id], !node.node.disabled else { continue }
            if let allowed, !allowed(node) { continue }
            if node.node.kind == .folder {
                if let condition = node.condition, !scope.holds(condition) { continue }
                let returns = origin != nil && node.node.digressIn == .returns
                if try evaluate(children(of: id), returnTo: returns ? origin : nil) { return true }
                continue
            }
            guard let condition = node.condition, scope.holds(condition) else { continue }
            // A digression returns when the node taken is set to, or is the fallback (Watson returns after
            // `anything_else` too); inside a returning folder every child does.
            if let origin, node.node.digressIn == .returns || node.isFallback || allowed == nil, state.returns.count < Self.maximumReturns {
                state.returns.append(origin)
            }
            try fire(id)
            return true
        }
        return false
    }

    /// The user's turn matched none of the expected nodes: evaluate the root nodes that `mode` allows.
    private mutating func digress(from origin: DialogueState.Position, mode: DialogueNode.DigressOut) throws(DialogueError) {
        let allowed: (CompiledNode) -> Bool
        switch mode {
        case .allowReturning: allowed = { $0.node.digressIn == .returns || $0.isFallback }
        case .allowAll, .allowAllNeverReturn: allowed = { $0.node.digressIn != .notAvailable }
        }
        let returnTo = mode == .allowAllNeverReturn ? nil : origin
        if try !evaluate(dialogue.roots, allowed: allowed, returnTo: returnTo) {
            give(dialogue.fallback, key: "fallback")
        }
    }

    // MARK: running a node

    private mutating func step(_ id: String) throws(DialogueError) {
        visited.append(id)
        try countStep()
    }

    /// Counts one node run against the turn's limit: loops of jumps through conditions end here.
    private mutating func countStep() throws(DialogueError) {
        steps += 1
        let limit = dialogue.model.settings.maxStepsPerTurn
        if steps > limit { throw .stepLimitExceeded(limit: limit, lastNodes: Array(visited.suffix(8))) }
    }

    /// Runs node `id` (its condition already checked, or skipped by a `body` jump).
    private mutating func fire(_ id: String) throws(DialogueError) {
        try step(id)
        guard let node = dialogue.nodes[id] else { return }
        if node.node.kind == .folder {
            if try !evaluate(children(of: id)) { try finishBranch() }
            return
        }
        if !node.slots.isEmpty {
            fillSlots(node)
            try proceedWithSlots(node)
            return
        }
        try answer(node)
    }

    /// The node's answer: context, responses, the first conditional response that holds, then the next step.
    private mutating func answer(_ node: CompiledNode) throws(DialogueError) {
        apply(node.context)
        give(node.responses, key: node.id)
        var next = node.node.next
        if let conditional = node.conditionalResponses.first(where: { $0.condition.map(scope.holds) ?? true }) {
            if let id = conditional.id { visited.append(id) }
            apply(conditional.context)
            give(conditional.responses, key: conditional.id ?? node.id + "/conditional")
            if let replacement = conditional.next { next = replacement }
        }
        try follow(next, from: node.id)
    }

    /// Goes on from node `id` as `next` says.
    private mutating func follow(_ next: DialogueNode.Next, from id: String) throws(DialogueError) {
        switch next.action {
        case .wait:
            if children(of: id).isEmpty { try finishBranch() } else { state.position = .children(node: id) }
        case .skipUserInput:
            if try !evaluate(children(of: id)) { try evaluateRoot() }
        case .jump:
            guard let target = next.target else { return }
            switch next.selector ?? .condition {
            case .body:
                try fire(target)
            case .condition:
                try countStep()
                if try !evaluate(siblings(from: target)) { try evaluateRoot() }
            case .userInput:
                state.position = .jumpTarget(node: target)
            }
        }
    }

    /// A branch ended without waiting at children: go back to an interrupted flow, if a digression left one.
    private mutating func finishBranch() throws(DialogueError) {
        guard let origin = state.returns.popLast() else { return }
        isReturning = true
        switch origin {
        case .children(let id):
            guard let node = dialogue.nodes[id] else { return }
            give(node.responses, key: id)
            if let conditional = node.conditionalResponses.first(where: { $0.condition.map(scope.holds) ?? true }) {
                give(conditional.responses, key: conditional.id ?? id + "/conditional")
            }
            state.position = .children(node: id)
        case .slot(let frame, _), .confirmation(let frame):
            guard let node = dialogue.nodes[frame] else { return }
            try proceedWithSlots(node)
        case .jumpTarget:
            state.position = origin
        }
    }

    // MARK: slots

    /// Every slot whose condition holds takes its value (also one filled before: the user corrects it).
    /// Returns the slots filled.
    @discardableResult
    private mutating func fillSlots(_ node: CompiledNode) -> [CompiledSlot] {
        var filled: [CompiledSlot] = []
        for slot in node.slots where scope.holds(slot.condition) {
            var unset: [String] = []
            let value = slot.value.value(in: scope, unset: &unset)
            guard value != .null else { continue }
            state.context[slot.variable] = value
            apply(slot.context)
            if let response = slot.filled.first(where: { $0.condition.map(scope.holds) ?? true }) {
                apply(response.context)
                give(response.responses, key: "\(node.id)/\(slot.variable)/filled")
            }
            filled.append(slot)
        }
        return filled
    }

    /// Asks for the first required slot still empty, then the confirmation, then answers.
    private mutating func proceedWithSlots(_ node: CompiledNode) throws(DialogueError) {
        if let slot = node.slots.first(where: { $0.isRequired && (state.context[$0.variable] ?? .null) == .null }) {
            give(slot.prompt, key: "\(node.id)/\(slot.variable)/prompt")
            state.position = .slot(frame: node.id, slot: slot.variable)
            return
        }
        if let confirmation = node.confirmation {
            give(confirmation.prompt, key: "\(node.id)/confirmation")
            state.position = .confirmation(frame: node.id)
            return
        }
        try answer(node)
    }

    private mutating func continueSlots(_ frame: String, asked: String) throws(DialogueError) {
        guard let node = dialogue.nodes[frame], let slot = node.slots.first(where: { $0.variable == asked }) else { return }
        visited.append(frame)
        if let handler = node.slotHandlers.first(where: { scope.holds($0.condition) }) {
            apply(handler.context)
            give(handler.responses, key: "\(frame)/handler")
            if let next = handler.next {
                try follow(next, from: frame)
                return
            }
            switch handler.action {
            case .reprompt:
                try proceedWithSlots(node)
            case .skipAllSlots:
                try answer(node)
            case .cancel:
                for slot in node.slots { state.context[slot.variable] = nil }
                try finishBranch()
            }
            return
        }
        let filled = fillSlots(node)
        if filled.isEmpty {
            let origin = DialogueState.Position.slot(frame: frame, slot: asked)
            switch node.node.digressOutSlots {
            case .notAllowed: break
            case .allowReturning, .allowAll:
                let mode: DialogueNode.DigressOut = node.node.digressOutSlots == .allowAll ? .allowAll : .allowReturning
                let before = visited.count
                let allowed: (CompiledNode) -> Bool = mode == .allowAll
                    ? { $0.node.digressIn != .notAvailable && !$0.isFallback }
                    : { $0.node.digressIn == .returns }
                if try evaluate(dialogue.roots, allowed: allowed, returnTo: origin) { return }
                visited.removeSubrange(before...)
            }
            if let response = slot.noMatch.first(where: { $0.condition.map(scope.holds) ?? true }) {
                apply(response.context)
                give(response.responses, key: "\(frame)/\(asked)/noMatch")
                state.position = origin
                return
            }
        }
        try proceedWithSlots(node)
    }

    private mutating func continueConfirmation(_ frame: String) throws(DialogueError) {
        guard let node = dialogue.nodes[frame], let confirmation = node.confirmation else { return }
        visited.append(frame)
        if scope.holds(confirmation.yes) {
            try answer(node)
        } else if scope.holds(confirmation.no) {
            give(confirmation.denied, key: "\(frame)/denied")
            for slot in node.slots { state.context[slot.variable] = nil }
            fillSlots(node)
            try proceedWithSlots(node)
        } else {
            fillSlots(node)
            try proceedWithSlots(node)
        }
    }

    // MARK: context and responses

    private mutating func apply(_ context: CompiledContext) {
        for update in context {
            var unset: [String] = []
            let value = update.value.value(in: scope, unset: &unset)
            report(unset)
            state.context[update.key] = value
        }
    }

    mutating func report(_ unset: [String]) {
        for name in unset where !warnings.contains("\(name) has no value") { warnings.append("\(name) has no value") }
    }

    private mutating func render(_ template: TextTemplate) -> String {
        var unset: [String] = []
        // A rule dialogue is Rasa's: its responses print values as Python does, an unset slot as `None` (no
        // warning: that is the text Rasa gives); elsewhere an unset reference renders as nothing, with a warning.
        let isRasa = dialogue.model.rules != nil
        let text = template.render(in: scope, unset: &unset, python: isRasa)
        if !isRasa { report(unset) }
        return text
    }

    /// Gives `list`; `key` names the responses for their sequential counters.
    mutating func give(_ list: [CompiledResponse], key: String) {
        for (index, response) in list.enumerated() {
            switch response {
            case .text(let values, let selection):
                guard !values.isEmpty else { continue }
                switch selection {
                case .multiline:
                    for value in values { responses.append(.text(render(value))) }
                case .sequential:
                    let counter = "\(key)#\(index)"
                    let given = state.counters[counter] ?? 0
                    state.counters[counter] = given + 1
                    responses.append(.text(render(values[min(given, values.count - 1)])))
                case .random:
                    let pick = Int(state.nextRandom() % UInt64(values.count))
                    responses.append(.text(render(values[pick])))
                }
            case .options(let title, let description, let preference, let options):
                let rendered = options.map { DialogueResponse.Option(label: render($0.label), value: render($0.value)) }
                responses.append(.options(title: render(title), description: description.map { render($0) },
                                          preference: preference, options: rendered))
            case .image(let source, let title, let description):
                responses.append(.image(source: render(source), title: title.map { render($0) }, description: description.map { render($0) }))
            case .pause(let milliseconds, let typing):
                responses.append(.pause(milliseconds: milliseconds, typing: typing))
            case .payload(let payload):
                var unset: [String] = []
                let value = payload.value(in: scope, unset: &unset)
                report(unset)
                responses.append(.payload(value))
            }
        }
    }
}

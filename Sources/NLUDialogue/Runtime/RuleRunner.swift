/// Runs one turn of a rule dialogue (``DialogueRules``), as Rasa's processor does: the user's message is
/// recorded and fills the slots whose mappings apply, then actions run one after the other, each chosen by
/// ``RulePredictor``, until the prediction is to wait for the user. An action is a named response (given), a
/// form (``runForm(_:)``), `action_deactivate_loop` (stops the running form), or another name: a custom
/// action of the source platform, which cannot run here (a warning says so; the conversation goes on).
struct RuleRunner {
    static let deactivateActions: Set<String> = ["action_deactivate_loop", "action_deactivate_form"]
    static let requestedSlot = "requested_slot"
    /// Rasa's `action_restart`: says `utter_restart` when the domain has it, then the conversation starts
    /// over (``Dialogue`` clears the state and runs the opening turn: Rasa's `Restarted` event and the
    /// `action_session_start` that follows it).
    static let restartAction = "action_restart"
    static let restartResponse = "utter_restart"
    /// Rasa's `action_back`: says `utter_back` when the domain has it, then takes back the user's last two
    /// messages (the `back` itself and the one before) with what followed them (Rasa's two
    /// `UserUtteranceReverted`), and waits.
    static let backAction = "action_back"
    static let backResponse = "utter_back"
    /// Rasa's `action_session_start` (the intent `session_start`): the turn ends and a new session starts
    /// (``Dialogue`` resets the state, ``DialogueSession``); nothing is said.
    static let sessionStartAction = "action_session_start"
    /// Rasa's RulePolicy fallback (its `core_fallback_action_name` by default): says `utter_default` when the domain
    /// has it, then takes the user's message back; predicted whenever nothing else is (``RulePredictor``).
    static let defaultFallbackAction = "action_default_fallback"
    /// Rasa's `MAX_NUMBER_OF_PREDICTIONS` (its default): the actions since the bot last waited for the user after
    /// which Rasa's processor stops predicting (its circuit breaker).
    static let maximumActionsPerMessage = 10
    static let defaultFallbackResponse = "utter_default"

    let rules: DialogueRules
    let forms: [String: DialogueForm]
    let predictor: RulePredictor
    /// Renders responses and holds the turn's output and the state.
    var base: TurnRunner
    var tracker: RuleTracker
    /// Slots set since the user's message (a form that gets none of its slots rejects the message).
    private var filledThisTurn: Set<String> = []
    /// `action_restart` ran: the turn ends, and the conversation starts over.
    private(set) var restarted = false
    /// `action_session_start` ran: the turn ends, and a new session starts.
    private(set) var sessionStarted = false
    /// When the message came (seconds since 1970): a session expires from the user's last message.
    let now: Double
    /// The form that rejected the message, until another action runs (it is not predicted again meanwhile).
    private var justRejected: String?

    init(dialogue: Dialogue, message: ParsedMessage, state: DialogueState, now: Double) {
        self.now = now
        rules = dialogue.model.rules ?? DialogueRules()
        forms = Dictionary(rules.forms.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        predictor = RulePredictor(rules: rules)
        base = TurnRunner(dialogue: dialogue, message: message, state: state)
        tracker = state.tracker ?? RuleTracker()
    }

    var turn: DialogueTurn {
        var turn = base.turn
        turn.state.tracker = tracker
        return turn
    }

    var message: ParsedMessage { base.message }

    /// The top intent when it reaches the dialogue's threshold.
    var intent: String? {
        guard let top = message.intents.first, top.confidence >= base.dialogue.model.settings.intentThreshold else { return nil }
        return top.intent
    }

    mutating func run() throws(DialogueError) {
        if base.state.turn == 0 {
            for slot in rules.slots { if let initial = slot.initialValue { base.state.context[slot.name] = initial } }
        }
        // The opening turn of `nlu dialogue chat` (no text, nothing recognized) starts the conversation only.
        let isEmpty = message.text.isEmpty && message.intents.isEmpty && message.entities.isEmpty
        // After Rasa's circuit breaker nothing waited for the user: the actions keep counting into the next message.
        if tracker.latestAction != RulePredictor.listen, tracker.actionsSinceListen < Self.maximumActionsPerMessage {
            tracker.append(.action(RulePredictor.listen))
        }
        if !isEmpty {
            receive()
            try act()
        }
        base.state.turn += 1
    }

    /// Records the user's message and fills the slots it maps to.
    mutating func receive() {
        tracker.append(.user(intent: intent, entities: message.entities.map(\.entity)))
        // Only a dialogue whose sessions expire keeps the time (a state without it stays the same from run to run).
        if (rules.session?.expirationMinutes ?? 0) > 0 { tracker.lastUserMessageAt = now }
        filledThisTurn = []
        extractSlots(activating: nil)
    }

    /// Predicts and runs actions until the bot waits for the user.
    mutating func act() throws(DialogueError) {
        var steps = 0
        while true {
            // Rasa's circuit breaker: 10 actions since the bot last waited stop the predictions, and nothing records
            // a wait, so every later message of the conversation (a restart too) trips it again before any action
            // (Rasa 3.6's processor; a new session ends it).
            if tracker.latestAction != RulePredictor.listen, tracker.actionsSinceListen >= Self.maximumActionsPerMessage {
                let warning = "Rasa's limit of \(Self.maximumActionsPerMessage) actions since the bot last waited is reached (its circuit breaker): no action runs"
                if !base.warnings.contains(warning) { base.warnings.append(warning) }
                return
            }
            var prediction = predictor.predict(tracker, slots: base.state.context)
            // A form that just rejected the message is not run again for it (Rasa's ensemble gives a rejected
            // action no probability): the fallback answers instead.
            if let rejected = justRejected, prediction.action == rejected {
                prediction = RulePredictor.Prediction(action: rules.fallbackAction ?? RulePredictor.listen, source: "fallback after rejection")
            }
            if prediction.action == RulePredictor.listen {
                tracker.append(.action(RulePredictor.listen))
                return
            }
            steps += 1
            if steps > base.dialogue.model.settings.maxStepsPerTurn {
                throw .stepLimitExceeded(limit: base.dialogue.model.settings.maxStepsPerTurn, lastNodes: Array(base.visited.suffix(5)))
            }
            run(prediction.action)
            if restarted || sessionStarted { return }
            if prediction.action == Self.backAction {
                if tracker.latestAction != RulePredictor.listen { tracker.append(.action(RulePredictor.listen)) }
                return
            }
            // Rasa's fallback takes the user's message back (a form's rejection of it, the slots it set and what
            // followed it: `UserUtteranceReverted`) and waits. Another fallback action (a `core_fallback_action_name`
            // of the domain's) takes nothing back: the policies predict again, the fallback again when nothing else
            // applies, up to the circuit breaker.
            if prediction.source.hasPrefix("fallback"), prediction.action == Self.defaultFallbackAction {
                takeBack(userMessages: 1)
                if tracker.latestAction != RulePredictor.listen { tracker.append(.action(RulePredictor.listen)) }
                return
            }
        }
    }

    /// Runs `action`; a form that rejects the message leaves no trace but the rejection.
    mutating func run(_ action: String) {
        if let form = forms[action] {
            if runForm(form) {
                base.visited.append(action)
                justRejected = nil
            } else {
                tracker.loopRejected = true
                justRejected = action
            }
            return
        }
        justRejected = nil
        base.visited.append(action)
        tracker.append(.action(action))
        if Self.deactivateActions.contains(action) {
            deactivate()
        } else if action == Self.backAction {
            if let responses = base.dialogue.namedResponses[Self.backResponse] { base.give(responses, key: Self.backResponse) }
            takeBack(userMessages: 2)
        } else if action == Self.restartAction {
            if let responses = base.dialogue.namedResponses[Self.restartResponse] { base.give(responses, key: Self.restartResponse) }
            restarted = true
        } else if action == Self.sessionStartAction {
            sessionStarted = true
        } else if action == Self.defaultFallbackAction {
            // Says utter_default when the domain has it (Rasa's is silent otherwise); act() then takes the message back.
            if let responses = base.dialogue.namedResponses[Self.defaultFallbackResponse] { base.give(responses, key: Self.defaultFallbackResponse) }
        } else if let responses = base.dialogue.namedResponses[action] {
            base.give(responses, key: action)
        } else {
            let warning = "action '\(action)' is a custom action of the source platform: not run"
            if !base.warnings.contains(warning) { base.warnings.append(warning) }
        }
    }

    /// One run of a form: started, it takes what the triggering message gives; running, it rejects a
    /// message after which none of its slots was filled (unless it resumes after something else answered
    /// the user); then it asks for the next empty required slot, or stops when there is none.
    /// - Returns: `false` when the message was rejected.
    mutating func runForm(_ form: DialogueForm) -> Bool {
        if tracker.activeLoop != form.name {
            tracker.append(.action(form.name))
            tracker.append(.activeLoop(form.name))
            set(Self.requestedSlot, .null)
            extractSlots(activating: form)
        } else {
            // Rasa validates (and so may reject) the message only when the form answers it on its happy path: a
            // form returning after something else answered an earlier message (its unhappy path, Rasa's
            // LoopInterrupted) asks again instead.
            let answersUser = tracker.latestAction == RulePredictor.listen
            if answersUser, !tracker.interrupted(since: form.name), filledThisTurn.isDisjoint(with: form.requiredSlots) { return false }
            tracker.append(.action(form.name))
        }
        if let next = form.requiredSlots.first(where: { (base.state.context[$0] ?? .null) == .null }) {
            set(Self.requestedSlot, .string(next))
            let ask = ["utter_ask_\(form.name)_\(next)", "utter_ask_\(next)"].first { base.dialogue.namedResponses[$0] != nil }
            if let ask, let responses = base.dialogue.namedResponses[ask] {
                base.give(responses, key: ask)
            } else {
                let warning = "form '\(form.name)' has no response utter_ask_\(next) to ask for slot '\(next)'"
                if !base.warnings.contains(warning) { base.warnings.append(warning) }
            }
        } else {
            deactivate()
        }
        return true
    }

    /// Rasa's `UserUtteranceReverted`, `count` times (2 for `action_back`, 1 for the fallback): the events from the
    /// user's `count`-th last message on are dropped, and the slots and the form are as those before it left them
    /// (a slot no kept event sets gets its initial value). The tracker keeps its last ``RuleTracker/maximumEvents``
    /// events only, so in a longer conversation a slot set before them and changed since reads as its initial value.
    private mutating func takeBack(userMessages count: Int) {
        let users = tracker.events.indices.filter { if case .user = tracker.events[$0] { return true } else { return false } }
        guard users.count >= count else { tracker.loopRejected = false; return }
        let cut = users[users.count - count]
        let dropped = tracker.events[cut...]
        let kept = Array(tracker.events[..<cut])
        for case .slot(let name, _) in dropped {
            var value: DialogueValue = rules.slots.first { $0.name == name }?.initialValue ?? .null
            for case .slot(name, let earlier) in kept { value = earlier }
            base.state.context[name] = value
        }
        var loop: String?
        for case .activeLoop(let name) in kept { loop = name }
        tracker.events = kept
        tracker.activeLoop = loop
        tracker.loopRejected = false
    }

    private mutating func deactivate() {
        guard tracker.activeLoop != nil else { return }
        tracker.append(.activeLoop(nil))
        set(Self.requestedSlot, .null)
    }

    private mutating func set(_ slot: String, _ value: DialogueValue) {
        base.state.context[slot] = value
        tracker.append(.slot(slot, value))
    }

    /// Fills slots from the message (Rasa's slot mappings): after the message arrives (`activating`: nil),
    /// every mapping but `fromTriggerIntent`; when a form starts, its `fromTriggerIntent` mappings and those
    /// whose condition is that form running.
    mutating func extractSlots(activating form: DialogueForm?) {
        for slot in rules.slots {
            for mapping in slot.mappings where applies(mapping, to: slot, activating: form) {
                guard let value = value(of: mapping, for: slot) else { continue }
                set(slot.name, value)
                filledThisTurn.insert(slot.name)
                break
            }
        }
    }

    private func applies(_ mapping: SlotMapping, to slot: RuleSlot, activating form: DialogueForm?) -> Bool {
        let loop = tracker.activeLoop
        if let form {
            if mapping.type == .fromTriggerIntent {
                guard mapping.conditions?.contains(where: { $0.activeLoop == form.name }) ?? true else { return false }
            } else {
                guard mapping.conditions?.contains(where: { $0.activeLoop == form.name && $0.requestedSlot == nil }) == true else { return false }
            }
        } else {
            if mapping.type == .fromTriggerIntent { return false }
            if let conditions = mapping.conditions, !conditions.isEmpty {
                let requested = base.state.context[Self.requestedSlot]?.string
                if tracker.loopRejected, requested == slot.name { return false }
                let holds = conditions.contains { condition in
                    if let wanted = condition.activeLoop { return wanted == loop && (condition.requestedSlot == nil || condition.requestedSlot == requested) }
                    return loop == nil
                }
                if !holds { return false }
            }
        }
        // Intents: those listed, or any but those excluded (and those the running form ignores).
        var excluded = mapping.notIntent ?? []
        if let loop, let running = forms[loop], running.requiredSlots.contains(slot.name) { excluded += running.ignoredIntents ?? [] }
        if let wanted = mapping.intent, !wanted.isEmpty { return intent.map(wanted.contains) ?? false }
        return !(intent.map(excluded.contains) ?? false)
    }

    private func value(of mapping: SlotMapping, for slot: RuleSlot) -> DialogueValue? {
        switch mapping.type {
        case .fromEntity:
            let mentions = message.entities.filter { $0.entity == mapping.entity && $0.role == mapping.role && $0.group == mapping.group }
            guard let first = mentions.first else { return nil }
            if slot.type == .list { return .array(mentions.map { .string($0.value) }) }
            return Self.convert(first.number.map(DialogueValue.number) ?? .string(first.value), to: slot.type)
        case .fromText:
            return Self.convert(.string(message.text), to: slot.type)
        case .fromIntent, .fromTriggerIntent:
            return mapping.value.flatMap { Self.convert($0, to: slot.type) }
        }
    }

    /// `value` as the slot's type holds it; `nil` when it cannot be (a float slot given "many").
    static func convert(_ value: DialogueValue, to type: RuleSlot.ValueType) -> DialogueValue? {
        switch type {
        case .float:
            return value.number.map(DialogueValue.number)
        case .bool:
            if case .bool = value { return value }
            switch value.displayText.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return nil
            }
        case .list:
            if case .array = value { return value }
            return .array([value])
        case .text:
            // Rasa's text slot keeps what it is given (a `from_intent` value of `true` stays a boolean).
            return value
        case .categorical:
            if case .string = value { return value }
            return .string(value.displayText)
        case .any:
            return value
        }
    }
}

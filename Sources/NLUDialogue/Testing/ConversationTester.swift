/// Replays ``ScriptedConversation``s against a dialogue and lists each step whose outcome differs.
///
///     let differences = try ConversationTester(dialogue: dialogue).run(conversations)
///     for difference in differences { print(difference) }   // story 'happy', line 12: expected …, got …
public struct ConversationTester: Sendable {
    /// One step that gave something else than the script says.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        public var conversation: String
        public var line: Int
        /// What was checked: `action`, `bot`, `actions`, `slot 'name'`.
        public var what: String
        public var expected: String
        public var got: String
        public var description: String { "'\(conversation)', line \(line): \(what): expected \(expected), got \(got)" }
    }

    public let dialogue: Dialogue
    public init(dialogue: Dialogue) { self.dialogue = dialogue }

    /// - Throws: ``DialogueError`` when a turn cannot run; ``RasaDialogueError`` for a story replayed
    ///   against a node dialogue (stories need a rule dialogue's actions).
    public func run(_ conversations: [ScriptedConversation]) throws -> [Difference] {
        var differences: [Difference] = []
        for conversation in conversations {
            switch conversation.kind {
            case .transcript: differences += try transcript(conversation)
            case .story: differences += try story(conversation)
            }
        }
        return differences
    }

    private func transcript(_ conversation: ScriptedConversation) throws(DialogueError) -> [Difference] {
        var differences: [Difference] = []
        var state = dialogue.newState()
        for (step, line) in conversation.steps {
            guard case .user(let message, let bot, let actions, let slots) = step else { continue }
            let turn = try dialogue.respond(to: message, state: state)
            state = turn.state
            func differ(_ what: String, _ expected: String, _ got: String) {
                differences.append(Difference(conversation: conversation.name, line: line, what: what, expected: expected, got: got))
            }
            if let bot, bot != turn.texts { differ("bot", Self.quoted(bot), Self.quoted(turn.texts)) }
            if let actions, actions != turn.visited { differ("actions", actions.joined(separator: ", "), turn.visited.joined(separator: ", ")) }
            for (name, value) in (slots ?? [:]).sorted(by: { $0.key < $1.key }) where (state.context[name] ?? .null) != value {
                differ("slot '\(name)'", value.jsonText, (state.context[name] ?? .null).jsonText)
            }
        }
        return differences
    }

    /// As `rasa test` replays a story: each action is checked against the prediction for the conversation
    /// so far, then the story's own events (its action, form and slot steps) are applied, whatever was
    /// predicted. A form predicted where the story has another action is taken as having rejected the
    /// message, and the prediction is made again.
    private func story(_ conversation: ScriptedConversation) throws -> [Difference] {
        guard let rules = dialogue.model.rules else {
            throw RasaDialogueError(file: conversation.name, line: conversation.steps.first?.line,
                                    reason: "a test story needs a rule dialogue (a Rasa project); use a JSONL transcript for this dialogue")
        }
        let predictor = RulePredictor(rules: rules)
        var tracker = RuleTracker()
        var slots: [String: DialogueValue] = [:]
        func start() {
            tracker = RuleTracker()
            slots = [:]
            for slot in rules.slots { if let initial = slot.initialValue { slots[slot.name] = initial } }
            tracker.append(.action(RulePredictor.listen))
        }
        start()
        var differences: [Difference] = []
        func predict(unless expected: String?) -> String {
            let predicted = predictor.predict(tracker, slots: slots).action
            guard let loop = tracker.activeLoop, predicted == loop, expected != loop else { return predicted }
            tracker.loopRejected = true
            return predictor.predict(tracker, slots: slots).action
        }
        func check(_ expected: String, line: Int) {
            let predicted = predict(unless: expected)
            if predicted != expected {
                differences.append(Difference(conversation: conversation.name, line: line, what: "action", expected: expected, got: predicted))
            }
        }
        for (step, line) in conversation.steps {
            switch step {
            case .user(let message, _, _, _):
                if tracker.latestAction != RulePredictor.listen {
                    check(RulePredictor.listen, line: line)
                    tracker.append(.action(RulePredictor.listen))
                }
                tracker.append(.user(intent: message.intents.first?.intent, entities: message.entities.map(\.entity)))
            case .bot(let text):
                // The predicted action must say the text (one of its variations, with the slots so far). Rasa compares
                // the text with the predicted action's *name* instead, so with rules and memoization it never meets a
                // `bot:` step (docs/dialogue.md); the story's own event follows, as for an action.
                let predicted = predict(unless: nil)
                let says = saying(predicted, slots: slots)
                if !says.contains(text) {
                    differences.append(Difference(conversation: conversation.name, line: line, what: "bot", expected: Self.quoted([text]),
                                                  got: says.isEmpty ? predicted : "\(predicted) \(Self.quoted(says))"))
                }
                tracker.append(.action(says.contains(text) ? predicted : "bot: \(text)"))
            case .action(let name):
                check(name, line: line)
                tracker.append(.action(name))
                // What running it does: the conversation starts over (`rasa test` forces the story's action
                // without its Restarted event, so Rasa's prediction after it differs; a live Rasa starts over).
                if name == RuleRunner.restartAction { start() }
            case .activeLoop(let name):
                tracker.append(.activeLoop(name))
                if name == nil { slots[RuleRunner.requestedSlot] = .null }
            case .slots(let values):
                for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                    slots[name] = value
                    tracker.append(.slot(name, value))
                }
            }
        }
        return differences
    }

    /// The texts `action` may say (every variation of its text responses, and its options' titles) with `slots`.
    private func saying(_ action: String, slots: [String: DialogueValue]) -> [String] {
        let scope = EvaluationScope(message: ParsedMessage(text: ""), context: slots, isFirstTurn: false,
                                    intentThreshold: dialogue.model.settings.intentThreshold)
        func render(_ template: TextTemplate) -> String {
            var unset: [String] = []
            return template.render(in: scope, unset: &unset, python: true)
        }
        return (dialogue.namedResponses[action] ?? []).flatMap { response -> [String] in
            switch response {
            case .text(let values, _): return values.map(render)
            case .options(let title, _, _, _): return [render(title)]
            default: return []
            }
        }
    }

    private static func quoted(_ texts: [String]) -> String { "[" + texts.map { DialogueValue.string($0).jsonText }.joined(separator: ", ") + "]" }
}

extension DialogueValue {
    /// The value as compact JSON (for reports).
    var jsonText: String {
        if case .string(let text) = self {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "\"\(escaped)\""
        }
        return self == .null ? "null" : displayText
    }
}

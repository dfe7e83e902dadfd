/// Chooses a rule dialogue's next action from the conversation so far, in the order of Rasa's RulePolicy:
///
/// 0. Rasa's default actions overrule everything, a running form included: right after a user message whose
///    intent is `restart`, `action_restart`; `back`, `action_back`; `session_start`, `action_session_start`
///    (Rasa's `DEFAULT_ACTION_MAPPINGS`).
/// 1. A running form that has not rejected the last message runs again after anything else, and the bot
///    waits for the user once it has run (the form loop's happy path).
/// 2. Otherwise the rules, then (when no rule matches) the stories: a rule predicts the action that follows
///    its steps when the conversation ends with those steps (the longest such match wins). A form's happy
///    path is folded away (``view(of:forms:)``), so that a rule sees the form as one step from start to end.
///    Waiting for the user after a rule that says nothing of forms, while a form runs, runs the form instead.
/// 3. Nothing matched: the fallback action, after a user message or a bot action alike (Rasa's RulePolicy predicts
///    its `core_fallback_action_name` whenever nothing else does, unless `enable_fallback_prediction` is off: then
///    the dialogue has no fallback action and the bot waits).
struct RulePredictor {
    static let listen = "action_listen"
    /// Intents that always predict an action of Rasa's own (`rasa.core.policies.rule_policy.DEFAULT_ACTION_MAPPINGS`).
    static let defaultActions: [String: String] = [PayloadMessage.restartIntent: RuleRunner.restartAction,
                                                   "back": RuleRunner.backAction,
                                                   "session_start": RuleRunner.sessionStartAction]

    /// A prediction and the rule or reason that gave it (for reports).
    struct Prediction: Equatable {
        var action: String
        var source: String
    }

    let rules: DialogueRules

    func predict(_ tracker: RuleTracker, slots: [String: DialogueValue]) -> Prediction {
        if tracker.latestAction == Self.listen, let intent = tracker.latestIntent, let action = Self.defaultActions[intent] {
            return Prediction(action: action, source: "default action for intent \(intent)")
        }
        if let loop = tracker.activeLoop, !tracker.loopRejected {
            return tracker.latestAction == loop ? Prediction(action: Self.listen, source: "form \(loop)")
                                                : Prediction(action: loop, source: "form \(loop)")
        }
        let view = Self.view(of: tracker.events, forms: Set(rules.forms.map(\.name)))
        for kind in [DialogueRule.Kind.rule, .story] {
            guard let (rule, action) = bestMatch(kind: kind, view: view, slots: slots) else { continue }
            if action == Self.listen, let loop = tracker.activeLoop, !rule.mentionsLoop {
                return Prediction(action: loop, source: "form \(loop) after \(kind.rawValue) '\(rule.name)'")
            }
            return Prediction(action: action, source: "\(kind.rawValue) '\(rule.name)'")
        }
        if let fallback = rules.fallbackAction {
            return Prediction(action: fallback, source: "fallback")
        }
        return Prediction(action: Self.listen, source: "no rule")
    }

    /// One step of the conversation as rules see it: a user message or an action, with the forms that ran
    /// around it (`loopBefore`, then each start or stop that followed it, `loopAfter` the last).
    struct Item {
        var step: DialogueRule.Step
        var loopBefore: String?
        var loopAfter: String?
        var loops: [String?]
    }

    /// The conversation's steps as Rasa's rules see them: waiting and slot events left out, and a form's
    /// happy path folded away (a form that runs again right after the user answered it undoes the answer and
    /// itself, so the form reads as one step from its start to its end; after an interruption it does not).
    static func view(of events: [RuleTracker.Event], forms: Set<String>) -> [Item] {
        var applied: [RuleTracker.Event] = []
        for event in events {
            if case .action(let name) = event, forms.contains(name), !firstRunOrUnhappyPath(name, applied) {
                // Undo back to the form's previous run, keeping form and slot events.
                var index = applied.count - 1
                while index >= 0 {
                    if case .action(let other) = applied[index] {
                        if other == name { break }
                        applied.remove(at: index)
                    } else if case .user = applied[index] {
                        applied.remove(at: index)
                    }
                    index -= 1
                }
                continue
            }
            applied.append(event)
        }
        var items: [Item] = []
        var loop: String?
        for event in applied {
            switch event {
            case .user(let intent, let entities):
                items.append(Item(step: DialogueRule.Step(intent: intent ?? "", entities: entities), loopBefore: loop, loopAfter: loop, loops: [loop]))
            case .action(let name):
                if name != listen { items.append(Item(step: .action(name), loopBefore: loop, loopAfter: loop, loops: [loop])) }
            case .activeLoop(let name):
                loop = name
                if !items.isEmpty {
                    items[items.count - 1].loopAfter = name
                    items[items.count - 1].loops.append(name)
                }
            case .slot:
                break
            }
        }
        return items
    }

    /// Whether the form `name` runs for the first time since it started, or after something else answered
    /// the user's last message (an unhappy path).
    private static func firstRunOrUnhappyPath(_ name: String, _ applied: [RuleTracker.Event]) -> Bool {
        var nextAction: String?
        for event in applied.reversed() {
            switch event {
            case .activeLoop(nil): return true
            case .user: if let nextAction, nextAction != name { return true }
            case .action(let action):
                if action == name { return false }
                nextAction = action
            default: break
            }
        }
        return true
    }

    /// The longest match of the rules of `kind` (conditions and form steps counted) and the action it predicts;
    /// the first listed wins a tie.
    private func bestMatch(kind: DialogueRule.Kind, view: [Item], slots: [String: DialogueValue]) -> (DialogueRule, String)? {
        var best: (rule: DialogueRule, action: String, length: Int)?
        for rule in rules.rules where rule.kind == kind {
            let steps = rule.steps.filter { $0.slot == nil && $0.activeLoop == nil }
            // Conditions make a rule more specific (as Rasa's longer rule keys): they count as steps.
            let bonus = rule.condition.count + rule.steps.count - steps.count
            for length in stride(from: min(steps.count, view.count), through: 1, by: -1) {
                if let best, best.length >= length + bonus { break }
                let action: String
                if length == steps.count {
                    guard rule.waitForUserInput else { continue }
                    action = Self.listen
                } else if let next = steps[length].action {
                    action = next
                } else if steps[length].intent != nil {
                    action = Self.listen
                } else {
                    continue
                }
                guard matches(length, view: view, rule: rule, slots: slots) else { continue }
                best = (rule, action, length + bonus)
                break
            }
        }
        return best.map { ($0.rule, $0.action) }
    }

    /// Whether the conversation ends with the rule's first `length` user and action steps (each followed by
    /// the form starts and stops the rule gives after it), and the rule's conditions hold.
    private func matches(_ length: Int, view: [Item], rule: DialogueRule, slots: [String: DialogueValue]) -> Bool {
        let start = view.count - length
        if rule.conversationStart && start != 0 { return false }
        var matched = 0
        var expectedLoop: String??
        for step in rule.steps where step.slot == nil {
            if let loop = step.activeLoop {
                guard matched > 0 else { continue }
                expectedLoop = .some(loop.isEmpty ? nil : loop)
                continue
            }
            if matched == length { break }
            if let expected = expectedLoop, view[start + matched - 1].loopAfter != expected { return false }
            expectedLoop = nil
            guard Self.step(step, matches: view[start + matched].step) else { return false }
            matched += 1
        }
        if let expected = expectedLoop, view[start + matched - 1].loopAfter != expected { return false }
        for condition in rule.condition {
            if let loop = condition.activeLoop {
                // The form ran where the rule starts: before its first step, or started by that step.
                let wanted: String? = loop.isEmpty ? nil : loop
                if loop.isEmpty ? view[start].loopBefore != nil : !view[start].loops.contains(wanted) { return false }
            }
            if let slot = condition.slot, !Self.slot(slot, condition.value, in: slots) { return false }
        }
        for step in rule.steps { if let slot = step.slot, !Self.slot(slot, step.value, in: slots) { return false } }
        return true
    }

    private static func slot(_ name: String, _ expected: DialogueValue?, in slots: [String: DialogueValue]) -> Bool {
        let value = slots[name] ?? .null
        if let expected { return value == expected }
        return value != .null
    }

    private static func step(_ ruleStep: DialogueRule.Step, matches item: DialogueRule.Step) -> Bool {
        if let intent = ruleStep.intent {
            guard item.intent == intent else { return false }
            return (ruleStep.entities ?? []).allSatisfy { (item.entities ?? []).contains($0) }
        }
        if let action = ruleStep.action { return item.action == action }
        return false
    }
}

extension DialogueRule {
    /// Whether the rule says anything of forms (then its waiting is not replaced by the running form).
    var mentionsLoop: Bool { (condition + steps).contains { $0.activeLoop != nil } }
}

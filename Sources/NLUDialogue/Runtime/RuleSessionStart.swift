extension Dialogue {
    /// A rule dialogue's new session (Rasa's `action_session_start`, `rasa/core/actions/action.py`): the tracker is
    /// reset — the form stops, the history the rules match is cleared, every slot back to its initial value — and,
    /// when the session configuration carries slots over (Rasa's default, also without a configuration), each slot
    /// set so far is set again (Rasa re-applies the session's `SlotSet` events; the values are the same as the
    /// state's, `requested_slot` included). Turns, counters and the random generator go on.
    func newSession(after state: DialogueState) -> DialogueState {
        let rules = model.rules ?? DialogueRules()
        var fresh = state
        var tracker = RuleTracker()
        fresh.context = [:]
        for slot in rules.slots { if let initial = slot.initialValue { fresh.context[slot.name] = initial } }
        if rules.session?.carryOverSlots ?? DialogueSession.rasaDefault.carryOverSlots {
            for (name, value) in state.context.sorted(by: { $0.key < $1.key }) {
                fresh.context[name] = value
                tracker.append(.slot(name, value))
            }
        }
        tracker.append(.action(RulePredictor.listen))
        fresh.tracker = tracker
        return fresh
    }
}

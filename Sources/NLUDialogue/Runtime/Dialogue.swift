import Foundation

/// A dialogue ready to run: a checked ``DialogueModel`` whose conditions and texts are parsed. It holds no
/// conversation: each turn takes the conversation's ``DialogueState`` and returns the next one, so one
/// `Dialogue` serves any number of conversations, from any thread.
///
///     let dialogue = try Dialogue(model)
///     var state = dialogue.newState()
///     let turn = try dialogue.respond(to: ParsedMessage(text: "hi", intents: [.init(intent: "greetings", confidence: 0.9)]),
///                                     state: state)
///     print(turn.texts)   // ["Hello! I'm here to help you."]
///     state = turn.state
public struct Dialogue: Sendable {
    /// The model as loaded.
    public let model: DialogueModel
    /// Identifies the model's content: a state made by another dialogue is refused.
    public let fingerprint: String
    let nodes: [String: CompiledNode]
    let fallback: [CompiledResponse]
    /// A rule dialogue's responses by action name (empty for a node dialogue).
    let namedResponses: [String: [CompiledResponse]]
    /// Root node ids and each node's children, in sibling order.
    let roots: [String]
    let children: [String: [String]]

    /// Checks and compiles `model`.
    /// - Throws: ``DialogueModelError`` naming the node and field at fault.
    public init(_ model: DialogueModel) throws(DialogueModelError) {
        self.model = model
        (self.nodes, self.fallback) = try DialogueCompiler.compile(model)
        self.namedResponses = try model.rules.map { (rules: DialogueRules) throws(DialogueModelError) in try DialogueCompiler.compile(rules) } ?? [:]
        var roots: [String] = []
        var children: [String: [String]] = [:]
        for node in model.nodes {
            if let parent = node.parent { children[parent, default: []].append(node.id) } else { roots.append(node.id) }
        }
        self.roots = roots
        self.children = children
        self.fingerprint = Self.fingerprint(of: model)
    }

    /// A new conversation's state; `seed` starts the generator of random responses.
    public func newState(seed: UInt64 = 0) -> DialogueState {
        DialogueState(dialogue: fingerprint, seed: seed)
    }

    /// Runs one turn: `message`, sent at `now`, against the conversation in `state`.
    /// - Throws: ``DialogueError`` when the state is not this dialogue's or the turn loops past the step limit.
    /// A `/restart` payload (``PayloadMessage/isRestart(_:)``) restarts the conversation (``restart(_:)``); in a
    /// rule dialogue so does any message whose intent is `restart`, as in Rasa. In a rule dialogue a message after
    /// its session expired (``DialogueSession``), or the intent `session_start`, starts a new session.
    public func respond(to message: ParsedMessage, state: DialogueState, at now: Date = Date()) throws(DialogueError) -> DialogueTurn {
        try check(state)
        if let rules = model.rules {
            let now = now.timeIntervalSince1970
            var state = state
            if rules.session?.hasExpired(lastUserMessage: state.tracker?.lastUserMessageAt, now: now) == true {
                state = newSession(after: state)
            }
            var runner = RuleRunner(dialogue: self, message: message, state: state, now: now)
            try runner.run()
            if runner.restarted { return try startOver(after: runner.turn) }
            var turn = runner.turn
            if runner.sessionStarted { turn.state = newSession(after: turn.state) }
            return turn
        }
        if PayloadMessage.isRestart(message) { return try startOver(after: DialogueTurn(responses: [], state: state, visited: [], warnings: [])) }
        var runner = TurnRunner(dialogue: self, message: message, state: state)
        try runner.run()
        return runner.turn
    }

    /// Whether `message` starts the conversation over: the `/restart` payload in any dialogue, and in a rule
    /// dialogue any message whose intent is `restart` (Rasa's default action mapping, ``RulePredictor``).
    public func restarts(on message: ParsedMessage) -> Bool {
        PayloadMessage.isRestart(message) || (model.rules != nil && message.intents.first?.intent == PayloadMessage.restartIntent)
    }

    /// Starts the conversation in `state` over: its context, slots, position and history are cleared and the
    /// opening turn runs again (a node dialogue's `welcome` node; a rule dialogue's slots back to their initial
    /// values). A rule dialogue first runs Rasa's `action_restart`, which says `utter_restart` if the domain
    /// has it. The random generator goes on where it was, so random responses do not repeat the first ones.
    /// - Throws: ``DialogueError`` as ``respond(to:state:)``.
    public func restart(_ state: DialogueState) throws(DialogueError) -> DialogueTurn {
        try respond(to: ParsedMessage(text: "/" + PayloadMessage.restartIntent, intents: [.init(intent: PayloadMessage.restartIntent, confidence: 1)]),
                    state: state)
    }

    /// The rest of a restart, after `turn` (what was said before it): a new state, then the opening turn.
    private func startOver(after turn: DialogueTurn) throws(DialogueError) -> DialogueTurn {
        var fresh = newState()
        fresh.random = turn.state.random
        let opening = try respond(to: ParsedMessage(text: ""), state: fresh)
        return DialogueTurn(responses: turn.responses + opening.responses, state: opening.state,
                            visited: turn.visited + opening.visited, warnings: turn.warnings + opening.warnings)
    }

    /// Refuses a state of another dialogue, or one naming nodes or slots this dialogue does not have.
    /// Internal: a signed state is checked when it is loaded too (``verifiedState(_:signer:conversation:source:)``).
    func check(_ state: DialogueState) throws(DialogueError) {
        guard state.dialogue == fingerprint else { throw .stateFromAnotherDialogue(expected: fingerprint, found: state.dialogue) }
        guard state.turn >= 0 else { throw .invalidState("turn \(state.turn) is negative") }
        for position in (state.position.map { [$0] } ?? []) + state.returns {
            switch position {
            case .children(let node), .jumpTarget(let node), .confirmation(let node):
                guard nodes[node] != nil else { throw .invalidState("no node '\(node)'") }
            case .slot(let frame, let slot):
                guard let node = nodes[frame] else { throw .invalidState("no node '\(frame)'") }
                guard node.slots.contains(where: { $0.variable == slot }) else { throw .invalidState("node '\(frame)' has no slot '\(slot)'") }
            }
        }
        if state.returns.count > TurnRunner.maximumReturns {
            throw .invalidState("\(state.returns.count) digressions to return from (at most \(TurnRunner.maximumReturns))")
        }
    }

    /// FNV-1a (64 bits) of the model's canonical encoding: cheap, stable across platforms, and enough to tell
    /// dialogues apart (it guards against mistakes, not against forgery: that is ``DialogueStateSigner``'s part).
    private static func fingerprint(of model: DialogueModel) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in (try? model.encoded()) ?? Data() {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

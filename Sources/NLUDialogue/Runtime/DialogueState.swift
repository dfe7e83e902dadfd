/// Where one conversation is: its context variables (slot values among them), where the next turn starts,
/// where to return after a digression, the sequential responses' counters and the random generator.
/// The caller keeps it between turns (it is `Codable`: a file, a database row, an app's defaults) and
/// hands it back with the next message.
///
///     var state = dialogue.newState()
///     let turn = try dialogue.respond(to: message, state: state)
///     state = turn.state
public struct DialogueState: Sendable, Equatable, Codable {
    /// Where the next turn starts.
    public enum Position: Sendable, Equatable, Codable {
        /// Evaluate the children of `node` first.
        case children(node: String)
        /// Evaluate `node` and its following siblings first (a `userInput` jump).
        case jumpTarget(node: String)
        /// `frame` is filling slots and asked for the slot `slot`.
        case slot(frame: String, slot: String)
        /// `frame` asked its confirmation question.
        case confirmation(frame: String)
    }

    /// The dialogue's fingerprint (``Dialogue/fingerprint``): a state is refused by another dialogue.
    public var dialogue: String
    /// Turns taken so far.
    public var turn: Int
    /// The context variables.
    public var context: [String: DialogueValue]
    /// Where the next turn starts; `nil`: at the root nodes.
    public var position: Position?
    /// Where to go back to after digressions, innermost last.
    public var returns: [Position]
    /// How often each sequential response was given (key: node id and response index).
    public var counters: [String: Int]
    /// The random generator's state (random responses).
    public var random: UInt64
    /// A rule dialogue's history and form (``RuleTracker``); `nil` in a node dialogue.
    public var tracker: RuleTracker?

    public init(dialogue: String, seed: UInt64 = 0) {
        self.dialogue = dialogue
        self.turn = 0
        self.context = [:]
        self.position = nil
        self.returns = []
        self.counters = [:]
        self.random = seed
    }

    /// The next number of the state's random generator (SplitMix64: small, fast, and the same on every platform).
    mutating func nextRandom() -> UInt64 {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

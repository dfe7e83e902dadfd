/// What a rule dialogue remembers of a conversation beyond its slot values: the events so far (the rules
/// match their last steps), the form that runs, and whether that form rejected the last message.
/// Part of ``DialogueState`` (`Codable`).
public struct RuleTracker: Sendable, Equatable, Codable {
    /// One event of the conversation.
    public enum Event: Sendable, Equatable, Codable {
        /// A user message: its top intent and the entities it mentions.
        case user(intent: String?, entities: [String])
        /// An action ran (`action_listen`: the bot waited for the user).
        case action(String)
        /// A form started (`name`) or stopped (`nil`).
        case activeLoop(String?)
        /// A slot was set.
        case slot(String, DialogueValue)
    }

    /// The events, oldest first; only the last ``maximumEvents`` are kept.
    public var events: [Event]
    /// The form that runs, if any.
    public var activeLoop: String?
    /// The running form could not use the last message: the rules choose the next action instead.
    public var loopRejected: Bool
    /// When the user's last message came (seconds since 1970), kept when the dialogue has sessions that expire
    /// (``DialogueSession``); `nil` before the first message of a session.
    public var lastUserMessageAt: Double?

    /// Enough for any rule: a rule longer than this cannot match (``Dialogue`` refuses it).
    public static let maximumEvents = 256

    public init() {
        events = []
        activeLoop = nil
        loopRejected = false
    }

    /// The name of the last action that ran.
    var latestAction: String? {
        for event in events.reversed() { if case .action(let name) = event { return name } }
        return nil
    }

    /// The actions run since the bot last waited for the user (what Rasa's circuit breaker counts).
    var actionsSinceListen: Int {
        var count = 0
        for event in events.reversed() {
            guard case .action(let name) = event else { continue }
            if name == RulePredictor.listen || name == RuleRunner.sessionStartAction { break }
            count += 1
        }
        return count
    }

    /// Whether, since `form` last ran, another action answered (the form's unhappy path).
    func interrupted(since form: String) -> Bool {
        for event in events.reversed() {
            guard case .action(let name) = event else { continue }
            if name == form { return false }
            if name != RulePredictor.listen { return true }
        }
        return false
    }

    /// The intent of the last user message, if it had one.
    var latestIntent: String? {
        for event in events.reversed() { if case .user(let intent, _) = event { return intent } }
        return nil
    }

    mutating func append(_ event: Event) {
        events.append(event)
        switch event {
        case .activeLoop(let name):
            activeLoop = name
            loopRejected = false
        case .action(let name) where name == activeLoop:
            // A form that runs again has taken the message (Rasa resets the rejection then).
            loopRejected = false
        default:
            break
        }
        if events.count > Self.maximumEvents { events.removeFirst(events.count - Self.maximumEvents) }
    }
}

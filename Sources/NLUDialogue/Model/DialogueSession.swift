/// When a rule dialogue's conversation starts a new session, as Rasa's `session_config` (domain.yml) says: a
/// message that comes more than ``expirationMinutes`` after the user's last one starts a new session before it is
/// answered, and so does the intent `session_start` (`/session_start`). A new session forgets the form that ran and
/// the history the rules match (a `conversation_start` rule applies again); the slots keep their values when
/// ``carryOverSlots`` holds, else they go back to their initial values. Nothing is said (Rasa's
/// `action_session_start`).
///
///     {"rules": {"session": {"expirationMinutes": 60, "carryOverSlots": true}, ...}}
public struct DialogueSession: Sendable, Equatable, Codable {
    /// Minutes without a user message after which the next one starts a new session; 0: never (Rasa's default 60).
    public var expirationMinutes: Double
    /// Whether the slots keep their values in the new session (Rasa's `carry_over_slots_to_new_session`, default true).
    public var carryOverSlots: Bool

    /// Rasa's defaults, used for a domain without `session_config`.
    public static let rasaDefault = DialogueSession(expirationMinutes: 60, carryOverSlots: true)

    public init(expirationMinutes: Double, carryOverSlots: Bool) {
        self.expirationMinutes = expirationMinutes
        self.carryOverSlots = carryOverSlots
    }

    /// Whether a message at `now` (seconds since 1970) starts a new session after the user's last message at `last`.
    func hasExpired(lastUserMessage last: Double?, now: Double) -> Bool {
        guard expirationMinutes > 0, let last else { return false }
        return (now - last) / 60 > expirationMinutes
    }
}

import NLUInputOutput

/// A signed conversation state that is refused, or a state that cannot be signed. Each case names the state's
/// source: the conversation it was signed for, or the file it came from.
///
///     // state.json: the conversation state's signature does not verify: it was changed after it was signed …
public enum SignedStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a signed state at all: truncated, garbled, of another format or format version, or fields out of range.
    case malformed(source: String, reason: String)
    /// A bare ``DialogueState`` where a signed one is required (written before states were signed, or by hand).
    case unsigned(source: String)
    /// Signed with a key that is neither the signer's key nor one of its previous keys.
    case unknownKey(source: String, key: String, keysTried: Int)
    /// Signed with a key the signer has, but its signature does not match its content: edited after signing.
    case signatureMismatch(source: String)
    /// Signed for another conversation than the one it is handed to (`nil`: for none in particular).
    case otherConversation(source: String, signedFor: String?, expected: String?)
    /// Larger than a state may be (``DialogueStateSigner/maximumStateBytes``).
    case tooLarge(source: String, bytes: Int, limit: Int)
    /// The state cannot be encoded (a context number that is not finite).
    case unencodable(source: String, reason: String)
    /// The signature holds, but the dialogue refuses the state: made by another dialogue (or another version of
    /// it), or naming a node or slot it does not have.
    case refusedByDialogue(source: String, DialogueError)

    /// Where the state came from, as the message names it.
    public var source: String {
        switch self {
        case .malformed(let source, _), .unsigned(let source), .unknownKey(let source, _, _), .signatureMismatch(let source),
             .otherConversation(let source, _, _), .tooLarge(let source, _, _), .unencodable(let source, _), .refusedByDialogue(let source, _):
            return source
        }
    }

    public var description: String {
        switch self {
        case .malformed(let source, let reason):
            return "\(source): not a signed conversation state: \(reason)"
        case .unsigned(let source):
            return "\(source): the conversation state has no signature (written before states were signed, or by hand); "
                + "it is refused because anyone could have edited it: start a new conversation"
        case .unknownKey(let source, let key, let keysTried):
            return "\(source): the conversation state was signed with another key (\(EchoedValue.prefix(key))) than "
                + (keysTried == 1 ? "the one key given" : "the \(keysTried) keys given (the current one and its previous ones)")
                + "; if the key was replaced, give the old one as a previous key"
        case .signatureMismatch(let source):
            return "\(source): the conversation state's signature does not verify: it was changed after it was signed "
                + "(its context, slots or place in the dialogue edited, or the data damaged); refused"
        case .otherConversation(let source, let signedFor, let expected):
            func name(_ conversation: String?) -> String { conversation.map { "conversation '\(EchoedValue.prefix($0))'" } ?? "no conversation in particular" }
            return "\(source): the conversation state was signed for \(name(signedFor)), not for \(name(expected)); refused"
        case .tooLarge(let source, let bytes, let limit):
            return "\(source): \(bytes) bytes; a conversation state is at most \(limit) bytes"
        case .unencodable(let source, let reason):
            return "\(source): the conversation state cannot be encoded: \(reason)"
        case .refusedByDialogue(let source, let error):
            return "\(source): \(error)"
        }
    }
}

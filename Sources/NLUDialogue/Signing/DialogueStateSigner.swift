import Crypto
import Foundation
import NLUInputOutput

/// Signs conversation states an application lets out of its hands, and accepts them back only unchanged: an
/// HMAC-SHA256 with the application's ``DialogueStateKey`` over the state's JSON, the key's identifier and the
/// conversation the state belongs to. A state whose context, slots or place in the dialogue a client edited is
/// refused, and so is one signed for another conversation or with a key the application does not hold.
///
/// Rotation: states are signed with `key`; `previousKeys` only verify, so states signed before the key changed
/// still load until they are signed again at their next turn.
///
///     let signer = DialogueStateSigner(key: key, previousKeys: [oldKey])
///     let signed = try signer.sign(turn.state, conversation: "user-42")
///     let state = try signer.verify(signed, conversation: "user-42", source: "user-42")
///
/// What a signature does not do: it cannot tell the latest state of a conversation from an earlier one of the
/// same conversation (a client may hand back an older state it was given); keep states on the server
/// (``ConversationStore``) when that matters. ``Dialogue/verifiedState(_:signer:conversation:source:)`` also checks
/// that the state is the dialogue's.
public struct DialogueStateSigner: Sendable {
    /// The largest state signed or accepted, in bytes of JSON: 16 times what a server's store keeps by default
    /// (``ConversationExpiry/defaultMaxStateBytes``); a state past it is a dialogue gone wrong or a hostile blob.
    public static let maximumStateBytes = 16 << 20

    /// Signs, and verifies.
    public let key: DialogueStateKey
    /// Verify only: keys states may still be signed with.
    public let previousKeys: [DialogueStateKey]

    public init(key: DialogueStateKey, previousKeys: [DialogueStateKey] = []) {
        self.key = key
        self.previousKeys = previousKeys
    }

    /// `state` signed with ``key``, for `conversation` when given (it then verifies for that conversation only).
    /// - Throws: ``SignedStateError/tooLarge(source:bytes:limit:)`` past ``maximumStateBytes``,
    ///   ``SignedStateError/unencodable(source:reason:)``, ``SignedStateError/malformed(source:reason:)`` for a
    ///   conversation name longer than ``SignedDialogueState/maximumConversationBytes``.
    public func sign(_ state: DialogueState, conversation: String? = nil) throws(SignedStateError) -> SignedDialogueState {
        let source = Self.source(conversation)
        if let conversation, conversation.utf8.count > SignedDialogueState.maximumConversationBytes {
            throw .malformed(source: source, reason: "the conversation name is \(conversation.utf8.count) bytes; at most \(SignedDialogueState.maximumConversationBytes) are accepted")
        }
        let encoder = JSONEncoder()
        // Sorted keys: the same state gives the same bytes, so unchanged states keep their signature.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes: Data
        do {
            bytes = try encoder.encode(state)
        } catch {
            throw .unencodable(source: source, reason: "\(error)")
        }
        guard bytes.count <= Self.maximumStateBytes else { throw .tooLarge(source: source, bytes: bytes.count, limit: Self.maximumStateBytes) }
        let code = HMAC<SHA256>.authenticationCode(for: Self.message(key: key.identifier, conversation: conversation, state: bytes),
                                                   using: key.symmetricKey)
        return SignedDialogueState(key: key.identifier, conversation: conversation, state: String(decoding: bytes, as: UTF8.self),
                                   signature: Data(code).base64EncodedString())
    }

    /// The state in `signed`, once its signature verifies with the key it names (``key`` or one of
    /// ``previousKeys``) and it was signed for `conversation`. The signature is compared in constant time.
    /// - Parameter source: how errors name the state (a file's path, "conversation 'user-42'").
    /// - Throws: ``SignedStateError`` naming `source`: malformed fields, an unknown key, a signature that does
    ///   not verify, another conversation, a state too large.
    public func verify(_ signed: SignedDialogueState, conversation: String? = nil, source: String) throws(SignedStateError) -> DialogueState {
        // Every field is checked before any is used; a signed state comes from outside.
        guard signed.format == SignedDialogueState.formatName, signed.formatVersion == SignedDialogueState.currentFormatVersion else {
            throw .malformed(source: source, reason: "format '\(EchoedValue.prefix(signed.format))' version \(signed.formatVersion); expected '\(SignedDialogueState.formatName)' version \(SignedDialogueState.currentFormatVersion)")
        }
        let stateBytes = Data(signed.state.utf8)
        guard stateBytes.count <= Self.maximumStateBytes else { throw .tooLarge(source: source, bytes: stateBytes.count, limit: Self.maximumStateBytes) }
        if let claimed = signed.conversation, claimed.utf8.count > SignedDialogueState.maximumConversationBytes {
            throw .malformed(source: source, reason: "field 'conversation': \(claimed.utf8.count) bytes; at most \(SignedDialogueState.maximumConversationBytes) are accepted")
        }
        guard signed.signature.utf8.count <= 256, let code = Data(base64Encoded: signed.signature), code.count == SHA256.byteCount else {
            throw .malformed(source: source, reason: "field 'signature': not an HMAC-SHA256 in base64 (\(SHA256.byteCount) bytes)")
        }
        let keys = [key] + previousKeys
        guard let signingKey = keys.first(where: { $0.identifier == signed.key }) else {
            throw .unknownKey(source: source, key: signed.key, keysTried: keys.count)
        }
        let message = Self.message(key: signed.key, conversation: signed.conversation, state: stateBytes)
        // Crypto's check compares the codes in constant time: how long a refusal takes says nothing of how much
        // of a forged signature was right.
        guard HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: signingKey.symmetricKey) else {
            throw .signatureMismatch(source: source)
        }
        guard signed.conversation == conversation else {
            throw .otherConversation(source: source, signedFor: signed.conversation, expected: conversation)
        }
        do {
            return try JSONDecoder().decode(DialogueState.self, from: stateBytes)
        } catch {
            // Signed by a holder of the key, yet no state this NLUKit reads (a newer NLUKit's, say).
            let (field, reason) = JSONFile.describe(anyError: error, decoding: DialogueState.self, from: stateBytes)
            throw .malformed(source: source, reason: "its state " + (field.isEmpty ? reason : "field '\(EchoedValue.prefix(field))': \(reason)"))
        }
    }

    /// What the HMAC covers: a label with the format version (a signature made for something else with the same
    /// key never passes), the key's identifier, the conversation with its length (so no choice of names can move
    /// bytes between it and the state), then the state's bytes.
    static func message(key: String, conversation: String?, state: Data) -> Data {
        var message = Data("\(SignedDialogueState.formatName) \(SignedDialogueState.currentFormatVersion)\n\(key)\n".utf8)
        if let conversation {
            message.append(contentsOf: "=\(conversation.utf8.count):".utf8)
            message.append(contentsOf: conversation.utf8)
        } else {
            message.append(UInt8(ascii: "-"))
        }
        message.append(0x0A)
        message.append(state)
        return message
    }

    static func source(_ conversation: String?) -> String {
        conversation.map { "conversation '\(EchoedValue.prefix($0))'" } ?? "the conversation state"
    }
}

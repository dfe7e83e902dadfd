import Foundation
import NLUInputOutput

/// A ``DialogueState`` with an HMAC-SHA256 signature (``DialogueStateSigner``): what an application hands to
/// whoever keeps a conversation outside its control (a client, a file, an app's storage) and accepts back only
/// when the signature proves it unchanged.
///
/// `state` is the state's JSON text exactly as it was signed: the signature covers those bytes, not a
/// re-encoding, so a state signed by one version of NLUKit still verifies after an upgrade that encodes states
/// differently. It stays readable (`jq -r .state state.json | jq .`); editing it breaks the signature.
///
///     let signed = try signer.sign(conversation.state, conversation: "user-42")
///     let data = try signed.jsonData()                                    // keep it anywhere
///     let back = try SignedDialogueState(jsonData: data, source: "user-42's saved conversation")
public struct SignedDialogueState: Sendable, Equatable, Codable {
    /// The `format` member that marks a signed state.
    public static let formatName = "nlu-dialogue-state"
    /// The one format version this NLUKit writes and reads.
    public static let currentFormatVersion = 1
    /// The most a signed state's JSON may take: twice the largest state (escaping a JSON text inside a JSON
    /// string at most doubles it) and room for the other fields.
    public static let maximumBytes = 2 * DialogueStateSigner.maximumStateBytes + (64 << 10)
    /// The longest conversation name a state may be signed for, in UTF-8 bytes.
    public static let maximumConversationBytes = 1024

    /// ``formatName``.
    public var format: String
    /// ``currentFormatVersion``.
    public var formatVersion: Int
    /// The ``DialogueStateKey/identifier`` of the key that signed it.
    public var key: String
    /// The conversation it was signed for; it verifies only for that conversation (`nil`: for any).
    public var conversation: String?
    /// The state's JSON, exactly the bytes signed.
    public var state: String
    /// HMAC-SHA256 over the format, key, conversation and state, in base64.
    public var signature: String

    init(key: String, conversation: String?, state: String, signature: String) {
        self.format = Self.formatName
        self.formatVersion = Self.currentFormatVersion
        self.key = key
        self.conversation = conversation
        self.state = state
        self.signature = signature
    }

    /// Reads a signed state from its JSON (``jsonData()``), with every way it can be wrong (truncated, garbled,
    /// too large or deep, a bare unsigned state, another format or version) an error naming `source`.
    /// The signature is checked by ``DialogueStateSigner/verify(_:conversation:source:)``, not here.
    public init(jsonData data: Data, source: String) throws(SignedStateError) {
        guard data.count <= Self.maximumBytes else { throw .tooLarge(source: source, bytes: data.count, limit: Self.maximumBytes) }
        guard JSONNesting.depth(data) <= JSONNesting.maximumDepth else {
            throw .malformed(source: source, reason: "its JSON nests deeper than \(JSONNesting.maximumDepth) levels")
        }
        let decoded: SignedDialogueState
        do {
            decoded = try JSONDecoder().decode(SignedDialogueState.self, from: data)
        } catch {
            // A bare state (the form written before states were signed) is told apart, so the message can say so.
            if (try? JSONDecoder().decode(BareState.self, from: data)) != nil { throw .unsigned(source: source) }
            if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { throw .malformed(source: source, reason: "it is empty") }
            let (field, reason) = JSONFile.describe(anyError: error, decoding: SignedDialogueState.self, from: data)
            throw .malformed(source: source, reason: field.isEmpty ? reason : "field '\(EchoedValue.prefix(field))': \(reason)")
        }
        guard decoded.format == Self.formatName else {
            throw .malformed(source: source, reason: "its format is '\(EchoedValue.prefix(decoded.format))', not '\(Self.formatName)'")
        }
        guard decoded.formatVersion == Self.currentFormatVersion else {
            throw .malformed(source: source, reason: "format version \(decoded.formatVersion) is not one this NLUKit reads (\(Self.currentFormatVersion))")
        }
        self = decoded
    }

    /// The signed state as JSON (sorted keys, one line and a newline), for a file or a store.
    public func jsonData() throws(SignedStateError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(self)
            data.append(0x0A)
            return data
        } catch {
            throw .unencodable(source: conversation.map { "conversation '\($0)'" } ?? "the conversation state", reason: "\(error)")
        }
    }

    /// The members every bare ``DialogueState`` has.
    private struct BareState: Decodable {
        var dialogue: String
        var turn: Int
        var context: [String: DialogueValue]
    }
}

import Foundation
import NLUTestSupport
import Testing
@testable import NLUDialogue

/// Signed conversation states (HMAC-SHA256, `DialogueStateSigner`): what an application lets out of its hands
/// comes back only unchanged, signed with its key, for the same conversation and dialogue; every malformed blob
/// is an error naming its source, never a crash. The pizza bot of `DialogueRuntimeTests`, mid-order.
@Suite struct SignedStateTests {
    static let key = try! DialogueStateKey(bytes: [UInt8](repeating: 7, count: 32))
    static let otherKey = try! DialogueStateKey(bytes: (0..<32).map { UInt8($0) })

    /// The pizza bot after the greeting and "a pizza": the order node asks for the size.
    static func midOrder() throws -> (Dialogue, Conversation) {
        var conversation = Conversation(dialogue: try DialogueRuntimeTests.dialogue())
        _ = try conversation.send(DialogueRuntimeTests.say(""))
        #expect(try conversation.send(DialogueRuntimeTests.say("a pizza", "order")).texts == ["Which size?"])
        #expect(conversation.state.position == .slot(frame: "order", slot: "size"))
        return (conversation.dialogue, conversation)
    }

    /// `signed` with its state's JSON changed by `edit` (the signature kept).
    static func tampered(_ signed: SignedDialogueState, _ edit: (inout [String: Any]) -> Void) throws -> SignedDialogueState {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(signed.state.utf8)) as? [String: Any])
        edit(&object)
        var copy = signed
        copy.state = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        return copy
    }

    @Test func aGoodStateRoundTripsAndTheConversationGoesOn() throws {
        let (dialogue, conversation) = try Self.midOrder()
        let signer = DialogueStateSigner(key: Self.key)
        let data = try conversation.signedState(using: signer, conversation: "user-42").jsonData()
        // Readable: the state is JSON text inside, the signature 32 bytes of base64, the key named by identifier only.
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["format", "formatVersion", "key", "conversation", "state", "signature"])
        #expect(object["format"] as? String == "nlu-dialogue-state" && object["formatVersion"] as? Int == 1)
        #expect(object["key"] as? String == Self.key.identifier && Self.key.identifier.count == 16)
        #expect(Data(base64Encoded: object["signature"] as? String ?? "")?.count == 32)
        #expect((object["state"] as? String)?.contains(#""slot":{"frame":"order","slot":"size"}"#) == true)

        let read = try SignedDialogueState(jsonData: data, source: "saved")
        var resumed = try Conversation(dialogue: dialogue, signedState: read, signer: signer, conversation: "user-42")
        #expect(resumed.state == conversation.state)
        var unsigned = conversation
        let large = DialogueRuntimeTests.say("large", nil, [("size", "large")])
        let resumedTurn = try resumed.send(large)
        let unsignedTurn = try unsigned.send(large)
        #expect(resumedTurn == unsignedTurn)
        #expect(resumedTurn.texts == ["How many?"])
    }

    /// A signed state made by Python's `hmac` module from docs/dialogue.md's description alone (the key 32 bytes of
    /// 7; its identifier the first 16 hex digits of SHA-256 over "nlu-dialogue-state-key" and the key; the message
    /// "nlu-dialogue-state 1\n", the identifier, "\n", "=7:user-42" or "-", "\n", the state's JSON) verifies, and
    /// NLUKit signs that state to the same bytes: the format is what the documentation says.
    @Test func aSignatureMadeElsewhereFromTheDocumentedFormatVerifies() throws {
        #expect(Self.key.identifier == "4cf0371629a5e498")
        let state = #"{"context":{"size":"large"},"counters":{},"dialogue":"x","random":0,"returns":[],"turn":2}"#
        let json = #"{"conversation":"user-42","format":"nlu-dialogue-state","formatVersion":1,"key":"4cf0371629a5e498","#
            + #""signature":"EKz4gzWRt2NiBuANgzjOi3ODOdMevmj3aqghCclWW8s=","state":"# + "\(try Self.jsonString(state))}"
        let signer = DialogueStateSigner(key: Self.key)
        let verified = try signer.verify(try SignedDialogueState(jsonData: Data(json.utf8), source: "python"), conversation: "user-42", source: "python")
        #expect(verified.dialogue == "x" && verified.turn == 2 && verified.context == ["size": DialogueValue.string("large")])
        #expect(try signer.sign(verified, conversation: "user-42").signature == "EKz4gzWRt2NiBuANgzjOi3ODOdMevmj3aqghCclWW8s=")
        #expect(try signer.sign(verified).signature == "8mK10dGo+4QwJTDRHuquBIu4oums6xtVq3U0gUL3YZk=")
        #expect(try signer.sign(verified).state == state)
    }

    static func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    @Test func anEditedFieldIsRefused() throws {
        let (dialogue, conversation) = try Self.midOrder()
        let signer = DialogueStateSigner(key: Self.key)
        let signed = try conversation.signedState(using: signer)
        let edits: [(String, (inout [String: Any]) -> Void)] = [
            ("a context variable", { $0["context"] = ["orders": 99, "size": "large"] as [String: Any] }),
            ("a filled slot skipped", { $0["context"] = ["orders": 0, "size": "large", "count": 2] as [String: Any] }),
            ("the place in the flow", { $0["position"] = ["confirmation": ["frame": "order"]] }),
            ("the turn count", { $0["turn"] = 0 }),
            ("the random generator", { $0["random"] = 12345 }),
        ]
        for (what, edit) in edits {
            let forged = try Self.tampered(signed, edit)
            #expect(throws: SignedStateError.signatureMismatch(source: "state.json"), "\(what)") {
                try dialogue.verifiedState(forged, signer: signer, source: "state.json")
            }
        }
        // One byte of the JSON text, and the conversation it was signed for, are covered too.
        var byte = signed
        byte.state = signed.state.replacingOccurrences(of: #""orders":0"#, with: #""orders":1"#)
        #expect(byte.state != signed.state)
        #expect(throws: SignedStateError.signatureMismatch(source: "the conversation state")) { try signer.verify(byte, source: "the conversation state") }
        var rebound = signed
        rebound.conversation = "someone-else"
        #expect(throws: SignedStateError.signatureMismatch(source: "conversation 'someone-else'")) {
            try Conversation(dialogue: dialogue, signedState: rebound, signer: signer, conversation: "someone-else")
        }
        // A signature lifted from another state of the same key does not fit.
        var lifted = signed
        lifted.signature = try signer.sign(dialogue.newState()).signature
        #expect(throws: SignedStateError.signatureMismatch(source: "x")) { try signer.verify(lifted, source: "x") }
        #expect(SignedStateError.signatureMismatch(source: "state.json").description
                .hasPrefix("state.json: the conversation state's signature does not verify: it was changed after it was signed"))
    }

    @Test func aWrongKeyIsRefusedAndOldKeysStillVerify() throws {
        let (dialogue, conversation) = try Self.midOrder()
        let signed = try conversation.signedState(using: DialogueStateSigner(key: Self.otherKey))
        #expect(throws: SignedStateError.unknownKey(source: "state.json", key: Self.otherKey.identifier, keysTried: 1)) {
            try dialogue.verifiedState(signed, signer: DialogueStateSigner(key: Self.key), source: "state.json")
        }
        // Claiming the right key's identifier does not help: the code is checked with that key.
        var claimed = signed
        claimed.key = Self.key.identifier
        #expect(throws: SignedStateError.signatureMismatch(source: "state.json")) {
            try dialogue.verifiedState(claimed, signer: DialogueStateSigner(key: Self.key), source: "state.json")
        }
        // Rotation: the old key verifies, the new one signs.
        let rotated = DialogueStateSigner(key: Self.key, previousKeys: [Self.otherKey])
        #expect(try dialogue.verifiedState(signed, signer: rotated) == conversation.state)
        #expect(try rotated.sign(conversation.state).key == Self.key.identifier)
        #expect(SignedStateError.unknownKey(source: "s", key: "k", keysTried: 3).description
                == "s: the conversation state was signed with another key (k) than the 3 keys given (the current one and its previous ones); "
                    + "if the key was replaced, give the old one as a previous key")
    }

    @Test func aStateOfAnotherDialogueOrConversationIsRefused() throws {
        let (_, conversation) = try Self.midOrder()
        let signer = DialogueStateSigner(key: Self.key)
        let other = try Dialogue(try DialogueModel.decode(from: Data(#"{"format":"nlu-dialogue","formatVersion":1,"nodes":[{"id":"a","condition":"anything_else"}]}"#.utf8), file: "other.json"))
        let signed = try conversation.signedState(using: signer, conversation: "user-42")
        do throws(SignedStateError) {
            _ = try Conversation(dialogue: other, signedState: signed, signer: signer, conversation: "user-42")
            Issue.record("a state of another dialogue was accepted")
        } catch {
            guard case .refusedByDialogue(let source, .stateFromAnotherDialogue(let expected, let found)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(source == "conversation 'user-42'" && expected == other.fingerprint && found == conversation.dialogue.fingerprint)
            #expect(error.description.hasPrefix("conversation 'user-42': the conversation state belongs to another dialogue"))
        }
        #expect(throws: SignedStateError.otherConversation(source: "conversation 'user-7'", signedFor: "user-42", expected: "user-7")) {
            try Conversation(dialogue: conversation.dialogue, signedState: signed, signer: signer, conversation: "user-7")
        }
        #expect(throws: SignedStateError.otherConversation(source: "the conversation state", signedFor: "user-42", expected: nil)) {
            try Conversation(dialogue: conversation.dialogue, signedState: signed, signer: signer)
        }
        // Signed by the key holder, but naming a node the dialogue lacks: refused by the dialogue, named.
        var state = conversation.state
        state.position = .children(node: "no-such-node")
        #expect(throws: SignedStateError.refusedByDialogue(source: "s", .invalidState("no node 'no-such-node'"))) {
            try conversation.dialogue.verifiedState(try signer.sign(state), signer: signer, source: "s")
        }
    }

    @Test func truncatedOrGarbledBlobsGiveClearErrors() throws {
        let (dialogue, conversation) = try Self.midOrder()
        let signer = DialogueStateSigner(key: Self.key)
        let data = try conversation.signedState(using: signer).jsonData()
        // Every truncation is refused as malformed (the JSON no longer parses), none crashes.
        for length in 0..<data.count - 1 {
            do throws(SignedStateError) {
                _ = try dialogue.verifiedState(try SignedDialogueState(jsonData: data.prefix(length), source: "cut"), signer: signer)
                Issue.record("a blob cut at \(length) of \(data.count) bytes was accepted")
            } catch {
                guard case .malformed(let source, let reason) = error, source == "cut", !reason.isEmpty else {
                    Issue.record("cut at \(length): \(error)")
                    continue
                }
            }
        }
        // Garbled bytes anywhere: refused, with an error of the right kind.
        var generator = SplitMix(seed: 43)
        for _ in 0..<300 {
            var garbled = [UInt8](data)
            for _ in 0..<(1 + Int(generator.next() % 3)) {
                garbled[Int(generator.next() % UInt64(garbled.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            guard garbled != [UInt8](data) else { continue }
            do throws(SignedStateError) {
                let state = try dialogue.verifiedState(try SignedDialogueState(jsonData: Data(garbled), source: "g"), signer: signer, source: "g")
                // Only a change JSON does not see (white space outside strings) may pass, and then it is the same state.
                #expect(state == conversation.state)
            } catch {
                #expect(error.source == "g")
            }
        }
        let cases: [(String, SignedStateError)] = [
            ("", .malformed(source: "f", reason: "it is empty")),
            (String(repeating: "[", count: 300) + String(repeating: "]", count: 300), .malformed(source: "f", reason: "its JSON nests deeper than 256 levels")),
            (#"{"dialogue": "abc", "turn": 3, "context": {"size": "large"}, "returns": [], "counters": {}, "random": 0}"#, .unsigned(source: "f")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected, "\(text.prefix(40))") { try SignedDialogueState(jsonData: Data(text.utf8), source: "f") }
        }
        for text in ["[1, 2]", "{", "null", #"{"format": 5}"#, "\u{FF}\u{FE}"] {
            do throws(SignedStateError) {
                _ = try SignedDialogueState(jsonData: Data(text.utf8), source: "f")
                Issue.record("\(text) was accepted")
            } catch {
                guard case .malformed(let source, let reason) = error else { Issue.record("\(text): \(error)"); continue }
                #expect(source == "f" && !reason.isEmpty)
                #expect(error.description.hasPrefix("f: not a signed conversation state: "), "\(error)")
            }
        }
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["formatVersion"] = 2
        #expect(throws: SignedStateError.malformed(source: "f", reason: "format version 2 is not one this NLUKit reads (1)")) {
            try SignedDialogueState(jsonData: try JSONSerialization.data(withJSONObject: object), source: "f")
        }
        object["formatVersion"] = 1e30
        #expect(throws: SignedStateError.self) { try SignedDialogueState(jsonData: try JSONSerialization.data(withJSONObject: object), source: "f") }
        object["formatVersion"] = 1
        object["format"] = "nlu-dialogue"
        #expect(throws: SignedStateError.malformed(source: "f", reason: "its format is 'nlu-dialogue', not 'nlu-dialogue-state'")) {
            try SignedDialogueState(jsonData: try JSONSerialization.data(withJSONObject: object), source: "f")
        }
        var badSignature = try SignedDialogueState(jsonData: data, source: "f")
        for signature in ["", "not base64!", Data(repeating: 1, count: 31).base64EncodedString(), String(repeating: "A", count: 10_000)] {
            badSignature.signature = signature
            #expect(throws: SignedStateError.malformed(source: "f", reason: "field 'signature': not an HMAC-SHA256 in base64 (32 bytes)")) {
                try signer.verify(badSignature, source: "f")
            }
        }
        // Too large: refused before it is parsed.
        let huge = Data(repeating: 0x20, count: SignedDialogueState.maximumBytes + 1)
        #expect(throws: SignedStateError.tooLarge(source: "f", bytes: huge.count, limit: SignedDialogueState.maximumBytes)) {
            try SignedDialogueState(jsonData: huge, source: "f")
        }
    }

    @Test func keysAreReadCheckedAndNeverShown() throws {
        let hex = String(repeating: "07", count: 32)
        let key = try DialogueStateKey(hex: "  \(hex.uppercased())\n", source: "k")
        #expect(key.identifier == Self.key.identifier)
        #expect(!"\(key)".contains(hex) && !String(reflecting: key).contains(hex) && "\(key)" == "DialogueStateKey(\(key.identifier))")
        #expect(throws: DialogueStateKeyError(source: "k", reason: "holds 62 characters; a state key is 64 hex digits (32 bytes)")) {
            try DialogueStateKey(hex: String(hex.dropLast(2)), source: "k")
        }
        #expect(throws: DialogueStateKeyError(source: "k", reason: "has a character that is not a hex digit at offset 5; a state key is 64 hex digits")) {
            try DialogueStateKey(hex: "07070g" + hex.dropFirst(6), source: "k")
        }
        #expect(throws: DialogueStateKeyError(source: "the key", reason: "has 16 bytes; a state key has 32")) {
            try DialogueStateKey(bytes: [UInt8](repeating: 1, count: 16))
        }
        #expect(DialogueStateKey.random().identifier != DialogueStateKey.random().identifier)

        let folder = TestScratch.file("nlu-state-key")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config/nlu/dialogue-state.key")
        let (made, created) = try DialogueStateKey.loadOrCreate(at: file)
        #expect(created)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.count == 65 && text.hasSuffix("\n"))
        let (loaded, createdAgain) = try DialogueStateKey.loadOrCreate(at: file)
        #expect(!createdAgain && loaded.identifier == made.identifier)
        #expect(try DialogueStateKey(hex: text, source: "t").identifier == made.identifier)
        // Nothing left beside it but the key.
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["dialogue-state.key"])
        try Data("not a key\n".utf8).write(to: file)
        #expect(throws: DialogueStateKeyError(source: file.path, reason: "holds 9 characters; a state key is 64 hex digits (32 bytes)")) {
            try DialogueStateKey.loadOrCreate(at: file)
        }
        #expect(throws: DialogueStateKeyError.self) { try DialogueStateKey(contentsOf: folder.appendingPathComponent("missing.key")) }
    }

    /// Many processes' worth of first uses at once agree on one key: the file is created once and never replaced.
    @Test func concurrentFirstUsesAgreeOnOneKey() async throws {
        let folder = TestScratch.file("nlu-state-key")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("dialogue-state.key")
        let results = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let (key, created) = try DialogueStateKey.loadOrCreate(at: file)
                    return (key.identifier, created)
                }
            }
            return try await group.reduce(into: [(String, Bool)]()) { $0.append($1) }
        }
        #expect(Set(results.map(\.0)).count == 1)
        #expect(results.filter(\.1).count == 1)
    }
}

/// SplitMix64, for reproducible garbling.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

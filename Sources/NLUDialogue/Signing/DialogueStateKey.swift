import Crypto
import Foundation
import NLUInputOutput

/// The secret that signs an application's conversation states (HMAC-SHA256, ``DialogueStateSigner``): 32 random
/// bytes the application owns and keeps where clients cannot read them (a file only its user reads, the
/// keychain, its service's secrets). Anyone holding the key can forge states, so it is never printed: its
/// description shows only ``identifier``.
///
///     let key = DialogueStateKey.random()                                         // a new secret
///     let (key, created) = try DialogueStateKey.loadOrCreate(at: keyFileURL)    // 64 hex digits, mode 0600
///     let key = try DialogueStateKey(hex: secret, source: "NLUKIT_DIALOGUE_STATE_KEY")
public struct DialogueStateKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The key's length in bytes: SHA-256's output size, the size RFC 2104 recommends for an HMAC key.
    public static let byteCount = 32
    /// The most a key file may hold (64 hex digits and white space): a larger file is no key file.
    public static let maximumFileBytes = 4096

    let symmetricKey: SymmetricKey
    /// Names the key without revealing it: 16 hex digits of SHA-256 over a label and the key. A signed state
    /// carries it, so that verification picks the key it was signed with (rotation) and can tell a state
    /// signed with another key from an edited one.
    public let identifier: String

    /// A new key from the system's secure random generator.
    public static func random() -> DialogueStateKey {
        DialogueStateKey(SymmetricKey(size: .bits256))
    }

    /// The key whose bytes are `bytes` (exactly ``byteCount`` of them).
    /// - Throws: ``DialogueStateKeyError`` for another length (`source` names where the bytes came from).
    public init(bytes: some Collection<UInt8>, source: String = "the key") throws(DialogueStateKeyError) {
        guard bytes.count == Self.byteCount else {
            throw DialogueStateKeyError(source: source, reason: "has \(bytes.count) bytes; a state key has \(Self.byteCount)")
        }
        self.init(SymmetricKey(data: Array(bytes)))
    }

    /// The key written as 64 hex digits (either case; white space around them is ignored), as in a key file.
    /// - Throws: ``DialogueStateKeyError`` naming `source` (a file, a variable); the text itself is never quoted.
    public init(hex: some StringProtocol, source: String) throws(DialogueStateKeyError) {
        let digits = Array(hex.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard digits.count == 2 * Self.byteCount else {
            throw DialogueStateKeyError(source: source, reason: "holds \(digits.count) characters; a state key is \(2 * Self.byteCount) hex digits (\(Self.byteCount) bytes)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        for offset in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.hexValue(digits[offset]), let low = Self.hexValue(digits[offset + 1]) else {
                let bad = Self.hexValue(digits[offset]) == nil ? offset : offset + 1
                throw DialogueStateKeyError(source: source, reason: "has a character that is not a hex digit at offset \(bad); a state key is \(2 * Self.byteCount) hex digits")
            }
            bytes.append(high << 4 | low)
        }
        self.init(SymmetricKey(data: bytes))
    }

    /// The key in the file at `url` (64 hex digits).
    /// - Throws: ``DialogueStateKeyError`` naming the file: missing, unreadable, too large, or not a key.
    public init(contentsOf url: URL) throws(DialogueStateKeyError) {
        let data: Data
        do {
            data = try InputFile.read(url, name: url.path, maximumBytes: Self.maximumFileBytes)
        } catch let error as InputTooLargeError {
            throw DialogueStateKeyError(source: url.path, reason: "is larger than \(error.limit) bytes; a state key file holds \(2 * Self.byteCount) hex digits")
        } catch let error as InputReadError {
            throw DialogueStateKeyError(source: url.path, reason: "cannot be read (\(error.reason))")
        } catch {
            throw DialogueStateKeyError(source: url.path, reason: "cannot be read (\(error))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw DialogueStateKeyError(source: url.path, reason: "is not text; a state key file holds \(2 * Self.byteCount) hex digits")
        }
        try self.init(hex: text, source: url.path)
    }

    /// The key in the file at `url`, or, when there is none, a new random key written there first: made
    /// readable by its owner only (0600; a missing folder is made 0700), written atomically and never over a
    /// file that appeared meanwhile (two processes starting at once agree on one key). `created` says which.
    /// - Throws: ``DialogueStateKeyError`` naming the file.
    public static func loadOrCreate(at url: URL) throws(DialogueStateKeyError) -> (key: DialogueStateKey, created: Bool) {
        if FileManager.default.fileExists(atPath: url.path) { return (try DialogueStateKey(contentsOf: url), false) }
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DialogueStateKeyError(source: url.path, reason: "its folder \(folder.path) cannot be made (\(error.localizedDescription))")
        }
        let key = random()
        let created: Bool
        do {
            created = try AtomicFile.createNew(at: url, permissions: 0o600) { try $0.write(Data((key.hexDigits + "\n").utf8)) }
        } catch let error as AtomicFile.WriteError {
            throw DialogueStateKeyError(source: url.path, reason: "cannot be created: \(error.reason)")
        } catch {
            throw DialogueStateKeyError(source: url.path, reason: "cannot be created: \(error)")
        }
        if created { return (key, true) }
        // Another process made the file between the check and the link: its key is the one to use.
        return (try DialogueStateKey(contentsOf: url), false)
    }

    public var description: String { "DialogueStateKey(\(identifier))" }
    public var debugDescription: String { description }

    private init(_ key: SymmetricKey) {
        self.symmetricKey = key
        // A label keeps the identifier apart from any other hash of the same secret.
        var hasher = SHA256()
        hasher.update(data: Data("nlu-dialogue-state-key".utf8))
        key.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        self.identifier = String(Self.hex(hasher.finalize()).prefix(16))
    }

    /// The secret as a key file holds it; private so that nothing prints it by mistake.
    private var hexDigits: String {
        symmetricKey.withUnsafeBytes { Self.hex($0) }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// A state key that cannot be had: where it was looked for, and why (never the key's text).
public struct DialogueStateKeyError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The file or variable the key was read from.
    public var source: String
    public var reason: String

    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String { "state key \(source): \(reason)" }
    public var errorDescription: String? { description }
}

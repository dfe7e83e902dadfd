/// The name of one conversation in a ``ConversationStore``: what a client sends as Rasa's `sender` or in
/// `/conversations/{id}`. 1 to 128 ASCII letters, digits and `-_.:@+`, so that it is a URL path segment as
/// it is, a database key, and a log field that cannot forge log lines.
///
///     let id = try ConversationID("user-42")
public struct ConversationID: Sendable, Hashable, CustomStringConvertible {
    /// The longest id accepted, in characters.
    public static let maximumLength = 128
    /// The punctuation allowed besides letters and digits (phone numbers, e-mail addresses, UUIDs fit).
    public static let punctuation: Set<Unicode.Scalar> = ["-", "_", ".", ":", "@", "+"]

    public let value: String

    /// - Throws: ``ConversationIDError`` saying what is wrong (empty, too long, the first character not allowed).
    public init(_ value: String) throws(ConversationIDError) {
        guard !value.isEmpty else { throw ConversationIDError(reason: "is empty") }
        let length = value.unicodeScalars.count
        guard length <= Self.maximumLength else {
            throw ConversationIDError(reason: "has \(length) characters; at most \(Self.maximumLength) are accepted")
        }
        if let bad = value.unicodeScalars.firstIndex(where: { !Self.isAllowed($0) }) {
            let position = value.unicodeScalars.distance(from: value.unicodeScalars.startIndex, to: bad)
            throw ConversationIDError(reason: "has a character that is not allowed at offset \(position) (U+\(String(value.unicodeScalars[bad].value, radix: 16, uppercase: true))); "
                + "allowed: ASCII letters, digits and \(Self.punctuation.map(String.init).sorted().joined())")
        }
        self.value = value
    }

    public var description: String { value }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || punctuation.contains(scalar)
    }
}

/// A conversation id that is not one (``ConversationID``).
public struct ConversationIDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, as the end of a sentence starting "the conversation id ...".
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { "the conversation id \(reason)" }
}

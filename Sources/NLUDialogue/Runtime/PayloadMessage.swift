import Foundation
import NLUInputOutput

/// Rasa's payload messages: a text that names the intent and entities itself instead of being classified —
/// what Rasa's buttons send (`/inform{"cuisine": "thai"}`) and what a user can type (`/restart`). Rasa 3's
/// `RegexMessageHandler` reads them with the pattern `^/(intent)(@confidence)?({json})?(rest)`; this reader
/// follows it (semantics ported from `YAMLStoryReader.unpack_regex_message`, Rasa 3.6):
///
/// - the text, trimmed, starts with `/`; the intent is everything up to the first `{` or `@`, trimmed;
/// - `@0.7` gives the confidence (default 1); one that does not read as a number is 0, one over 1 is 1
///   (each with a warning);
/// - `{…}` (from the first `{` to the last `}` of that line) is a JSON object of entities: a list value gives one
///   mention per element; JSON that does not parse, or is not an object, gives no entities (with a warning),
///   and the intent still holds, as in Rasa;
/// - anything after that is ignored, with a warning;
/// - an intent the caller does not know (``parse(_:intents:entities:)``'s `intents`) or a text that does not
///   match makes it no payload: the text is then classified as any other (Rasa keeps its NLU's parse then).
///
///     PayloadMessage.parse(#"/inform{"cuisine": "thai", "number": 2}"#)?.message
///     // ParsedMessage(text: …, intents: [inform 1.0], entities: [cuisine "thai", number "2" (2)])
public struct PayloadMessage: Sendable, Equatable {
    /// The message, or `nil` when the text starts with `/` but is not a payload (classify it as text).
    public var message: ParsedMessage?
    /// What was left out or corrected, in Rasa's terms.
    public var warnings: [String]

    /// The intent a `/restart` payload names: Rasa's default intent that restarts a conversation.
    public static let restartIntent = "restart"

    /// - Parameters:
    ///   - intents: the intents the bot knows; `nil` accepts any name. Rasa's default intents (`restart`,
    ///     `back`, `out_of_scope`, `session_start`, `nlu_fallback`) are always known.
    ///   - entities: the entity names the bot knows; others are left out (with a warning). `nil` keeps all.
    /// - Returns: `nil` when `text` does not start with `/` (an ordinary message).
    public static func parse(_ text: String, intents: Set<String>? = nil, entities: Set<String>? = nil) -> PayloadMessage? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.first == "/" else { return nil }
        var warnings: [String] = []
        let scalars = Array(trimmed.unicodeScalars)
        var index = 1
        while index < scalars.count, scalars[index] != "{", scalars[index] != "@" { index += 1 }
        let intent = String(String.UnicodeScalarView(scalars[1..<index])).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !intent.isEmpty else {
            return PayloadMessage(message: nil, warnings: ["'\(trimmed)' starts with '/' but names no intent: taken as text"])
        }
        if let intents, !intents.contains(intent), !defaultIntents.contains(intent) {
            return PayloadMessage(message: nil, warnings: [
                "'\(trimmed)': the bot has no intent '\(intent)' (known: \(intents.sorted().joined(separator: ", "))): taken as text"])
        }
        var confidence = 1.0
        if index < scalars.count, scalars[index] == "@" {
            var end = index + 1
            while end < scalars.count, scalars[end] == "." || ("0"..."9").contains(scalars[end]) { end += 1 }
            if end > index + 1 {
                let written = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                // Python's float(): 400 nines read as infinity, which is over 1 like any other.
                if let number = Double(written), !number.isNaN {
                    if number > 1 {
                        warnings.append("'\(trimmed)': confidence \(written) is over 1: taken as 1")
                        confidence = 1
                    } else {
                        confidence = number
                    }
                } else {
                    warnings.append("'\(trimmed)': confidence '\(written)' is not a number: taken as 0")
                    confidence = 0
                }
                index = end
            }
        }
        var mentions: [ParsedMessage.Entity] = []
        if index < scalars.count, scalars[index] == "{" {
            // Python's `{.+}`: the last `}` of the line, with at least one character between the braces.
            let lineEnd = scalars[index...].firstIndex(of: "\n") ?? scalars.count
            if let close = scalars[(index + 1)..<lineEnd].lastIndex(of: "}"), close > index + 1 {
                let json = String(String.UnicodeScalarView(scalars[index...close]))
                switch entityMentions(json, start: index, end: close + 1) {
                case .success(let found):
                    for mention in found {
                        if let entities, !entities.contains(mention.entity) {
                            let warning = "'\(trimmed)': the bot has no entity '\(mention.entity)': left out"
                            if !warnings.contains(warning) { warnings.append(warning) }
                        } else {
                            mentions.append(mention)
                        }
                    }
                case .failure(let failure):
                    warnings.append("'\(trimmed)': the entities are not a JSON object (\(failure.reason)): no entities taken")
                }
                index = close + 1
            }
        }
        let rest = String(String.UnicodeScalarView(scalars[index...]))
        if let line = rest.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first, !line.isEmpty {
            warnings.append("'\(trimmed)': '\(line)' after the intent and entities is ignored")
        }
        let message = ParsedMessage(text: trimmed, intents: [.init(intent: intent, confidence: confidence)], entities: mentions)
        return PayloadMessage(message: message, warnings: warnings)
    }

    /// Whether `message` is a restart command: the `/restart` payload (its text starts with `/` and its intent
    /// is `restart`). Any dialogue restarts on it; a Rasa dialogue restarts on the intent `restart` however
    /// it was recognized (Rasa's default action mapping).
    public static func isRestart(_ message: ParsedMessage) -> Bool {
        message.intents.first?.intent == restartIntent && message.text.trimmingCharacters(in: .whitespacesAndNewlines).first == "/"
    }

    /// The intents every Rasa domain has (`rasa.shared.core.constants.DEFAULT_INTENTS`).
    static let defaultIntents: Set<String> = ["restart", "back", "out_of_scope", "session_start", "nlu_fallback"]

    /// The deepest JSON a payload's entities may nest (as the dialogue files).
    static let maximumNesting = 64

    private struct Failure: Error { var reason: String }

    /// The mentions a JSON object of entities gives, in the object's key order (Rasa's dict order): a list
    /// value gives one mention per element; a number carries its number; `null` values are left out (they
    /// fill nothing in Rasa). `start`/`end` are the JSON's offsets, as Rasa gives every such entity.
    private static func entityMentions(_ json: String, start: Int, end: Int) -> Result<[ParsedMessage.Entity], Failure> {
        let data = Data(json.utf8)
        if JSONNesting.depth(data) > maximumNesting { return .failure(Failure(reason: "nested deeper than \(maximumNesting) levels")) }
        let object: [String: DialogueValue]
        do {
            guard case .object(let decoded) = try JSONDecoder().decode(DialogueValue.self, from: data) else {
                return .failure(Failure(reason: "not an object"))
            }
            object = decoded
        } catch {
            return .failure(Failure(reason: JSONFile.syntaxErrorLocation(error, data: data)))
        }
        var mentions: [ParsedMessage.Entity] = []
        for key in topLevelKeys(json) {
            guard let value = object[key] else { continue }
            let values: [DialogueValue]
            if case .array(let list) = value { values = list } else { values = [value] }
            for value in values where value != .null {
                let number: Double? = if case .number(let number) = value { number } else { nil }
                let text = value.string ?? value.jsonText
                mentions.append(ParsedMessage.Entity(entity: key, value: text, start: start, end: end, number: number))
            }
        }
        return .success(mentions)
    }

    /// The keys of a JSON object's top level, in order, each once (a repeated key keeps its first place, as a
    /// Python dict does). `json` is known to parse.
    private static func topLevelKeys(_ json: String) -> [String] {
        var keys: [String] = []
        var depth = 0
        var expectingKey = false
        let bytes = Array(json.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingKey = depth == 1 && byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1 { expectingKey = true }
            case UInt8(ascii: "\""):
                // A string: find its end (skipping escapes); at depth 1 before a ':' it is a key.
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if depth == 1, expectingKey, end < bytes.count,
                   let key = try? JSONDecoder().decode(String.self, from: Data(bytes[index...end])) {
                    if !keys.contains(key) { keys.append(key) }
                    expectingKey = false
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return keys
    }
}

import Foundation
import NLUInputOutput
import Yams

/// A scripted conversation to replay against a dialogue (`nlu dialogue chat --test`): Rasa's test stories
/// (YAML, `stories:` with `user`/`intent`/`entities`, `action`, `active_loop` and `slot_was_set` steps), or
/// NLUKit's JSONL transcript (one turn per line: `{"user": {message}, "bot": [texts], "actions": [...],
/// "slots": {...}}`; `{"conversation": "name"}` starts the next conversation).
public struct ScriptedConversation: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        /// A user turn; in a transcript with what the turn must give (each check optional).
        case user(ParsedMessage, bot: [String]?, actions: [String]?, slots: [String: DialogueValue]?)
        /// An action the dialogue must predict next (test stories).
        case action(String)
        /// A text the dialogue's next action must say (a test story's end-to-end `bot:` step).
        case bot(String)
        /// A form started or stopped, as the story says (test stories).
        case activeLoop(String?)
        /// Slots set, as the story says (test stories).
        case slots([String: DialogueValue])
    }
    /// How the steps are checked: a story's steps are forced into the conversation as they are written and
    /// each action is checked as predicted (as `rasa test` does); a transcript's turns run for real.
    public enum Kind: Sendable, Equatable { case story, transcript }

    public var name: String
    public var kind: Kind
    /// The steps with their lines in the file.
    public var steps: [(step: Step, line: Int)]

    public static func == (lhs: ScriptedConversation, rhs: ScriptedConversation) -> Bool {
        lhs.name == rhs.name && lhs.kind == rhs.kind && lhs.steps.map(\.step) == rhs.steps.map(\.step) && lhs.steps.map(\.line) == rhs.steps.map(\.line)
    }

    /// Reads a test stories file (`.yml`, `.yaml`) or a transcript (any other name).
    /// - Throws: ``RasaDialogueError`` naming the file and line.
    public static func read(_ url: URL) throws -> [ScriptedConversation] {
        if ["yml", "yaml"].contains(url.pathExtension.lowercased()) { return try readStories(url) }
        let data: Data
        do { data = try InputFile.read(url) } catch let error as InputReadError {
            throw RasaDialogueError(file: url.path, line: nil, reason: "cannot be read (\(error.reason))")
        }
        return try readTranscript(data, file: url.path)
    }

    static func readStories(_ url: URL) throws -> [ScriptedConversation] {
        let file = url.path
        guard let root = try RasaDialogueImporter.parse(url), let stories = root["stories"]?.sequence else {
            throw RasaDialogueError(file: file, line: nil, reason: "expected a list under 'stories'")
        }
        return try stories.map { item in
            guard let body = item.mapping, let name = body["story"]?.string, let list = body["steps"]?.sequence else {
                throw RasaDialogueError(file: file, line: item.mark?.line, reason: "a story needs 'story' and 'steps'")
            }
            var steps: [(step: Step, line: Int)] = []
            for node in list {
                guard let step = node.mapping else { throw RasaDialogueError(file: file, line: node.mark?.line, reason: "story '\(name)': a step is not a mapping") }
                let line = node.mark?.line ?? 0
                if let text = step["user"]?.string {
                    var (plain, entities) = annotated(text.trimmingCharacters(in: .whitespacesAndNewlines))
                    // A payload (`/inform{"cuisine": "thai"}`) names its entities, and its intent when the step does not (as Rasa reads it).
                    let payload = PayloadMessage.parse(plain)?.message
                    if let payload { entities = payload.entities }
                    guard let intent = step["intent"]?.string ?? payload?.intents.first?.intent else {
                        throw RasaDialogueError(file: file, line: line, reason: "story '\(name)': a user step needs its intent (NLUKit replays parsed messages)")
                    }
                    for entity in step["entities"]?.sequence ?? [] {
                        if let name = entity.string { entities.append(.init(entity: name, value: "")) }
                        for (key, value) in entity.mapping ?? [:] where key.string != nil {
                            entities.append(.init(entity: key.string ?? "", value: value.string ?? ""))
                        }
                    }
                    steps.append((.user(ParsedMessage(text: plain, intents: [.init(intent: intent, confidence: 1)], entities: entities),
                                        bot: nil, actions: nil, slots: nil), line))
                } else if let bot = step["bot"] {
                    guard let text = bot.string else {
                        throw RasaDialogueError(file: file, line: line, reason: "story '\(name)': a 'bot' step is the text the bot says")
                    }
                    steps.append((.bot(text), line))
                } else {
                    for ruleStep in try RasaDialogueImporter.ruleSteps(step, node: node, place: "story '\(name)'", file: file) {
                        if let action = ruleStep.action { steps.append((.action(action), line)) }
                        if let loop = ruleStep.activeLoop { steps.append((.activeLoop(loop.isEmpty ? nil : loop), line)) }
                        if let slot = ruleStep.slot { steps.append((.slots([slot: ruleStep.value ?? .null]), line)) }
                        if ruleStep.intent != nil {
                            throw RasaDialogueError(file: file, line: line, reason: "story '\(name)': a user step needs 'user' (the text) beside its intent")
                        }
                    }
                }
            }
            return ScriptedConversation(name: name, kind: .story, steps: steps)
        }
    }

    /// Rasa's `[text](entity)` and `[text](entity:value)` markup: the plain text and the entities.
    static func annotated(_ text: String) -> (String, [ParsedMessage.Entity]) {
        var plain = ""
        var entities: [ParsedMessage.Entity] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]"),
              rest.index(after: close) < rest.endIndex, rest[rest.index(after: close)] == "(",
              let end = rest[close...].firstIndex(of: ")") {
            plain += rest[..<open]
            let mention = String(rest[rest.index(after: open)..<close])
            let markup = rest[rest.index(close, offsetBy: 2)..<end].split(separator: ":", maxSplits: 1).map(String.init)
            let start = plain.unicodeScalars.count
            plain += mention
            entities.append(.init(entity: markup.first ?? "", value: markup.count > 1 ? markup[1] : mention, text: mention,
                                  start: start, end: plain.unicodeScalars.count))
            rest = rest[rest.index(after: end)...]
        }
        return (plain + rest, entities)
    }

    static func readTranscript(_ data: Data, file: String) throws -> [ScriptedConversation] {
        struct Line: Decodable {
            var conversation: String?
            var user: ParsedMessage?
            var bot: [String]?
            var actions: [String]?
            var slots: [String: DialogueValue]?
        }
        guard let text = String(data: data, encoding: .utf8) else { throw RasaDialogueError(file: file, line: nil, reason: "is not UTF-8 text") }
        var conversations: [ScriptedConversation] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            let entry: Line
            do {
                entry = try JSONFile.decode(Line.self, from: Data(line.utf8), file: "\(file) line \(index + 1)")
            } catch {
                throw RasaDialogueError(file: file, line: index + 1, reason: "\(error)")
            }
            if let name = entry.conversation {
                conversations.append(ScriptedConversation(name: name, kind: .transcript, steps: []))
                continue
            }
            guard var user = entry.user else {
                throw RasaDialogueError(file: file, line: index + 1, reason: "a line is {\"conversation\": name} or a turn with \"user\"")
            }
            // A text alone that is a payload (`/inform{"cuisine": "thai"}`, `/restart`) names its intent and entities.
            if user.intents.isEmpty, user.entities.isEmpty, let payload = PayloadMessage.parse(user.text)?.message { user = payload }
            if conversations.isEmpty { conversations.append(ScriptedConversation(name: "conversation", kind: .transcript, steps: [])) }
            conversations[conversations.count - 1].steps.append((.user(user, bot: entry.bot, actions: entry.actions, slots: entry.slots), index + 1))
        }
        if conversations.isEmpty { throw RasaDialogueError(file: file, line: nil, reason: "holds no turn") }
        return conversations
    }
}

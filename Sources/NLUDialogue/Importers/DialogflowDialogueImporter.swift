import Foundation
import NLUInputOutput

/// Reads the dialogue of a Dialogflow ES agent export (a zip or its folder, as `nlu intents import` reads
/// it): each `intents/<Name>.json` becomes a node on its intent (and its input contexts) that collects the
/// parameters of its response, asks for the required ones with their prompts, sets its output contexts and
/// answers with its text responses.
///
/// | Dialogflow ES | NLUKit |
/// | --- | --- |
/// | `responses[0].parameters[]`: `required` + `prompts[]` | a required slot with the prompts (one drawn at random) |
/// | not `required` | an optional slot (filled when given) |
/// | parameter `name`, `value` `$name` | the slot's variable; its entity is the parameter's name, as the intent model tags it |
/// | `dataType` `@sys.*` / an entity of `entities/` | accepted; another type is refused |
/// | `messages[]` of `type` 0 (`speech`: one text or a list drawn at random), 2 (quick replies), 3 (image), 4 (payload) | text, options, image, payload responses |
/// | `affectedContexts[]` (`name`, `lifespan`) | context `ctx_<name>` set to the lifespan; every answering intent counts the others down by one |
/// | `contexts[]` (input contexts) | `$ctx_<name> > 0` joined to the intent's condition; such intents are tried first |
/// | `resetContexts` | every context set to 0 |
/// | `events` `WELCOME` | the `welcome` condition |
/// | `fallbackIntent` | `anything_else`, after every other intent |
///
/// Approximated, and said in the warnings: a lifespan counts the turns on which an intent answers (not the
/// turns spent filling parameters). Not mapped (warnings by intent and parameter): webhooks, events other
/// than `WELCOME`, `#context.parameter` and `$name.original` references, list parameters (the first mention
/// is taken), default values, platform-specific and card messages, message conditions.
///
///     let files = try DialogueExport.files(at: URL(fileURLWithPath: "pizza-agent.zip"))   // NLUPipelines
///     let (model, warnings) = try DialogflowDialogueImporter.read(files)
public enum DialogflowDialogueImporter {
    struct Agent: Decodable { var language: String? }
    struct IntentFile: Decodable {
        var name: String?
        var contexts: [String]?
        var responses: [Response]?
        var webhookUsed: Bool?
        var webhookForSlotFilling: Bool?
        var fallbackIntent: Bool?
        var events: [Event]?
    }
    struct Event: Decodable { var name: String }
    struct Response: Decodable {
        var resetContexts: Bool?
        var affectedContexts: [AffectedContext]?
        var parameters: [Parameter]?
        var messages: [Message]?
    }
    struct AffectedContext: Decodable { var name: String; var lifespan: Int? }
    struct Parameter: Decodable {
        var name: String
        var required: Bool?
        var dataType: String?
        var value: String?
        var defaultValue: String?
        var isList: Bool?
        var prompts: [Prompt]?
    }
    struct Prompt: Decodable { var lang: String?; var value: String }
    struct Message: Decodable {
        var type: MessageType
        var lang: String?
        var platform: String?
        var condition: String?
        var speech: Speech?
        var title: String?
        var replies: [String]?
        var imageUrl: String?
        var payload: DialogueValue?
    }
    /// Exports write the message type as a number (`0`) or as text (`"0"`).
    struct MessageType: Decodable {
        var code: Int
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) { code = number; return }
            let text = try container.decode(String.self)
            guard let number = Int(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a message type number")
            }
            code = number
        }
    }
    /// `speech` is one text or a list of them.
    struct Speech: Decodable {
        var texts: [String]
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) { texts = [text] } else { texts = try container.decode([String].self) }
        }
    }

    /// The longest context lifespan accepted (Dialogflow's console allows up to 100 or so; a file may say anything).
    static let maximumLifespan = 1000

    /// The `agent.json` of an agent (at the root, or in one folder), if `files` hold one with `intents/`.
    static func agentPath(_ files: some DialogueExportFiles) -> String? {
        files.paths.filter { $0 == "agent.json" || $0.hasSuffix("/agent.json") }.min { $0.count < $1.count }
            .flatMap { path in
                let root = String(path.dropLast("agent.json".count))
                return files.paths.contains { $0.hasPrefix(root + "intents/") } ? path : nil
            }
    }

    /// Whether `files` hold a Dialogflow ES agent (`agent.json` and `intents/`).
    public static func isAgent(_ files: some DialogueExportFiles) -> Bool { agentPath(files) != nil }

    /// The agent's dialogue, in the agent's language.
    /// - Throws: `JSONFileError` naming the file and field: malformed JSON, a parameter of an entity type the
    ///   agent lacks, a message or prompt naming a parameter the intent lacks, a lifespan out of range.
    public static func read(_ files: some DialogueExportFiles) throws -> (model: DialogueModel, warnings: [String]) {
        guard let agentPath = agentPath(files) else {
            throw JSONFileError(file: files.name, field: "", reason: "no agent.json beside an intents/ folder: not a Dialogflow ES agent")
        }
        let root = String(agentPath.dropLast("agent.json".count))
        let agent = try JSONFile.decode(Agent.self, from: try files.data(at: agentPath), file: files.displayName(agentPath))
        let language = agent.language ?? "en"
        let entityTypes = Set(files.paths.compactMap { path -> String? in
            guard path.hasPrefix(root + "entities/"), path.hasSuffix(".json"), !path.contains("_entries_") else { return nil }
            return String(path.dropFirst((root + "entities/").count).dropLast(".json".count))
        })
        var intents: [(file: IntentFile, path: String)] = []
        for path in files.paths where path.hasPrefix(root + "intents/") && path.hasSuffix(".json") && !path.contains("_usersays_") {
            intents.append((try JSONFile.decode(IntentFile.self, from: try files.data(at: path), file: files.displayName(path)), path))
        }
        // Every context some intent sets or needs: each answering intent counts the ones it does not set down.
        var contexts = Set<String>()
        for (intent, _) in intents {
            contexts.formUnion(intent.contexts ?? [])
            for response in intent.responses ?? [] { contexts.formUnion((response.affectedContexts ?? []).map(\.name)) }
        }
        var warnings: [String] = []
        var nodes: [(node: DialogueNode, rank: Int)] = []
        for (intent, path) in intents {
            var reader = IntentReader(file: files.displayName(path), name: intent.name ?? String(path.dropLast(".json".count).split(separator: "/").last ?? ""),
                                      language: language, entityTypes: entityTypes, contexts: contexts)
            let node = try reader.node(intent)
            warnings += reader.warnings
            // Dialogflow prefers an intent whose input contexts are active: those first, fallbacks last.
            let rank = intent.fallbackIntent == true ? ((intent.contexts ?? []).isEmpty ? 3 : 2) : ((intent.contexts ?? []).isEmpty ? 1 : 0)
            nodes.append((node, rank))
        }
        let ordered = nodes.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element.node)
        let name = URL(fileURLWithPath: root.isEmpty ? files.name : root).deletingPathExtension().lastPathComponent
        return (DialogueModel(name: name, language: language, source: "dialogflow", nodes: ordered), warnings)
    }

    /// The context variable of context `name` (context names hold letters, digits, `_` and `-`, as variables do).
    static func variable(context name: String) -> String { "ctx_" + name.lowercased() }

    /// One intent file read into a node, collecting its warnings.
    private struct IntentReader {
        let file: String
        let name: String
        let language: String
        let entityTypes: Set<String>
        let contexts: Set<String>
        var warnings: [String] = []

        mutating func node(_ intent: IntentFile) throws -> DialogueNode {
            let responses = intent.responses ?? []
            if responses.count > 1 { warnings.append("intent '\(name)': only the first of \(responses.count) responses is read") }
            let response = responses.first
            let parameters = response?.parameters ?? []
            let names = Set(parameters.map(\.name))
            var slots: [DialogueSlot] = []
            for (index, parameter) in parameters.enumerated() {
                slots.append(try slot(parameter, field: "responses[0].parameters[\(index)]", names: names))
            }
            var outputs: [DialogueResponse] = []
            for (index, message) in (response?.messages ?? []).enumerated() {
                outputs += try self.message(message, field: "responses[0].messages[\(index)]", names: names)
            }
            // Contexts: those this intent sets take their lifespan, the others count down by one.
            var context: [String: DialogueValue] = [:]
            for name in contexts { context[DialogflowDialogueImporter.variable(context: name)] = response?.resetContexts == true ? 0 : .string("<? $\(DialogflowDialogueImporter.variable(context: name)) - 1 ?>") }
            for (index, affected) in (response?.affectedContexts ?? []).enumerated() {
                let lifespan = affected.lifespan ?? 5
                guard (0...DialogflowDialogueImporter.maximumLifespan).contains(lifespan) else {
                    throw JSONFileError(file: file, field: "responses[0].affectedContexts[\(index)].lifespan",
                                        reason: "\(lifespan) is not a lifespan from 0 to \(DialogflowDialogueImporter.maximumLifespan) turns")
                }
                context[DialogflowDialogueImporter.variable(context: affected.name)] = .number(Double(lifespan))
            }
            var conditions: [String] = []
            var intentCondition = IntentCondition.matching(name)
            let events = (intent.events ?? []).map(\.name)
            if events.contains("WELCOME") { intentCondition = "welcome || (\(intentCondition))" }
            for event in events where event != "WELCOME" {
                warnings.append("intent '\(name)': event '\(event)' is not mapped (only WELCOME, the opening turn)")
            }
            conditions.append(intent.fallbackIntent == true ? "anything_else" : "(\(intentCondition))")
            conditions += (intent.contexts ?? []).map { "$\(DialogflowDialogueImporter.variable(context: $0)) > 0" }
            if intent.webhookUsed == true || intent.webhookForSlotFilling == true {
                warnings.append("intent '\(name)': the webhook is not called; the intent's own responses answer")
            }
            // The intent's parameters are forgotten once it answers (a new request starts anew); contexts keep what
            // follow-up intents need as their lifespans.
            let reset = slots.isEmpty ? [] : [ConditionalResponse(context: Dictionary(slots.map { ($0.variable, DialogueValue.null) },
                                                                                      uniquingKeysWith: { first, _ in first }), responses: [])]
            return DialogueNode(id: name, condition: conditions.joined(separator: " && "), context: context, responses: outputs,
                                conditionalResponses: reset, slots: slots)
        }

        private mutating func slot(_ parameter: Parameter, field: String, names: Set<String>) throws -> DialogueSlot {
            let type = parameter.dataType ?? ""
            if !type.hasPrefix("@sys."), !entityTypes.contains(String(type.drop { $0 == "@" })) {
                throw JSONFileError(file: file, field: field + ".dataType",
                                    reason: "entity type '\(type)' is neither a system entity (@sys.…) nor an entity of the agent's entities/")
            }
            if let value = parameter.value, value != "$" + parameter.name {
                warnings.append("intent '\(name)', parameter '\(parameter.name)': value '\(value)' is not mapped: the parameter takes its entity's mention")
            }
            if parameter.isList == true { warnings.append("intent '\(name)', parameter '\(parameter.name)': a list parameter takes the first mention only") }
            if let value = parameter.defaultValue, !value.isEmpty {
                warnings.append("intent '\(name)', parameter '\(parameter.name)': defaultValue '\(value)' is not mapped")
            }
            var prompt: [DialogueResponse] = []
            if parameter.required == true {
                let prompts = (parameter.prompts ?? []).enumerated().filter { ($0.element.lang ?? language) == language }
                let texts = try prompts.map { index, prompt in
                    try template(prompt.value, names: names, field: "\(field).prompts[\(index)].value")
                }
                if texts.isEmpty {
                    warnings.append("intent '\(name)', parameter '\(parameter.name)': required without a prompt in '\(language)'; collected only when given")
                } else {
                    prompt = [.text(values: texts, selection: .random)]
                }
            }
            // The intent model tags a parameter's mentions with the parameter's name (the training phrases' alias).
            return DialogueSlot(variable: parameter.name, entity: parameter.name, prompt: prompt)
        }

        private mutating func message(_ message: Message, field: String, names: Set<String>) throws -> [DialogueResponse] {
            if let lang = message.lang, lang != language { return [] }
            if let platform = message.platform, !platform.isEmpty {
                warnings.append("intent '\(name)': \(field): a message for platform '\(platform)' is not mapped")
                return []
            }
            if let condition = message.condition, !condition.isEmpty {
                warnings.append("intent '\(name)': \(field): the message condition '\(condition)' is not mapped; the message is always given")
            }
            switch message.type.code {
            case 0:
                let texts = try (message.speech?.texts ?? []).enumerated().map { index, text in
                    try template(text, names: names, field: "\(field).speech[\(index)]")
                }.filter { !$0.isEmpty }
                return texts.isEmpty ? [] : [.text(values: texts, selection: .random)]
            case 2:
                return [.options(title: try template(message.title ?? "", names: names, field: field + ".title"), description: nil, preference: "button",
                                 options: try (message.replies ?? []).enumerated().map { index, reply in
                                     let text = try template(reply, names: names, field: "\(field).replies[\(index)]")
                                     return .init(label: text, value: text)
                                 })]
            case 3:
                guard let url = message.imageUrl else { throw JSONFileError(file: file, field: field + ".imageUrl", reason: "an image message needs an imageUrl") }
                return [.image(source: url, title: nil, description: nil)]
            case 4:
                return [.payload(message.payload ?? .null)]
            default:
                warnings.append("intent '\(name)': \(field): a message of type \(message.type.code) (a card) is not mapped")
                return []
            }
        }

        /// Dialogflow's `$parameter` is NLUKit's `$variable` already; each must be a parameter of the intent.
        /// `$name.original` (the words as said) becomes the value; `#context.parameter` stays text, with a warning.
        private mutating func template(_ text: String, names: Set<String>, field: String) throws -> String {
            var result = ""
            var rest = Substring(text)
            while let dollar = rest.firstIndex(of: "$") {
                result += rest[..<dollar]
                let afterDollar = rest.index(after: dollar)
                let nameEnd = rest[afterDollar...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ?? rest.endIndex
                let name = String(rest[afterDollar..<nameEnd])
                guard !name.isEmpty, dollar == rest.startIndex || !(rest[rest.index(before: dollar)].isLetter || rest[rest.index(before: dollar)].isNumber) else {
                    result += "$"
                    rest = rest[afterDollar...]
                    continue
                }
                guard names.contains(name) else {
                    let known = names.isEmpty ? "it has no parameters" : "its parameters: \(names.sorted().joined(separator: ", "))"
                    throw JSONFileError(file: file, field: field, reason: "'$\(name)' names no parameter of the intent (\(known))")
                }
                result += "$" + name
                rest = rest[nameEnd...]
                if rest.hasPrefix(".original") {
                    warnings.append("intent '\(self.name)': \(field): $\(name).original is shown as the parameter's value")
                    rest = rest.dropFirst(".original".count)
                }
            }
            result += rest
            if result.contains("#"), result.range(of: #"#[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"#, options: .regularExpression) != nil {
                warnings.append("intent '\(name)': \(field): a #context.parameter reference is not mapped; it is shown as written")
            }
            return result
        }
    }
}

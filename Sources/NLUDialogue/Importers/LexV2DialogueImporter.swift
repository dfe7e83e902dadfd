import Foundation
import NLUInputOutput

/// Reads the dialogue of an Amazon Lex V2 bot export (a zip or its folder, as `nlu intents import` reads
/// it): each `BotLocales/<locale>/Intents/<Name>/Intent.json` becomes a node on `#Name` that collects the
/// intent's slots (`Slots/<Slot>/Slot.json`) in `slotPriorities` order, asks the intent's confirmation and
/// answers with its closing response. The `AMAZON.FallbackIntent` child answers what nothing else does.
///
/// | Lex V2 | NLUKit |
/// | --- | --- |
/// | slot `valueElicitationSetting.slotConstraint` `Required` + `promptSpecification` | a required slot with its prompt |
/// | `Optional` | an optional slot (filled when given, never asked) |
/// | slot type: custom / `AMAZON.*` | the entity of the type's name / of the slot's name (as the intent model names them) |
/// | `intentConfirmationSetting` prompt, `declinationResponse` | `confirmation` (`prompt`, `denied`) |
/// | `intentClosingSetting.closingResponse` | the node's responses; the slots are then cleared, as a Lex session forgets them |
/// | message groups: `plainTextMessage`, `ssmlMessage`, `customPayload`, `imageResponseCard` (+ `variations`) | one response per group: a text drawn at random, a payload, options |
/// | `{Slot}` in messages | `$Slot` |
///
/// What cannot run offline is a warning naming the intent (and slot): code hooks (Lambda), conditional
/// branching, initial responses, input/output contexts, slot capture responses, wait-and-continue.
///
///     let files = try DialogueExport.files(at: URL(fileURLWithPath: "PizzaBot.zip"))   // NLUPipelines
///     let (model, warnings) = try LexV2DialogueImporter.read(files)
public enum LexV2DialogueImporter {
    // MARK: the export's JSON (Lex V2's export format; the API's `messageGroups` is read as well as the
    // export's `messageGroupsList`)

    struct IntentFile: Decodable {
        var name: String
        var parentIntentSignature: String?
        var slotPriorities: [SlotPriority]?
        var intentConfirmationSetting: ConfirmationSetting?
        var intentClosingSetting: ClosingSetting?
        var initialResponseSetting: DialogueValue?
        var fulfillmentCodeHook: CodeHook?
        var dialogCodeHook: CodeHook?
        var inputContexts: [DialogueValue]?
        var outputContexts: [DialogueValue]?
    }
    struct SlotPriority: Decodable { var priority: Int?; var slotName: String?; var slotId: String? }
    struct CodeHook: Decodable { var enabled: Bool? }
    struct ConfirmationSetting: Decodable {
        var promptSpecification: Messages?
        var declinationResponse: Messages?
        var active: Bool?
        var confirmationConditional: DialogueValue?
        var declinationConditional: DialogueValue?
        var codeHook: DialogueValue?
    }
    struct ClosingSetting: Decodable {
        var closingResponse: Messages?
        var active: Bool?
        var conditional: DialogueValue?
    }
    /// A prompt or a response: message groups.
    struct Messages: Decodable {
        var messageGroupsList: [MessageGroup]?
        var messageGroups: [MessageGroup]?
        var groups: [MessageGroup] { messageGroupsList ?? messageGroups ?? [] }
        var key: String { messageGroupsList == nil && messageGroups != nil ? "messageGroups" : "messageGroupsList" }
    }
    struct MessageGroup: Decodable { var message: Message; var variations: [Message]? }
    struct Message: Decodable {
        var plainTextMessage: Value?
        var ssmlMessage: Value?
        var customPayload: Value?
        var imageResponseCard: Card?
    }
    struct Value: Decodable { var value: String }
    struct Card: Decodable {
        var title: String
        var subtitle: String?
        var imageUrl: String?
        var buttons: [Button]?
    }
    struct Button: Decodable { var text: String; var value: String }
    struct SlotFile: Decodable {
        var name: String
        var slotTypeName: String?
        var valueElicitationSetting: ValueElicitation?
    }
    struct ValueElicitation: Decodable {
        var slotConstraint: String?
        var promptSpecification: Messages?
        var defaultValueSpecification: DialogueValue?
        var slotCaptureSetting: DialogueValue?
        var waitAndContinueSpecification: DialogueValue?
    }
    struct SlotTypeFile: Decodable { var name: String }

    /// Whether `files` hold a Lex V2 bot (an `Intent.json` under `BotLocales/<locale>/Intents/<Name>/`).
    public static func isBot(_ files: some DialogueExportFiles) -> Bool {
        files.paths.contains { locale(ofIntentFile: $0) != nil }
    }

    /// The bot's dialogue, in its `en_US` locale (else the first English one, else the first).
    /// - Throws: `JSONFileError` naming the file and field: malformed JSON, a slot type that is neither the
    ///   bot's nor Amazon's, a message naming a slot the intent lacks, a priority naming no slot.
    public static func read(_ files: some DialogueExportFiles) throws -> (model: DialogueModel, warnings: [String]) {
        let intentPaths = files.paths.filter { locale(ofIntentFile: $0) != nil }
        let locales = Set(intentPaths.compactMap(locale(ofIntentFile:))).sorted()
        guard let chosen = locales.first(where: { $0 == "en_US" }) ?? locales.first(where: { $0.hasPrefix("en") }) ?? locales.first else {
            throw JSONFileError(file: files.name, field: "", reason: "no BotLocales/<locale>/Intents/<Name>/Intent.json: not a Lex V2 bot export")
        }
        var warnings: [String] = []
        if locales.count > 1 { warnings.append("\(files.name): the bot has locales \(locales.joined(separator: ", ")); reading \(chosen)") }
        let marker = "BotLocales/\(chosen)/"
        var customTypes = Set<String>()
        for path in files.paths where path.contains(marker + "SlotTypes/") && path.hasSuffix("/SlotType.json") {
            customTypes.insert(try decode(SlotTypeFile.self, path, files).name)
        }
        var nodes: [DialogueNode] = []
        var fallback: [DialogueResponse] = []
        for path in intentPaths where locale(ofIntentFile: path) == chosen {
            let intent = try decode(IntentFile.self, path, files)
            let folder = String(path.dropLast("Intent.json".count))
            let slotPaths = files.paths.filter { $0.hasPrefix(folder + "Slots/") && $0.hasSuffix("/Slot.json") }
            var slotFiles: [(file: SlotFile, path: String)] = []
            for slotPath in slotPaths { slotFiles.append((try decode(SlotFile.self, slotPath, files), slotPath)) }
            var reader = IntentReader(intent: intent, path: path, files: files, slotNames: Set(slotFiles.map(\.file.name)))
            if intent.parentIntentSignature == "AMAZON.FallbackIntent" {
                fallback = try reader.responses(intent.intentClosingSetting?.closingResponse, field: "intentClosingSetting.closingResponse")
                reader.reportUnmapped()
                warnings += reader.warnings
                continue
            }
            nodes.append(try reader.node(slots: slotFiles, customTypes: customTypes))
            warnings += reader.warnings
        }
        // Lex does not speak first: the opening turn (no text) says nothing, rather than the fallback's answer.
        nodes.insert(DialogueNode(id: "opening turn", condition: "welcome"), at: 0)
        let bot = files.paths.first { $0.hasSuffix("/Bot.json") || $0 == "Bot.json" }
            .map { $0.split(separator: "/").dropLast().last.map(String.init) ?? "" } ?? ""
        let name = bot.isEmpty ? URL(fileURLWithPath: files.name).deletingPathExtension().lastPathComponent : bot
        return (DialogueModel(name: name, language: String(chosen.prefix { $0 != "_" }), source: "lexv2", nodes: nodes, fallback: fallback), warnings)
    }

    /// One intent file read into a node, collecting its warnings.
    private struct IntentReader {
        let intent: IntentFile
        let path: String
        let files: any DialogueExportFiles
        let slotNames: Set<String>
        var warnings: [String] = []

        init(intent: IntentFile, path: String, files: some DialogueExportFiles, slotNames: Set<String>) {
            self.intent = intent
            self.path = path
            self.files = files
            self.slotNames = slotNames
        }

        var file: String { files.displayName(path) }

        mutating func node(slots slotFiles: [(file: SlotFile, path: String)], customTypes: Set<String>) throws -> DialogueNode {
            var slots: [DialogueSlot] = []
            for (slot, slotPath) in try ordered(slotFiles) {
                let slotFile = files.displayName(slotPath)
                guard let type = slot.slotTypeName else {
                    warnings.append("intent '\(intent.name)', slot '\(slot.name)': no slotTypeName (a composite slot?); not collected")
                    continue
                }
                guard let entity = AmazonDialogue.entity(slot: slot.name, type: type, customTypes: customTypes) else {
                    throw JSONFileError(file: slotFile, field: "slotTypeName",
                                        reason: "slot type '\(type)' is neither a slot type of the bot's locale nor an AMAZON built-in")
                }
                let elicitation = slot.valueElicitationSetting
                var prompt: [DialogueResponse] = []
                if elicitation?.slotConstraint == "Required" {
                    prompt = try responses(elicitation?.promptSpecification, field: "valueElicitationSetting.promptSpecification", file: slotFile)
                    if prompt.isEmpty {
                        warnings.append("intent '\(intent.name)', slot '\(slot.name)': required without a prompt; collected only when given")
                    }
                }
                for (key, value) in [("defaultValueSpecification", elicitation?.defaultValueSpecification),
                                     ("slotCaptureSetting", elicitation?.slotCaptureSetting),
                                     ("waitAndContinueSpecification", elicitation?.waitAndContinueSpecification)] where value.map(LexV2DialogueImporter.isSet) == true {
                    warnings.append("intent '\(intent.name)', slot '\(slot.name)': valueElicitationSetting.\(key) is not mapped")
                }
                slots.append(DialogueSlot(variable: slot.name, entity: entity, prompt: prompt))
            }
            var confirmation: SlotConfirmation?
            if let setting = intent.intentConfirmationSetting, setting.active != false {
                let prompt = try responses(setting.promptSpecification, field: "intentConfirmationSetting.promptSpecification")
                if !prompt.isEmpty {
                    let denied = try responses(setting.declinationResponse, field: "intentConfirmationSetting.declinationResponse")
                    confirmation = SlotConfirmation(prompt: prompt, yes: AmazonDialogue.yes, no: AmazonDialogue.no, denied: denied)
                }
                for (key, value) in [("confirmationConditional", setting.confirmationConditional),
                                     ("declinationConditional", setting.declinationConditional), ("codeHook", setting.codeHook)]
                    where value.map(LexV2DialogueImporter.isSet) == true {
                    warnings.append("intent '\(intent.name)': intentConfirmationSetting.\(key) (conditional branching, code hooks) is not mapped")
                }
            }
            var closing: [DialogueResponse] = []
            if let setting = intent.intentClosingSetting, setting.active != false {
                closing = try responses(setting.closingResponse, field: "intentClosingSetting.closingResponse")
                if setting.conditional.map(LexV2DialogueImporter.isSet) == true {
                    warnings.append("intent '\(intent.name)': intentClosingSetting.conditional (conditional branching) is not mapped")
                }
            }
            reportUnmapped()
            // A Lex session forgets an intent's slots once it closes: cleared after the closing response is
            // rendered, so the next order asks again.
            let reset = slots.isEmpty ? [] : [ConditionalResponse(context: Dictionary(slots.map { ($0.variable, DialogueValue.null) },
                                                                                      uniquingKeysWith: { first, _ in first }),
                                                                   responses: [])]
            return DialogueNode(id: intent.name, condition: "#" + intent.name, responses: closing, conditionalResponses: reset,
                                slots: slots, confirmation: confirmation)
        }

        /// The slots in `slotPriorities` order; slots it does not list follow by name, with a warning.
        private mutating func ordered(_ slotFiles: [(file: SlotFile, path: String)]) throws -> [(file: SlotFile, path: String)] {
            var byName: [String: (file: SlotFile, path: String)] = [:]
            for entry in slotFiles { byName[entry.file.name] = entry }
            var result: [(file: SlotFile, path: String)] = []
            let priorities = (intent.slotPriorities ?? []).enumerated().sorted { ($0.element.priority ?? $0.offset, $0.offset) < ($1.element.priority ?? $1.offset, $1.offset) }
            for (index, priority) in priorities {
                let name = priority.slotName ?? priority.slotId ?? ""
                guard let entry = byName.removeValue(forKey: name) else {
                    if result.contains(where: { $0.file.name == name }) { continue }
                    throw JSONFileError(file: file, field: "slotPriorities[\(index)].slotName",
                                        reason: "'\(name)' is not a slot of the intent (its Slots/ folder has \(slotNames.sorted().joined(separator: ", ")))")
                }
                result.append(entry)
            }
            for name in byName.keys.sorted() {
                guard let entry = byName[name] else { continue }
                warnings.append("intent '\(intent.name)', slot '\(name)': not in slotPriorities; asked after the others")
                result.append(entry)
            }
            return result
        }

        /// Warnings for what the intent holds that does not run offline.
        mutating func reportUnmapped() {
            if intent.fulfillmentCodeHook?.enabled == true {
                warnings.append("intent '\(intent.name)': fulfillmentCodeHook (Lambda) is not run; the closing response answers")
            }
            if intent.dialogCodeHook?.enabled == true {
                warnings.append("intent '\(intent.name)': dialogCodeHook (Lambda) is not run; slots are taken as recognized, without validation")
            }
            if intent.initialResponseSetting.map(LexV2DialogueImporter.isSet) == true {
                warnings.append("intent '\(intent.name)': initialResponseSetting (initial response, its conditional branching and code hook) is not mapped")
            }
            if !(intent.inputContexts ?? []).isEmpty || !(intent.outputContexts ?? []).isEmpty {
                warnings.append("intent '\(intent.name)': inputContexts / outputContexts are not mapped: the intent is recognized in any context")
            }
        }

        mutating func responses(_ messages: Messages?, field: String, file: String? = nil) throws -> [DialogueResponse] {
            guard let messages else { return [] }
            let file = file ?? self.file
            var result: [DialogueResponse] = []
            for (index, group) in messages.groups.enumerated() {
                let place = "\(field).\(messages.key)[\(index)]"
                var texts: [String] = []
                var others: [DialogueResponse] = []
                for (offset, message) in ([group.message] + (group.variations ?? [])).enumerated() {
                    let at = offset == 0 ? "\(place).message" : "\(place).variations[\(offset - 1)]"
                    if let text = message.plainTextMessage {
                        texts.append(try SlotPlaceholders.template(text.value, slots: slotNames, file: file, field: at + ".plainTextMessage.value"))
                    } else if let ssml = message.ssmlMessage {
                        warnings.append("intent '\(intent.name)': \(at): SSML shown as its text without the markup")
                        texts.append(try SlotPlaceholders.template(AmazonDialogue.withoutMarkup(ssml.value), slots: slotNames, file: file, field: at + ".ssmlMessage.value"))
                    } else if offset > 0 {
                        // Lex draws one message of a group: a card or payload variation has no text to draw among.
                        warnings.append("intent '\(intent.name)': \(at): a variation that is not text is not mapped")
                    } else if let payload = message.customPayload {
                        let value = try SlotPlaceholders.template(payload.value, slots: slotNames, file: file, field: at + ".customPayload.value")
                        others.append(.payload(.string(value)))
                    } else if let card = message.imageResponseCard {
                        others += try self.card(card, field: at + ".imageResponseCard", file: file)
                    } else {
                        throw JSONFileError(file: file, field: at, reason: "a message has plainTextMessage, ssmlMessage, customPayload or imageResponseCard")
                    }
                }
                if !texts.isEmpty { result.append(.text(values: texts, selection: .random)) }
                result += others
            }
            return result
        }

        private func card(_ card: Card, field: String, file: String) throws -> [DialogueResponse] {
            let template = { (text: String, key: String) in try SlotPlaceholders.template(text, slots: slotNames, file: file, field: "\(field).\(key)") }
            var result: [DialogueResponse] = []
            if let url = card.imageUrl { result.append(.image(source: url, title: try template(card.title, "title"), description: try card.subtitle.map { try template($0, "subtitle") })) }
            let buttons = card.buttons ?? []
            if !buttons.isEmpty || card.imageUrl == nil {
                result.append(.options(title: try template(card.title, "title"), description: try card.subtitle.map { try template($0, "subtitle") },
                                       preference: "button",
                                       options: try buttons.enumerated().map { index, button in
                                           .init(label: try template(button.text, "buttons[\(index)].text"), value: try template(button.value, "buttons[\(index)].value"))
                                       }))
            }
            return result
        }
    }

    /// Whether an optional setting is there at all (exports write absent settings as `null`).
    private static func isSet(_ value: DialogueValue) -> Bool { value != .null }

    private static func decode<T: Decodable>(_ type: T.Type, _ path: String, _ files: some DialogueExportFiles) throws -> T {
        try JSONFile.decode(type, from: try files.data(at: path), file: files.displayName(path))
    }

    /// The locale folder of `BotLocales/<locale>/Intents/<Name>/Intent.json`.
    private static func locale(ofIntentFile path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 5, parts[parts.count - 1] == "Intent.json", parts[parts.count - 3] == "Intents",
              parts[parts.count - 5] == "BotLocales" else { return nil }
        return parts[parts.count - 4]
    }
}

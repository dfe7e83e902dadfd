import Foundation
import NLUInputOutput

/// Reads the dialogue model of an Alexa skill's interaction model JSON (the file `nlu intents import`
/// reads): every intent of `languageModel.intents` becomes a node that collects the slots its
/// `dialog.intents[]` entry lists, in that order, and asks its confirmation; once done it answers with
/// what Alexa would send the skill's code, a payload `{"intent", "dialogState": "COMPLETED",
/// "confirmationStatus", "slots"}` (the skill's own answer is code, not part of the model).
///
/// | Alexa | NLUKit |
/// | --- | --- |
/// | `dialog.intents[].slots[]` with `elicitationRequired` and `prompts.elicitation` | a required slot with that prompt |
/// | slots without elicitation | optional slots (filled when given) |
/// | slot type: custom (`languageModel.types`) / `AMAZON.*` | the entity of the type's name / of the slot's name (as the intent model names them) |
/// | intent `confirmationRequired` + `prompts.confirmation` | `confirmation`; yes is `AMAZON.YesIntent` or a yes word |
/// | `prompts[].variations` (`PlainText`, `SSML` without its markup) | a text drawn at random |
/// | `{slot}` in prompts | `$slot` |
///
/// Warnings, by intent and slot: slot confirmations, `validations`, `delegationStrategy` `SKILL_RESPONSE`
/// (delegated here all the same), prompts for slots without elicitation.
///
///     let (model, warnings) = try AlexaDialogueImporter.read(data, file: "pizza-model.json")
public enum AlexaDialogueImporter {
    struct File: Decodable { var interactionModel: InteractionModel }
    struct InteractionModel: Decodable {
        var languageModel: LanguageModel
        var dialog: Dialog?
        var prompts: [Prompt]?
    }
    struct LanguageModel: Decodable {
        var invocationName: String?
        var intents: [LanguageIntent]?
        var types: [SlotType]?
    }
    struct LanguageIntent: Decodable { var name: String; var slots: [LanguageSlot]? }
    struct LanguageSlot: Decodable { var name: String; var type: String }
    struct SlotType: Decodable { var name: String }
    struct Dialog: Decodable {
        var delegationStrategy: String?
        var intents: [DialogIntent]?
    }
    struct DialogIntent: Decodable {
        var name: String
        var delegationStrategy: String?
        var confirmationRequired: Bool?
        var prompts: PromptIDs?
        var slots: [DialogSlot]?
    }
    struct DialogSlot: Decodable {
        var name: String
        var type: String?
        var elicitationRequired: Bool?
        var confirmationRequired: Bool?
        var prompts: PromptIDs?
        var validations: [DialogueValue]?
    }
    struct PromptIDs: Decodable { var elicitation: String?; var confirmation: String? }
    struct Prompt: Decodable { var id: String; var variations: [Variation] }
    struct Variation: Decodable { var type: String; var value: String }

    /// The dialogue of the interaction model in `data`.
    /// - Throws: `JSONFileError` naming `file` and the field: malformed JSON, no `dialog` section, a dialog
    ///   intent or slot the language model lacks, a slot type that is neither the model's nor Amazon's, a
    ///   prompt id with no prompt, a prompt naming a slot the intent lacks.
    public static func read(_ data: Data, file: String) throws -> (model: DialogueModel, warnings: [String]) {
        let model = try JSONFile.decode(File.self, from: data, file: file).interactionModel
        guard let dialog = model.dialog else {
            throw JSONFileError(file: file, field: "interactionModel.dialog",
                                reason: "is missing: an interaction model without a dialog model has no dialogue to import (nlu intents import reads its intents)")
        }
        var warnings: [String] = []
        let prompts = Dictionary((model.prompts ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let customTypes = Set((model.languageModel.types ?? []).map(\.name))
        let intents = model.languageModel.intents ?? []
        var dialogIntents: [String: (index: Int, intent: DialogIntent)] = [:]
        for (index, entry) in (dialog.intents ?? []).enumerated() {
            guard intents.contains(where: { $0.name == entry.name }) else {
                throw JSONFileError(file: file, field: "interactionModel.dialog.intents[\(index)].name",
                                    reason: "'\(entry.name)' is not an intent of languageModel.intents")
            }
            dialogIntents[entry.name] = (index, entry)
        }
        var nodes: [DialogueNode] = []
        for intent in intents {
            let place = dialogIntents[intent.name].map { "interactionModel.dialog.intents[\($0.index)]" } ?? ""
            let entry = dialogIntents[intent.name]?.intent
            let languageSlots = intent.slots ?? []
            let slotNames = Set(languageSlots.map(\.name))
            /// The prompt `id` as responses, its `{slot}` placeholders checked against the intent's slots.
            func responses(_ id: String, field: String) throws -> [DialogueResponse] {
                guard let prompt = prompts[id] else {
                    throw JSONFileError(file: file, field: field, reason: "no prompt in interactionModel.prompts has the id '\(id)'")
                }
                let index = (model.prompts ?? []).firstIndex { $0.id == id } ?? 0
                let texts = try prompt.variations.enumerated().map { offset, variation in
                    let text = variation.type == "SSML" ? AmazonDialogue.withoutMarkup(variation.value) : variation.value
                    return try SlotPlaceholders.template(text, slots: slotNames, file: file, field: "interactionModel.prompts[\(index)].variations[\(offset)].value")
                }
                return texts.isEmpty ? [] : [.text(values: texts, selection: .random)]
            }
            // Dialog slots first, in their order (Alexa elicits in it); the language model's others are optional.
            var ordered: [(slot: LanguageSlot, dialog: DialogSlot?, index: Int?)] = []
            for (index, slot) in (entry?.slots ?? []).enumerated() {
                guard let language = languageSlots.first(where: { $0.name == slot.name }) else {
                    throw JSONFileError(file: file, field: "\(place).slots[\(index)].name", reason: "'\(slot.name)' is not a slot of intent '\(intent.name)' in languageModel.intents")
                }
                ordered.append((language, slot, index))
            }
            for slot in languageSlots where !ordered.contains(where: { $0.slot.name == slot.name }) { ordered.append((slot, nil, nil)) }
            var slots: [DialogueSlot] = []
            for (slot, dialogSlot, index) in ordered {
                guard let entity = AmazonDialogue.entity(slot: slot.name, type: slot.type, customTypes: customTypes) else {
                    let intentIndex = intents.firstIndex { $0.name == intent.name } ?? 0
                    let slotIndex = languageSlots.firstIndex { $0.name == slot.name } ?? 0
                    throw JSONFileError(file: file, field: "interactionModel.languageModel.intents[\(intentIndex)].slots[\(slotIndex)].type",
                                        reason: "slot type '\(slot.type)' is neither in languageModel.types nor an AMAZON built-in")
                }
                var prompt: [DialogueResponse] = []
                if let dialogSlot, let index {
                    let field = "\(place).slots[\(index)].prompts"
                    if dialogSlot.elicitationRequired == true {
                        guard let id = dialogSlot.prompts?.elicitation else {
                            throw JSONFileError(file: file, field: field + ".elicitation", reason: "is missing: slot '\(slot.name)' requires elicitation")
                        }
                        prompt = try responses(id, field: field + ".elicitation")
                    } else if dialogSlot.prompts?.elicitation != nil {
                        warnings.append("intent '\(intent.name)', slot '\(slot.name)': an elicitation prompt without elicitationRequired is used only by the skill's code; not asked")
                    }
                    if dialogSlot.confirmationRequired == true {
                        warnings.append("intent '\(intent.name)', slot '\(slot.name)': slot confirmation is not mapped (the intent's confirmation is)")
                    }
                    if !(dialogSlot.validations ?? []).isEmpty {
                        warnings.append("intent '\(intent.name)', slot '\(slot.name)': validations are not mapped: any value of the slot's type is taken")
                    }
                }
                slots.append(DialogueSlot(variable: slot.name, entity: entity, prompt: prompt))
            }
            var confirmation: SlotConfirmation?
            if let entry, entry.confirmationRequired == true {
                guard let id = entry.prompts?.confirmation else {
                    throw JSONFileError(file: file, field: "\(place).prompts.confirmation", reason: "is missing: intent '\(intent.name)' requires confirmation")
                }
                confirmation = SlotConfirmation(prompt: try responses(id, field: "\(place).prompts.confirmation"), yes: AmazonDialogue.yes, no: AmazonDialogue.no)
            }
            if entry != nil, (entry?.delegationStrategy ?? dialog.delegationStrategy) == "SKILL_RESPONSE" {
                warnings.append("intent '\(intent.name)': delegationStrategy SKILL_RESPONSE (the skill's code delegates) is approximated: the dialog is always delegated here")
            }
            var completed: [String: DialogueValue] = ["intent": .string(intent.name), "dialogState": "COMPLETED",
                                                      "confirmationStatus": confirmation == nil ? "NONE" : "CONFIRMED"]
            completed["slots"] = .object(Dictionary(slots.map { ($0.variable, DialogueValue.string("$" + $0.variable)) }, uniquingKeysWith: { first, _ in first }))
            // As on Lex, the intent's slots are forgotten once it completes: the next request starts anew.
            let reset = slots.isEmpty ? [] : [ConditionalResponse(context: Dictionary(slots.map { ($0.variable, DialogueValue.null) },
                                                                                      uniquingKeysWith: { first, _ in first }), responses: [])]
            nodes.append(DialogueNode(id: intent.name, condition: IntentCondition.matching(intent.name), responses: [.payload(.object(completed))],
                                      conditionalResponses: reset, slots: slots, confirmation: confirmation))
        }
        // Opening the skill is a LaunchRequest, which the skill's code answers: handed to the app as a payload.
        nodes.insert(DialogueNode(id: "LaunchRequest", condition: "welcome", responses: [.payload(["request": "LaunchRequest"])]), at: 0)
        let name = model.languageModel.invocationName ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return (DialogueModel(name: name, source: "alexa", nodes: nodes), warnings)
    }
}

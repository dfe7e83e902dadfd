import Foundation
import NLUInputOutput
import NLUPipelines
import NLUTestSupport
import Testing
@testable import NLUDialogue

/// A Lex V2 bot export (Tests/Fixtures/dialogue/lexv2-orderflowers: AWS's OrderFlowers example written in
/// the export format, with its prompts, confirmation and closing response) imported, then run through
/// whole conversations; and the exports that must be refused, each error naming the file and the field.
@Suite struct LexV2DialogueImporterTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dialogue")
    static let bot = fixtures.appendingPathComponent("lexv2-orderflowers")

    static func read(_ url: URL) throws -> (model: DialogueModel, warnings: [String]) {
        try #require(try DialogueExport.read(url))
    }

    static func user(_ text: String, intent: String? = nil, _ entities: [(String, String)] = []) -> ParsedMessage {
        ParsedMessage(text: text, intents: intent.map { [.init(intent: $0, confidence: 0.9)] } ?? [],
                      entities: entities.map { .init(entity: $0.0, value: $0.1) })
    }

    @Test func importsSlotsInPriorityOrderWithPromptsConfirmationAndClosing() throws {
        let (model, warnings) = try Self.read(Self.bot)
        #expect(model.source == "lexv2")
        #expect(model.name == "OrderFlowersBot")
        #expect(model.nodes.map(\.id) == ["opening turn", "CancelOrder", "OrderFlowers"])
        let order = try #require(model.nodes.last)
        #expect(order.condition == "#OrderFlowers")
        // Custom type: the type's entity; AMAZON.*: an entity named after the slot, as LexV2Importer names them.
        #expect(order.slots.map(\.variable) == ["FlowerType", "PickupDate", "PickupTime", "Quantity"])
        #expect(order.slots.map(\.entity) == ["FlowerTypes", "PickupDate", "PickupTime", "Quantity"])
        #expect(order.slots.map(\.isRequired) == [true, true, true, false])
        #expect(order.slots[0].prompt == [
            .text(values: ["What type of flowers would you like to order?", "Which flowers would you like?"], selection: .random),
            .options(title: "Flowers", description: "Pick one", preference: "button",
                     options: [.init(label: "Roses", value: "roses"), .init(label: "Lilies", value: "lilies"), .init(label: "Tulips", value: "tulips")]),
        ])
        #expect(order.slots[1].prompt == [.text(values: ["What day do you want the $FlowerType to be picked up?"], selection: .random)])
        let confirmation = try #require(order.confirmation)
        #expect(confirmation.prompt == [.text(values: ["Okay, your $FlowerType will be ready for pickup by $PickupTime on $PickupDate.  Does this sound okay?"], selection: .random)])
        #expect(confirmation.denied == [.text(values: ["Okay, I will not place your order."], selection: .random)])
        #expect(order.responses == [.text(values: ["Thanks, your order for $FlowerType has been placed and will be ready for pickup by $PickupTime on $PickupDate."], selection: .random)])
        #expect(model.fallback == [.text(values: ["Sorry, I can only order flowers."], selection: .random)])
        #expect(warnings == ["intent 'CancelOrder': fulfillmentCodeHook (Lambda) is not run; the closing response answers"])
    }

    @Test func zipAndFolderImportTheSame() throws {
        let folder = try Self.read(Self.bot)
        let zip = try Self.read(Self.fixtures.appendingPathComponent("lexv2-orderflowers.zip"))
        #expect(zip.model.nodes == folder.model.nodes)
        #expect(zip.model.fallback == folder.model.fallback)
        #expect(zip.warnings == folder.warnings)
    }

    /// AWS's documented OrderFlowers conversation: the slots asked in priority order, the confirmation with
    /// the values substituted, the closing response; then a second order asks again (the session forgot them).
    @Test func ordersFlowersAskingEachSlotThenConfirmingAndClosing() throws {
        var conversation = Conversation(dialogue: try Dialogue(try Self.read(Self.bot).model), seed: 7)
        let first = try conversation.send(Self.user("I would like to order some flowers", intent: "OrderFlowers"))
        #expect(first.texts.count == 1)
        #expect(["What type of flowers would you like to order?", "Which flowers would you like?"].contains(first.texts[0]))
        #expect(first.responses.count == 2)   // the text and the card's buttons
        #expect(try conversation.send(Self.user("roses", [("FlowerTypes", "roses")])).texts == ["What day do you want the roses to be picked up?"])
        // Nothing recognized: the slot is asked again.
        #expect(try conversation.send(Self.user("hmm")).texts == ["What day do you want the roses to be picked up?"])
        #expect(try conversation.send(Self.user("tomorrow", [("PickupDate", "2026-12-03")])).texts == ["At what time do you want the roses to be picked up?"])
        #expect(try conversation.send(Self.user("10 am", [("PickupTime", "10:00")])).texts
                == ["Okay, your roses will be ready for pickup by 10:00 on 2026-12-03.  Does this sound okay?"])
        let closing = try conversation.send(Self.user("yes"))
        #expect(closing.texts == ["Thanks, your order for roses has been placed and will be ready for pickup by 10:00 on 2026-12-03."])
        #expect(conversation.state.context["FlowerType"] == nil || conversation.state.context["FlowerType"] == .null)
        let again = try conversation.send(Self.user("I want to order tulips", intent: "OrderFlowers", [("FlowerTypes", "tulips")]))
        #expect(again.texts == ["What day do you want the tulips to be picked up?"])
    }

    /// Slots given in any order, several in one turn, the optional one taken when given; a no says the
    /// declination response and the slots are asked again.
    @Test func slotsFillInAnyOrderAndADeclinedOrderIsAskedAgain() throws {
        var conversation = Conversation(dialogue: try Dialogue(try Self.read(Self.bot).model))
        let first = try conversation.send(Self.user("12 tulips at 9 on friday", intent: "OrderFlowers",
                                                    [("Quantity", "12"), ("PickupTime", "09:00"), ("PickupDate", "2026-12-04")]))
        #expect(first.texts.count == 1)
        #expect(first.texts.first.map { $0.hasPrefix("What type") || $0.hasPrefix("Which flowers") } == true)
        #expect(conversation.state.context["Quantity"] == .string("12"))
        #expect(try conversation.send(Self.user("lilies", [("FlowerTypes", "lilies")])).texts
                == ["Okay, your lilies will be ready for pickup by 09:00 on 2026-12-04.  Does this sound okay?"])
        let declined = try conversation.send(Self.user("no"))
        #expect(declined.texts.first == "Okay, I will not place your order.")
        #expect(declined.texts.count == 2)   // then the first slot's prompt again
        #expect(conversation.state.context["FlowerType"] == nil || conversation.state.context["FlowerType"] == .null)
    }

    @Test func fallbackAndOtherIntentsAnswer() throws {
        var conversation = Conversation(dialogue: try Dialogue(try Self.read(Self.bot).model))
        // Lex does not speak first: the opening turn says nothing.
        #expect(try conversation.send(Self.user("")).responses.isEmpty)
        #expect(try conversation.send(Self.user("what is the weather")).texts == ["Sorry, I can only order flowers."])
        #expect(try conversation.send(Self.user("cancel my order", intent: "CancelOrder")).texts == ["Okay, nothing is ordered."])
    }

    // MARK: bad exports

    /// A copy of the fixture bot in a temporary folder, with `change` applied to its files.
    static func brokenBot(_ change: (URL) throws -> Void) throws -> URL {
        let folder = TestScratch.file("lexv2")
        try FileManager.default.copyItem(at: bot, to: folder)
        try change(folder.appendingPathComponent("OrderFlowersBot/BotLocales/en_US/Intents/OrderFlowers"))
        return folder
    }

    static func rewrite(_ file: URL, _ from: String, _ to: String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(from))
        try text.replacingOccurrences(of: from, with: to).write(to: file, atomically: true, encoding: .utf8)
    }

    static func expectError(_ folder: URL, file: String, field: String, reason: String) {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            _ = try read(folder)
        } throws: { error in
            guard let error = error as? JSONFileError else { return false }
            return error.file.hasSuffix(file) && error.field == field && error.reason.contains(reason)
        }
    }

    @Test func unknownSlotTypeIsRefusedNamingTheSlotFile() throws {
        let folder = try Self.brokenBot { try Self.rewrite($0.appendingPathComponent("Slots/FlowerType/Slot.json"), "\"FlowerTypes\"", "\"Bouquets\"") }
        Self.expectError(folder, file: "Slots/FlowerType/Slot.json", field: "slotTypeName", reason: "slot type 'Bouquets' is neither")
    }

    @Test func promptNamingAnUnknownSlotIsRefusedNamingTheField() throws {
        let folder = try Self.brokenBot { try Self.rewrite($0.appendingPathComponent("Intent.json"), "by {PickupTime} on {PickupDate}.  Does", "by {PickupHour} on {PickupDate}.  Does") }
        Self.expectError(folder, file: "OrderFlowers/Intent.json",
                         field: "intentConfirmationSetting.promptSpecification.messageGroupsList[0].message.plainTextMessage.value",
                         reason: "'{PickupHour}' names no slot of the intent")
    }

    @Test func malformedJSONIsRefusedNamingTheFile() throws {
        let folder = try Self.brokenBot { try Self.rewrite($0.appendingPathComponent("Slots/Quantity/Slot.json"), "\"name\": \"Quantity\",", "\"name\": \"Quantity\"") }
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            _ = try Self.read(folder)
        } throws: { error in
            guard let error = error as? JSONFileError else { return false }
            return error.file.hasSuffix("Slots/Quantity/Slot.json") && error.description.contains("line")
        }
    }

    @Test func priorityNamingNoSlotIsRefused() throws {
        let folder = try Self.brokenBot { try Self.rewrite($0.appendingPathComponent("Intent.json"), "\"slotName\": \"Quantity\"", "\"slotName\": \"Count\"") }
        Self.expectError(folder, file: "OrderFlowers/Intent.json", field: "slotPriorities[3].slotName", reason: "'Count' is not a slot of the intent")
    }

    @Test func folderWithoutIntentsIsNeitherExport() throws {
        let folder = try TestScratch.folder("empty")
        try Data("{}".utf8).write(to: folder.appendingPathComponent("Manifest.json"))
        Self.expectError(folder, file: folder.lastPathComponent, field: "", reason: "is neither a Lex V2 bot export")
    }

    @Test func placeholdersBecomeVariables() throws {
        let slots: Set<String> = ["Size", "Count"]
        #expect(try SlotPlaceholders.template("{Count} {Size} pizzas", slots: slots, file: "f", field: "x") == "$Count $Size pizzas")
        #expect(try SlotPlaceholders.template("{Size}s and {Count}", slots: slots, file: "f", field: "x") == "<? $Size ?>s and $Count")
        #expect(try SlotPlaceholders.template("a { brace } and {} stay", slots: slots, file: "f", field: "x") == "a { brace } and {} stay")
        #expect(throws: JSONFileError(file: "f", field: "x", reason: "'{Crust}' names no slot of the intent (its slots: Count, Size)")) {
            try SlotPlaceholders.template("{Crust}", slots: slots, file: "f", field: "x")
        }
    }
}

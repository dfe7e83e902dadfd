import Foundation
import NLUDialogue
import Testing
@testable import NLUServer

/// The playground's conversation panel: on the page, calling the conversation API, putting the bot's texts in
/// the page only as text; and the API's answer holding every field the panel reads (its contract).
@Suite struct PlaygroundChatTests {
    /// A dialogue with a text with markup in it, options and a context variable, in NLUKit's dialogue JSON.
    static let menu = try! Dialogue(try! DialogueModel.decode(from: Data(#"""
    {"format": "nlu-dialogue", "formatVersion": 1, "name": "menu",
     "nodes": [
       {"id": "start", "condition": "welcome", "context": {"visits": 1},
        "responses": [{"type": "text", "values": ["<img src=x onerror=alert(1)> Hello"]},
                      {"type": "options", "title": "Pick one", "options": [{"label": "Jazz", "value": "play jazz"}]}]},
       {"id": "any", "condition": "true", "context": {"last": "<? input.text ?>"}, "responses": [{"type": "text", "values": ["Playing $last"]}]}
     ]}
    """#.utf8), file: "menu.json"))

    /// The script between the panel's first and last function: what must never write markup.
    static func chatScript(_ page: String) throws -> Substring {
        let start = try #require(page.range(of: "let chatID = \"\";"))
        let end = try #require(page.range(of: "async function loadStatus()"))
        return page[start.lowerBound..<end.lowerBound]
    }

    @Test func chatPanelIsOnThePageAndWritesTextOnly() async throws {
        try await withTestServer { server in
            let page = try await server.request("GET", "/").text
            #expect(page.contains(#"<section id="chat" hidden>"#))
            // Shown only when /status lists a dialogue.
            #expect(page.contains(#"$("chat").hidden = !tasks.includes("dialogue");"#))
            let script = try Self.chatScript(page)
            #expect(script.contains(#"call("POST", "/conversations/" + chatID + "/messages", {text})"#))
            #expect(script.contains(#"call("DELETE", "/conversations/" + chatID)"#))
            // Bot texts, option labels, context values and warnings reach the page as textContent only.
            #expect(!script.contains("innerHTML") && !script.contains("insertAdjacentHTML") && !script.contains("outerHTML"))
            #expect(script.contains("node.textContent = text;"))
            // The conversation ids it makes are ones the server accepts.
            #expect(script.contains(#""playground-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")"#))
            _ = try ConversationID("playground-" + String(repeating: "0f", count: 8))
            #expect(!page.contains("http://") && !page.contains("https://"))
        }
    }

    /// Every field the panel reads is in the answer, with the type it expects: the opening turn's texts and
    /// options (label, value), the message's best intent, the state's turn, position and context, the warnings.
    @Test func conversationAnswerHasTheFieldsThePanelReads() async throws {
        let models = ServedModels(intents: try Fixtures.models().intents, intentsPath: "intents-test", dialogue: Self.menu, dialoguePath: "menu.json")
        try await withTestServer(models: models) { server in
            let status = try await server.request("GET", "/status")
            #expect((status.object?["models"] as? [[String: Any]])?.contains { $0["task"] as? String == "dialogue" } == true)

            let opening = try #require(try await server.request("POST", "/conversations/playground-1/messages", json: #"{"text": ""}"#).object)
            let responses = try #require(opening["responses"] as? [[String: Any]])
            #expect(responses.first?["type"] as? String == "text")
            #expect(responses.first?["text"] as? String == "<img src=x onerror=alert(1)> Hello")
            #expect(responses.last?["type"] as? String == "options" && responses.last?["title"] as? String == "Pick one")
            #expect(responses.last?["options"] as? [[String: String]] == [["label": "Jazz", "value": "play jazz"]])
            let state = try #require(opening["state"] as? [String: Any])
            #expect(state["turn"] as? Int == 1 && (state["context"] as? [String: Any])?["visits"] as? Int == 1)
            #expect(opening["warnings"] as? [String] == [])

            // The option's value sent back as text, as its button does.
            let next = try #require(try await server.request("POST", "/conversations/playground-1/messages", json: #"{"text": "play jazz"}"#).object)
            #expect((next["responses"] as? [[String: Any]])?.first?["text"] as? String == "Playing play jazz")
            let message = try #require(next["message"] as? [String: Any])
            #expect(message["text"] as? String == "play jazz")
            let intents = try #require(message["intents"] as? [[String: Any]])
            #expect(intents.allSatisfy { $0["intent"] is String && $0["confidence"] is Double })
            let after = try #require(next["state"] as? [String: Any])
            #expect(after["turn"] as? Int == 2 && (after["context"] as? [String: Any])?["last"] as? String == "play jazz")
            // "New conversation": the old one is forgotten.
            #expect(try await server.request("DELETE", "/conversations/playground-1").status == 204)
        }
    }

    /// A turn whose state passes --max-conversation-state is a 422 naming the limit; the conversation stays.
    @Test func aStateOverTheLimitIs422() async throws {
        let models = ServedModels(intents: try Fixtures.models().intents, intentsPath: "intents-test", dialogue: Self.menu, dialoguePath: "menu.json")
        try await withTestServer(models: models, configure: { $0.maxConversationStateBytes = 1024 }) { server in
            let path = "/conversations/long/messages"
            #expect(try await server.request("POST", path, json: #"{"message": {"text": "short"}}"#).status == 200)
            let long = try jsonString(["message": ["text": String(repeating: "a", count: 3000)]])
            let refused = try await server.request("POST", path, json: long)
            #expect(refused.status == 422 && refused.object?["error"] as? String == "state_too_large")
            #expect(refused.errorMessage.contains("over the store's limit of 1024 bytes") && refused.errorMessage.hasSuffix("(--max-conversation-state)"))
            let state = try await server.request("GET", "/conversations/long")
            #expect(((state.object?["state"] as? [String: Any])?["context"] as? [String: Any])?["last"] as? String == "short")
        }
    }
}

import Foundation
import NLUDialogue
import NLUIntents
import NLUPipelines
import Testing
@testable import NLUServer

/// The dialogue over HTTP: Rasa's REST channel and the conversation API, on IBM's car-dashboard workspace
/// (Tests/Fixtures/dialogue/watson-car-dashboard) with the test intents model parsing text.
@Suite("Conversations over HTTP")
struct ConversationRouteTests {
    static func carDashboard() throws -> Dialogue {
        let url = Fixtures.directory.appendingPathComponent("dialogue/watson-car-dashboard/car_workspace.json")
        return try Dialogue(try DialogueImporter.read(try Data(contentsOf: url), file: "car_workspace.json").model)
    }

    /// Counts its turns in the context: a turn run on a stale state would repeat a number.
    static let counter = try! Dialogue(try! DialogueModel.decode(from: Data(#"""
    {"format": "nlu-dialogue", "formatVersion": 1, "name": "counter",
     "nodes": [
       {"id": "start", "condition": "welcome", "context": {"count": 0}, "responses": [{"type": "text", "values": ["Hi"]}]},
       {"id": "count", "condition": "true", "context": {"count": "<? $count + 1 ?>"}, "responses": [{"type": "text", "values": ["$count"]}]}
     ]}
    """#.utf8), file: "counter.json"))

    static func models(_ dialogue: Dialogue) throws -> ServedModels {
        ServedModels(intents: try Fixtures.models().intents, intentsPath: "intents-test", dialogue: dialogue, dialoguePath: "dialogue.json")
    }

    /// `{"message": parsed}` with one intent at 0.9 and the entities.
    static func parsed(_ text: String, _ intent: String? = nil, _ entities: [(String, String)] = []) throws -> String {
        var message: [String: Any] = ["text": text, "entities": entities.map { ["entity": $0.0, "value": $0.1] }]
        if let intent { message["intents"] = [["intent": intent, "confidence": 0.9]] }
        return try jsonString(["message": message])
    }

    static func texts(_ response: RawHTTPResponse) -> [String] {
        (response.object?["responses"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String == "text" ? $0["text"] as? String : nil }
    }

    /// The restaurant flow of WatsonDialogueImporterTests, turn by turn over HTTP: the answers the workspace
    /// defines, the state readable, then deleted.
    @Test func carDashboardConversationOverHTTP() async throws {
        try await withTestServer(models: try Self.models(try Self.carDashboard())) { server in
            let path = "/conversations/driver-7/messages"
            let turns: [(String, [String])] = [
                (try Self.parsed("find me a restaurant", "locate_amenity", [("amenity", "restaurant")]),
                 ["Hi. It looks like a nice drive today. What would you like me to do?  ",
                  "There are a number of restaurants nearby. Which cuisine would you like?"]),
                (try Self.parsed("thai", nil, [("cuisine", "thai")]),
                 ["I've found 5 restaurant locations for you. Which one would you like to drive to?"]),
                (try Self.parsed("the second one", nil, [("sys-number", "2")]),
                 ["Sure! Restaurant 2 gets great reviews.", "What day, or date, would you like to go to the restaurant?"]),
                (try Self.parsed("tomorrow", nil, [("sys-date", "2026-12-03")]), ["What time would you like to go to the restaurant?"]),
                (try Self.parsed("at 7pm", nil, [("sys-time", "19:00:00")]), ["Ok, let's go to the restaurant at 19:00:00, on 2026-12-03."]),
            ]
            for (number, (body, expected)) in turns.enumerated() {
                let response = try await server.request("POST", path, json: body)
                #expect(response.status == 200, "\(response.text)")
                #expect(Self.texts(response) == expected)
                #expect(response.object?["started"] as? Bool == (number == 0))
                #expect(Set(response.object?.keys.map { $0 } ?? []) == ["id", "started", "message", "responses", "visited", "warnings", "state"])
            }
            let state = try await server.request("GET", "/conversations/driver-7")
            #expect(state.status == 200)
            let stored = try #require(state.object?["state"] as? [String: Any])
            #expect(stored["turn"] as? Int == 6)
            #expect((stored["context"] as? [String: Any])?["previous_restaurant_time"] as? String == "19:00:00")
            #expect(try await server.request("DELETE", "/conversations/driver-7").status == 204)
            let gone = try await server.request("GET", "/conversations/driver-7")
            #expect(gone.status == 404 && gone.object?["error"] as? String == "conversation_not_found")
            #expect(try await server.request("DELETE", "/conversations/driver-7").status == 404)
        }
    }

    /// A text message is parsed by the served intents model, and answered as the library answers that parse.
    @Test func textIsParsedByTheIntentsModel() async throws {
        let dialogue = try Self.carDashboard()
        try await withTestServer(models: try Self.models(dialogue)) { server in
            let classifier = try #require(try Fixtures.models().intents)
            let message = ParsedMessage(prediction: classifier.predict("switch the lights on", top: 10))
            var conversation = Conversation(dialogue: dialogue)
            let expected = try conversation.send(ParsedMessage(text: "")).texts + conversation.send(message).texts
            #expect(expected.last == "I'll turn on the lights for you.")
            let response = try await server.request("POST", "/conversations/u1/messages", json: try jsonString(["text": "switch the lights on"]))
            #expect(response.status == 200)
            #expect(Self.texts(response) == expected)
            let parsed = try #require(response.object?["message"] as? [String: Any])
            #expect((parsed["intents"] as? [[String: Any]])?.first?["intent"] as? String == message.intents.first?.intent)
        }
    }

    /// Rasa's REST channel: the list of bot messages with the sender as `recipient_id`; images as `image`,
    /// payloads as `custom`, the car dashboard's conversation continuing by sender.
    @Test func rasaRESTChannelAnswersInRasasShape() async throws {
        try await withTestServer(models: try Self.models(try Self.carDashboard())) { server in
            let first = try await server.request("POST", "/webhooks/rest/webhook", json: try jsonString(["sender": "rasa-7", "message": "switch the lights on"]))
            #expect(first.status == 200)
            let messages = try #require(first.json as? [[String: Any]])
            #expect(messages.allSatisfy { $0["recipient_id"] as? String == "rasa-7" })
            #expect(messages.compactMap { $0["text"] as? String } == ["Hi. It looks like a nice drive today. What would you like me to do?  ",
                                                                      "I'll turn on the lights for you."])
            // The node's payload: {"ui_action": {"lights_on": ""}} as Rasa's custom message.
            #expect(messages.contains { ($0["custom"] as? [String: Any])?["ui_action"] as? [String: String] == ["lights_on": ""] })
            #expect(messages.allSatisfy { Set($0.keys).isSubset(of: ["recipient_id", "text", "buttons", "image", "custom"]) })
            let second = try await server.request("POST", "/webhooks/rest/webhook", json: try jsonString(["sender": "rasa-7", "message": "switch the lights on"]))
            #expect((second.json as? [[String: Any]])?.compactMap { $0["text"] as? String } == ["It looks like the lights are already on."])
            // The same conversation through our API.
            let state = try await server.request("GET", "/conversations/rasa-7")
            #expect((state.object?["state"] as? [String: Any])?["turn"] as? Int == 3)
            // No sender: Rasa's "default".
            let anonymous = try await server.request("POST", "/webhooks/rest/webhook", json: try jsonString(["message": ""]))
            #expect((anonymous.json as? [[String: Any]])?.first?["recipient_id"] as? String == "default")
        }
    }

    /// Rasa's formbot served with no intents model: button payloads drive it through the REST channel, a
    /// malformed payload warns on /conversations, `/restart` starts over on both routes, and text that is no
    /// payload is answered 422 naming --intents.
    @Test func formbotPayloadsAndRestartWithoutAnIntentsModel() async throws {
        let formbot = Fixtures.directory.appendingPathComponent("dialogue/rasa-formbot")
        let dialogue = try Dialogue(try RasaDialogueImporter.read(project: formbot).model)
        try await withTestServer(models: ServedModels(dialogue: dialogue, dialoguePath: "formbot")) { server in
            func say(_ message: String) async throws -> [String] {
                let response = try await server.request("POST", "/webhooks/rest/webhook", json: try jsonString(["sender": "f1", "message": message]))
                #expect(response.status == 200, "\(message): \(response.text)")
                return (response.json as? [[String: Any]])?.compactMap { $0["text"] as? String } ?? []
            }
            #expect(try await say("/request_restaurant") == ["What cuisine?"])
            #expect(try await say(#"/inform{"cuisine": "thai"}"#) == ["How many people?"])
            #expect(try await say("/restart") == ["restarted"])
            #expect(try await say(#"/inform{"number": 2}"#) == ["Sorry, I didn't understand you, please try input something else"])
            let state = try await server.request("GET", "/conversations/f1")
            let context = try #require((state.object?["state"] as? [String: Any])?["context"] as? [String: Any])
            #expect(context["cuisine"] == nil)

            let malformed = try await server.request("POST", "/conversations/f2/messages", json: try jsonString(["text": #"/request_restaurant{"cuisine": thai}"#]))
            #expect(malformed.status == 200)
            #expect(Self.texts(malformed) == ["What cuisine?"])
            #expect((malformed.object?["warnings"] as? [String])?.first?.contains("not a JSON object") == true)
            let restarted = try await server.request("POST", "/conversations/f2/messages", json: try jsonString(["text": "/restart"]))
            #expect(Self.texts(restarted) == ["restarted"])
            #expect((restarted.object?["visited"] as? [String]) == ["action_restart"])

            let text = try await server.request("POST", "/conversations/f3/messages", json: try jsonString(["text": "a table for two"]))
            #expect(text.status == 422)
            #expect(text.errorMessage.contains("--intents"))
        }
    }

    /// Options become Rasa buttons (title, payload).
    @Test func optionsBecomeRasaButtons() throws {
        let messages = RasaRESTChannel.messages([.options(title: "Which?", description: nil, preference: nil,
                                                          options: [.init(label: "Jazz", value: "play jazz")]),
                                                 .pause(milliseconds: 500, typing: true),
                                                 .image(source: "/img/a.png", title: nil, description: nil)], recipient: "r")
        #expect(messages == [.init(recipientID: "r", text: "Which?", buttons: [.init(title: "Jazz", payload: "play jazz")]),
                             .init(recipientID: "r", image: "/img/a.png")])
    }

    @Test func badRequestsAreAnsweredInTheServersErrorShape() async throws {
        try await withTestServer(models: try Self.models(Self.counter), configure: { $0.maxTextLength = 50 }) { server in
            func expectError(_ method: String, _ path: String, _ json: String?, _ status: Int, _ kind: String, _ message: String) async throws {
                let response = try await server.request(method, path, json: json)
                #expect(response.status == status, "\(method) \(path): \(response.text)")
                #expect(response.object?["error"] as? String == kind)
                #expect(response.errorMessage.contains(message), "\(response.errorMessage)")
            }
            let long = String(repeating: "a", count: 129)
            try await expectError("POST", "/conversations/\(long)/messages", #"{"text": "hi"}"#, 400, "bad_request",
                                  "the path's conversation id: the conversation id has 129 characters; at most 128 are accepted")
            try await expectError("POST", "/conversations/a%2Fb/messages", #"{"text": "hi"}"#, 400, "bad_request", "not allowed at offset 1")
            try await expectError("POST", "/webhooks/rest/webhook", #"{"sender": "a b", "message": "hi"}"#, 400, "bad_request",
                                  "field 'sender': the conversation id has a character that is not allowed at offset 1 (U+20)")
            try await expectError("POST", "/webhooks/rest/webhook", #"{"sender": "x"}"#, 400, "bad_request", "missing field 'message'")
            try await expectError("POST", "/conversations/x/messages", #"{"text": "hi", "message": {"text": "hi"}}"#, 400, "bad_request",
                                  "give either 'text' (parsed by the intents model) or 'message' (already parsed), not both or neither")
            try await expectError("POST", "/conversations/x/messages", "{}", 400, "bad_request", "not both or neither")
            try await expectError("POST", "/conversations/x/messages", try jsonString(["text": String(repeating: "b", count: 51)]), 422,
                                  "unprocessable", "field 'text': 51 characters is over this server's limit of 50")
            try await expectError("POST", "/conversations/x/messages", #"{"message": {"text": "hi", "intents": [{"intent": "a", "confidence": 2}]}}"#,
                                  422, "unprocessable", "field 'message.intents[0].confidence': 2.0 is not a probability in 0...1")
            try await expectError("GET", "/conversations/nobody", nil, 404, "conversation_not_found", "no conversation 'nobody'")
            try await expectError("PUT", "/conversations/x", "{}", 405, "method_not_allowed", "it accepts GET, DELETE")
            // A refused message changed nothing.
            #expect(try await server.request("GET", "/conversations/x").status == 404)
        }
        // No dialogue served.
        try await withTestServer { server in
            let response = try await server.request("POST", "/webhooks/rest/webhook", json: #"{"message": "hi"}"#)
            #expect(response.status == 404 && response.errorMessage == "no dialogue model is served: start the server with --dialogue MODEL")
        }
    }

    /// A conversation idle past --conversation-idle is forgotten: the next message starts it again.
    @Test func idleConversationsExpire() async throws {
        try await withTestServer(models: try Self.models(Self.counter), configure: { $0.conversationIdleSeconds = 1 }) { server in
            // Only what must hold however slow the machine: a read right after the first message could itself come
            // more than the idle second later on a loaded machine, so the test checks the expiry, not the survival.
            let first = try await server.request("POST", "/conversations/nap/messages", json: try Self.parsed("one"))
            #expect(first.object?["started"] as? Bool == true)
            try await Task.sleep(for: .milliseconds(1200))
            #expect(try await server.request("GET", "/conversations/nap").status == 404)
            let again = try await server.request("POST", "/conversations/nap/messages", json: try Self.parsed("two"))
            #expect(again.object?["started"] as? Bool == true && Self.texts(again) == ["Hi", "1"])
        }
    }

    /// Messages for one conversation sent at once: each turn ran on the state the previous one left.
    @Test func concurrentMessagesForOneConversationAreSerialised() async throws {
        try await withTestServer(models: try Self.models(Self.counter)) { server in
            let count = 30
            let texts = try await withThrowingTaskGroup(of: [String].self) { group in
                for number in 0..<count {
                    group.addTask { Self.texts(try await server.request("POST", "/conversations/crowd/messages", json: try Self.parsed("m\(number)"))) }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(texts.filter { $0 != "Hi" }.compactMap(Int.init).sorted() == Array(1...count))
            let state = try await server.request("GET", "/conversations/crowd")
            #expect(((state.object?["state"] as? [String: Any])?["context"] as? [String: Any])?["count"] as? Int == count)
        }
    }

    /// A conversation stored by another dialogue (the server restarted with another file, same store) is refused
    /// with 409 and left as it was.
    @Test func aConversationOfAnotherDialogueIsRefused() async throws {
        let store = MemoryConversationStore(expiry: try ConversationExpiry())
        try await withTestServer(models: try Self.models(Self.counter), conversations: store) { server in
            _ = try await server.request("POST", "/conversations/old/messages", json: try Self.parsed("one"))
        }
        let before = try await store.conversation(try ConversationID("old"))
        try await withTestServer(models: try Self.models(try Self.carDashboard()), conversations: store) { server in
            let response = try await server.request("POST", "/conversations/old/messages", json: try Self.parsed("hello", "greetings"))
            #expect(response.status == 409 && response.object?["error"] as? String == "conversation_conflict")
            #expect(response.errorMessage.hasPrefix("conversation 'old' was started with another dialogue"))
        }
        #expect(try await store.conversation(try ConversationID("old")) == before)
    }

    /// No route takes a state from a client (states cross no trust boundary here, so none is signed): a message that
    /// carries one, edited to skip ahead, is refused with 400 and the stored conversation is as it was.
    @Test func aStateSentByAClientIsRefused() async throws {
        try await withTestServer(models: try Self.models(Self.counter)) { server in
            _ = try await server.request("POST", "/conversations/kept/messages", json: try Self.parsed("one"))
            let before = try await server.request("GET", "/conversations/kept")
            var edited = try #require(before.object?["state"] as? [String: Any])
            edited["context"] = ["count": 1000]
            for state in [edited as Any, "anything" as Any] {
                let response = try await server.request("POST", "/conversations/kept/messages",
                                                        json: try jsonString(["text": "two", "state": state] as [String: Any]))
                #expect(response.status == 400 && response.object?["error"] as? String == "bad_request", "\(response.text)")
                #expect(response.errorMessage.hasPrefix("field 'state': the conversation's state stays on the server"), "\(response.errorMessage)")
            }
            let after = try await server.request("GET", "/conversations/kept")
            #expect(NSDictionary(dictionary: after.object ?? [:]).isEqual(to: before.object ?? ["": 0]), "\(after.text)")
        }
    }

    @Test func routesWithAnIdAreOneMetricSeries() {
        #expect(RouteTable.metricLabels(method: .post, path: "/conversations/abc/messages").route == "/conversations/:id/messages")
        #expect(RouteTable.metricLabels(method: .get, path: "/conversations/abc").route == "/conversations/:id")
        #expect(RouteTable.metricLabels(method: .get, path: "/conversations/abc/other").route == RouteTable.otherLabel)
        #expect(RouteTable.methods(for: "/conversations/x") == ["GET", "DELETE"])
    }
}

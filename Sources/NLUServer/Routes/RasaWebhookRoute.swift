import Hummingbird
import NLUDialogue

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ServerRoutes {
    /// `POST /webhooks/rest/webhook` (Rasa's REST channel): the sender is the conversation's id.
    func registerRasaWebhookRoute(on router: Router<BasicRequestContext>) {
        router.post(.init(RouteTable.rasaWebhook.path)) { request, _ in
            let (store, dialogue) = try conversationStore()
            let body = try await decode(RasaRESTChannel.Request.self, request)
            let sender = body.sender ?? RasaRESTChannel.defaultSender
            let id = try conversationID(sender, field: "field 'sender'")
            // Rasa logs what a payload left out; its channel answers only the bot's messages.
            let (message, _) = try await parse(body.message, field: "message")
            let reply = try await converse(message, id: id, store: store, dialogue: dialogue)
            return try JSONResponse.make(RasaRESTChannel.messages(reply.responses, recipient: sender))
        }
    }
}

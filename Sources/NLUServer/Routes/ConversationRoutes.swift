import HTTPTypes
import Hummingbird
import NLUDialogue
import NLUIntents
import NLUPipelines

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension ServerRoutes {
    /// `POST /conversations/{id}/messages`, `GET /conversations/{id}`, `DELETE /conversations/{id}`.
    func registerConversationRoutes(on router: Router<BasicRequestContext>) {
        router.post(.init(RouteTable.conversationMessages.path)) { request, context in
            let (store, dialogue) = try conversationStore()
            let id = try conversationID(context.parameters.get("id") ?? "", field: "the path's conversation id")
            let body = try await decode(ConversationAPI.Request.self, request)
            if body.state != nil { throw APIError.badRequest(ConversationAPI.clientStateRefusal) }
            let message: ParsedMessage
            var warnings: [String] = []
            switch (body.text, body.message) {
            case (let text?, nil):
                (message, warnings) = try await parse(text, field: "text")
            case (nil, let parsed?):
                try checkLength(parsed.text, field: "message.text")
                try ConversationAPI.check(parsed)
                message = parsed
            default:
                throw APIError.badRequest("give either 'text' (parsed by the intents model) or 'message' (already parsed), not both or neither")
            }
            let reply = try await converse(message, id: id, store: store, dialogue: dialogue)
            return try JSONResponse.make(ConversationAPI.reply(reply, id: id, message: message, warnings: warnings))
        }
        router.get(.init(RouteTable.conversation.path)) { _, context in
            let (store, _) = try conversationStore()
            let id = try conversationID(context.parameters.get("id") ?? "", field: "the path's conversation id")
            guard let stored = try await storeAccess({ try await store.conversation(id) }) else { throw APIError.conversationNotFound(id) }
            return try JSONResponse.make(ConversationAPI.conversation(stored))
        }
        router.delete(.init(RouteTable.conversationDeletion.path)) { _, context in
            let (store, _) = try conversationStore()
            let id = try conversationID(context.parameters.get("id") ?? "", field: "the path's conversation id")
            guard try await storeAccess({ try await store.delete(id) }) else { throw APIError.conversationNotFound(id) }
            return Response(status: .noContent)
        }
    }

    /// The store and the dialogue, or 404 when no dialogue is served.
    func conversationStore() throws -> (any ConversationStore, Dialogue) {
        guard let dialogue = models.dialogue, let conversations else { throw APIError.modelNotLoaded("dialogue", option: "--dialogue") }
        return (conversations, dialogue)
    }

    /// `text` checked and parsed into the message the dialogue sees (``MessageReader``): a Rasa payload
    /// (`/inform{"cuisine": "thai"}`, `/restart`) as it names itself, with no model needed; other text by the
    /// intents model on the inference pool.
    func parse(_ text: String, field: String) async throws -> (message: ParsedMessage, warnings: [String]) {
        try checkLength(text, field: field)
        let read = try await MessageReader(knownIntents: models.intents.map { Set($0.intents) })
            .read(text) { try await classify($0, field: field) }
        return (read.message, read.warnings)
    }

    /// `text` parsed by the intents model on the inference pool.
    private func classify(_ text: String, field: String) async throws -> ParsedMessage {
        guard let classifier = models.intents else {
            throw APIError(status: .unprocessableContent, error: "unprocessable",
                           message: "no intents model is served to parse field '\(field)': start the server with --intents MODEL, or send an already parsed 'message'")
        }
        // An empty text is the opening of a conversation: nothing to classify.
        if text.isEmpty { return ParsedMessage(text: "") }
        let prediction = try await pool.run(task: "intents") { classifier.predict(text, top: RasaParse.rankingLength) }
        return ParsedMessage(prediction: prediction)
    }

    /// One message through the conversation in the store, library errors turned into answers.
    func converse(_ message: ParsedMessage, id: ConversationID, store: any ConversationStore, dialogue: Dialogue) async throws -> ConversationReply {
        do {
            return try await storeAccess { try await store.respond(to: message, in: id, dialogue: dialogue) }
        } catch let error as DialogueError {
            switch error {
            case .stateFromAnotherDialogue, .invalidState:
                throw APIError(status: .conflict, error: "conversation_conflict",
                               message: "conversation '\(id)' was started with another dialogue (\(error)); DELETE /conversations/\(id) to start it again")
            case .stepLimitExceeded:
                throw APIError(status: .internalServerError, error: "dialogue_fault",
                               message: "\(error): a fault of the served dialogue, not of the request; the conversation is as it was")
            }
        }
    }

    /// 400 naming `field` for an id that is not one.
    func conversationID(_ text: String, field: String) throws -> ConversationID {
        do {
            return try ConversationID(text)
        } catch {
            throw APIError.badRequest("\(field): \(error)")
        }
    }

    /// `body`, with the store's failures as answers: 503 when its database fails (the client may retry; the
    /// conversation is as it was), 500 for a stored state that cannot be read, 422 for a turn whose state is over
    /// the store's limit (the conversation is as it was).
    func storeAccess<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ConversationStoreError {
            switch error {
            case .storage, .contention, .invalidArgument:
                throw APIError(status: .serviceUnavailable, error: "store_unavailable",
                               message: "the conversation store failed: \(error); the conversation is as it was, retry",
                               headers: [HTTPField.Name("Retry-After")!: "1"])
            case .damagedState:
                throw APIError(status: .internalServerError, error: "damaged_state", message: "\(error)")
            case .stateTooLarge:
                throw APIError(status: .unprocessableContent, error: "state_too_large", message: "\(error) (--max-conversation-state)")
            }
        }
    }
}

extension APIError {
    static func conversationNotFound(_ id: ConversationID) -> APIError {
        APIError(status: .notFound, error: "conversation_not_found", message: "no conversation '\(id)' (never started, deleted, or expired)")
    }
}

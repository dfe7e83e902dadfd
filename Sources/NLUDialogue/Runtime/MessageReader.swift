/// What a text sent to a bot becomes, for every front (`nlu dialogue chat`, the server's routes, `nlu-bench
/// dialogue`): a Rasa payload (`/inform{"cuisine": "thai"}`, `/restart`) is the message it names, with no model;
/// any other text is what the bot's intents model makes of it. A payload naming an intent the model does not know
/// is text, as in Rasa (the model's intents are the domain's).
///
/// The model stays with the caller (the dialogue does not know intent models): `classify` runs it, at once in the
/// chat, on the inference workers in the server.
///
///     let reader = MessageReader(knownIntents: Set(classifier.intents))
///     let read = reader.read(line) { ParsedMessage(prediction: classifier.predict($0, top: 10)) }
///     // read.message: the payload's or the model's; read.warnings: what reading a payload left out
public struct MessageReader: Sendable {
    /// The intents the bot's model knows; `nil` takes a payload's intent whatever it is (no model).
    public var knownIntents: Set<String>?

    public init(knownIntents: Set<String>?) {
        self.knownIntents = knownIntents
    }

    /// A message and what reading it left out or corrected (a payload's unknown entity, malformed JSON...).
    public struct Reading: Sendable, Equatable {
        public var message: ParsedMessage
        public var warnings: [String]
    }

    /// `text` as a payload, else as `classify` reads it.
    public func read(_ text: String, classify: (String) throws -> ParsedMessage) rethrows -> Reading {
        let payload = self.payload(text)
        if let message = payload.message { return Reading(message: message, warnings: payload.warnings) }
        return Reading(message: try classify(text), warnings: payload.warnings)
    }

    /// `text` as a payload, else as `classify` reads it (the server classifies on its inference workers).
    public func read(_ text: String, classify: (String) async throws -> ParsedMessage) async rethrows -> Reading {
        let payload = self.payload(text)
        if let message = payload.message { return Reading(message: message, warnings: payload.warnings) }
        return Reading(message: try await classify(text), warnings: payload.warnings)
    }

    /// The payload's message, or `nil` for text to classify; the warnings either way.
    private func payload(_ text: String) -> (message: ParsedMessage?, warnings: [String]) {
        guard let payload = PayloadMessage.parse(text, intents: knownIntents) else { return (nil, []) }
        return (payload.message, payload.warnings)
    }
}

import Foundation
import NLUKit

/// Turns one line of `nlu dialogue chat`'s input into the message the dialogue sees: a Rasa payload
/// (`/inform{"cuisine": "thai"}`, `/restart`) as it names itself (``PayloadMessage``); with an intent model,
/// its prediction (intents when it recognizes one, and the entities it extracts); without one, a line that
/// starts with `{` is a message written as JSON ({"text", "intents": [{"intent", "confidence"}], "entities":
/// [{"entity", "value"}]}), any other line text alone.
struct ChatMessageReader {
    let classifier: IntentClassifier?

    func message(_ line: String, source: String, number: Int) throws -> ParsedMessage {
        // A payload naming an intent the model does not know is text, as in Rasa (the model's intents are its domain).
        if let payload = PayloadMessage.parse(line, intents: classifier.map { Set($0.intents) }) {
            for warning in payload.warnings { Console.log("warning: \(source) line \(number): \(warning)") }
            if let message = payload.message { return message }
        }
        if let classifier { return ParsedMessage(prediction: classifier.predict(line, top: 10)) }
        guard line.first == "{" else { return ParsedMessage(text: line) }
        return try JSONFile.decode(ParsedMessage.self, from: Data(line.utf8), file: "\(source) line \(number)")
    }
}

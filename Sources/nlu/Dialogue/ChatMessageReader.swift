import Foundation
import NLUKit

/// Turns one line of `nlu dialogue chat`'s input into the message the dialogue sees (``MessageReader``): a Rasa
/// payload (`/inform{"cuisine": "thai"}`, `/restart`) as it names itself; with an intent model,
/// its prediction (intents when it recognizes one, and the entities it extracts); without one, a line that
/// starts with `{` is a message written as JSON ({"text", "intents": [{"intent", "confidence"}], "entities":
/// [{"entity", "value"}]}), any other line text alone.
struct ChatMessageReader {
    let classifier: IntentClassifier?

    func message(_ line: String, source: String, number: Int) throws -> ParsedMessage {
        let read = try MessageReader(knownIntents: classifier.map { Set($0.intents) }).read(line) { text in
            if let classifier { return ParsedMessage(prediction: classifier.predict(text, top: 10)) }
            guard text.first == "{" else { return ParsedMessage(text: text) }
            return try JSONFile.decode(ParsedMessage.self, from: Data(text.utf8), file: "\(source) line \(number)")
        }
        for warning in read.warnings { Console.log("warning: \(source) line \(number): \(warning)") }
        return read.message
    }
}

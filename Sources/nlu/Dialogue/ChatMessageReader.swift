import Foundation
import NLUKit

/// Turns one line of `nlu dialogue chat`'s input into the message the dialogue sees: with an intent model,
/// its prediction (intents when it recognizes one, and the entities it extracts); without one, a line that
/// starts with `{` is a message written as JSON ({"text", "intents": [{"intent", "confidence"}], "entities":
/// [{"entity", "value"}]}), any other line text alone.
struct ChatMessageReader {
    let classifier: IntentClassifier?

    func message(_ line: String, source: String, number: Int) throws -> ParsedMessage {
        if let classifier { return ParsedMessage(prediction: classifier.predict(line, top: 10)) }
        guard line.first == "{" else { return ParsedMessage(text: line) }
        return try JSONFile.decode(ParsedMessage.self, from: Data(line.utf8), file: "\(source) line \(number)")
    }
}

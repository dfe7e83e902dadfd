import Foundation

/// What Lex V2 and Alexa share in a dialogue import: how a slot's type becomes the entity that fills it,
/// and how a spoken yes or no to a confirmation is recognized.
enum AmazonDialogue {
    /// The entity whose mention fills a slot, as the intent importers name it (`LexV2Importer`,
    /// `AlexaImporter`): a custom slot type is an entity of the type's name; a slot of Amazon's built-in
    /// types (`AMAZON.Number`) is an entity named after the slot. `nil` for a type that is neither.
    static func entity(slot: String, type: String, customTypes: Set<String>) -> String? {
        if customTypes.contains(type) { return type }
        if type.lowercased().hasPrefix("amazon.") { return slot }
        return nil
    }

    /// A yes to a confirmation: Alexa's `AMAZON.YesIntent` (Lex V2 recognizes yes by itself, with no intent
    /// to train), or one of the usual words as the whole answer.
    static let yes = answer(intent: "AMAZON.YesIntent", words: ["yes", "yeah", "yep", "sure", "ok", "okay", "correct", "yes please"])
    /// A no to a confirmation: `AMAZON.NoIntent`, or one of the usual words.
    static let no = answer(intent: "AMAZON.NoIntent", words: ["no", "nope", "no thanks", "not really"])

    private static func answer(intent: String, words: [String]) -> String {
        ([IntentCondition.matching(intent)] + words.map { "input.text.trim().toLowerCase() == '\($0)'" })
            .joined(separator: " || ")
    }

    /// SSML's text: the markup (`<speak>`, `<break/>`…) left out; the text is what a chat shows.
    static func withoutMarkup(_ ssml: String) -> String {
        var text = ""
        var inTag = false
        for character in ssml {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { text.append(character) }
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

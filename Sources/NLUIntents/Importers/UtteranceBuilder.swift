/// Builds an ``Utterance`` from pieces of text, some of them entity mentions, keeping annotation
/// offsets in Unicode scalars as it goes (Snips and Dialogflow parts, Rasa markup, placeholders).
struct UtteranceBuilder {
    private(set) var text = ""
    private(set) var entities: [EntityAnnotation] = []
    private var scalarCount = 0

    /// Appends plain text.
    mutating func append(_ piece: String) {
        text += piece
        scalarCount += piece.unicodeScalars.count
    }

    /// Appends `piece` as a mention of `entity` (empty mentions add no annotation).
    mutating func append(_ piece: String, entity: String, value: String? = nil, role: String? = nil) {
        let start = scalarCount
        append(piece)
        if scalarCount > start {
            entities.append(EntityAnnotation(start: start, end: scalarCount, entity: entity, value: value, role: role))
        }
    }

    var utterance: Utterance { Utterance(text, entities: entities) }
}

/// Offset conversions for exports that count in UTF-16 code units (Watson, LUIS: JavaScript and .NET
/// strings) into the Unicode-scalar offsets NLUKit uses.
enum ScalarOffsets {
    /// The scalar offset of UTF-16 offset `utf16Offset` in `text` (clamped to the text).
    static func fromUTF16(_ utf16Offset: Int, in text: String) -> Int {
        var units = 0, scalars = 0
        for scalar in text.unicodeScalars {
            if units >= utf16Offset { break }
            units += scalar.utf16.count
            scalars += 1
        }
        return scalars
    }
}

/// A language's ordinals relative to the end or the current item ("dernier", "penúltimo", "vorletzte",
/// "op één na laatste"), resolved as LUIS's ordinalV2 resolves English's ``RelativeOrdinals``: "end+0",
/// "end-1", "current+1". Phrases are held as a token tree over folded words, so a look-up walks at most one
/// phrase's length from a token.
///
/// French elides its article into the word ("l’antépénultième"): ``init(_:elisions:)`` also reads a one-word
/// phrase after an elided article, and the entity then starts after the apostrophe, as the specs mark it.
/// Phrases written with the article ("l’avant-dernier", Italian "l'ultima") keep it.
struct RelativeOrdinalPhrases: Sendable {
    struct Reading: Sendable {
        /// "end+0", "current-1"…
        var value: String
        /// Whether the phrase's first word carries an elided article the entity leaves out.
        var dropsElision = false
    }

    private var table = PhraseTable<Reading>()

    /// `phrases`: (value, the phrases saying it, folded as ``DateTimeText/fold(_:)`` folds words);
    /// `elisions`: articles that may be glued before a one-word phrase ("l'", "d'").
    init(_ phrases: [(String, [String])], elisions: [String] = []) {
        for (value, said) in phrases {
            table.add(said, Reading(value: value))
            for phrase in said where !phrase.contains(" ") && !phrase.contains("-") {
                table.add(elisions.map { $0 + phrase }, Reading(value: value, dropsElision: true))
            }
        }
    }

    /// Every stem with every ending: ("últim", ["o", "a", "os", "as"]) gives the four forms of "last".
    static func inflected(_ stems: [String], _ endings: [String]) -> [String] {
        stems.flatMap { stem in endings.map { stem + $0 } }
    }

    /// The phrase starting at token `index`: its value, its first scalar and its last token.
    func match(_ text: DateTimeText, at index: Int) -> (value: String, start: Int, last: Int)? {
        guard let (reading, end) = table.match(text, at: index) else { return nil }
        let first = text.tokens[index]
        var start = first.start
        if reading.dropsElision {
            // The entity starts after the apostrophe of "l’pénultième".
            var position = first.start
            while position < first.end, !TokenizedText.isApostrophe(text.tokens.scalars[position]) { position += 1 }
            if position + 1 < first.end { start = position + 1 }
        }
        return (reading.value, start, end - 1)
    }
}

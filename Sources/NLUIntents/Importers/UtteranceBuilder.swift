/// Builds an ``Utterance`` from pieces of text, some of them entity mentions, keeping annotation
/// offsets in Unicode scalars as it goes (Snips and Dialogflow parts, Rasa markup, placeholders).
struct UtteranceBuilder {
    private(set) var text = ""
    private(set) var entities: [EntityAnnotation] = []
    /// The text's scalars, so that a mention's text is cut in time proportional to its length
    /// (counting from the start for each of many labels made long lines quadratic).
    private var scalars: [Unicode.Scalar] = []
    private var scalarCount: Int { scalars.count }

    /// Appends plain text.
    mutating func append(_ piece: String) {
        text += piece
        scalars += piece.unicodeScalars
    }

    /// Appends `piece` as a mention of `entity` (empty mentions add no annotation).
    mutating func append(_ piece: String, entity: String, value: String? = nil, role: String? = nil, group: String? = nil) {
        let start = scalarCount
        append(piece)
        if scalarCount > start {
            entities.append(EntityAnnotation(start: start, end: scalarCount, entity: entity, value: value, role: role, group: group))
        }
    }

    /// The scalar offset where the next piece will start.
    var offset: Int { scalarCount }

    /// The text appended since scalar offset `start`.
    func text(since start: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[min(max(start, 0), scalars.count)...])
        return String(view)
    }

    /// Annotates the text appended since scalar offset `start` (for mentions nested in mentions).
    mutating func annotate(from start: Int, entity: String, value: String? = nil, role: String? = nil) {
        if scalarCount > start {
            entities.append(EntityAnnotation(start: start, end: scalarCount, entity: entity, value: value, role: role))
        }
    }

    var utterance: Utterance { Utterance(text, entities: entities) }
}

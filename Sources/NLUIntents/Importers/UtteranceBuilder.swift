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
    mutating func append(_ piece: String, entity: String, value: String? = nil, role: String? = nil, group: String? = nil) {
        let start = scalarCount
        append(piece)
        if scalarCount > start {
            entities.append(EntityAnnotation(start: start, end: scalarCount, entity: entity, value: value, role: role, group: group))
        }
    }

    /// The scalar offset where the next piece will start.
    var offset: Int { scalarCount }

    /// Annotates the text appended since scalar offset `start` (for mentions nested in mentions).
    mutating func annotate(from start: Int, entity: String, value: String? = nil, role: String? = nil) {
        if scalarCount > start {
            entities.append(EntityAnnotation(start: start, end: scalarCount, entity: entity, value: value, role: role))
        }
    }

    var utterance: Utterance { Utterance(text, entities: entities) }
}

/// Offset conversions for exports that count in UTF-16 code units (Watson, LUIS: JavaScript and .NET
/// strings) or UTF-8 bytes (CLU's `Utf8CodeUnit`) into the Unicode-scalar offsets NLUKit uses.
enum ScalarOffsets {
    /// The units an export counts offsets in.
    enum Unit: String {
        case utf16 = "Utf16CodeUnit", utf8 = "Utf8CodeUnit", scalar = "UnicodeCodePoint"

        func width(of scalar: Unicode.Scalar) -> Int {
            switch self {
            case .utf16: return scalar.utf16.count
            case .utf8: return scalar.utf8.count
            case .scalar: return 1
            }
        }
    }

    /// The scalar range of the span `offset ..< offset + length` counted in `unit`, or `nil` when it
    /// is empty, lies outside `text` or cuts a character's encoding in two.
    static func scalarRange(offset: Int, length: Int, unit: Unit, in text: String) -> Range<Int>? {
        guard offset >= 0, length > 0, offset <= Int.max - length else { return nil }
        let end = offset + length
        var units = 0, scalars = 0
        var start: Int? = offset == 0 ? 0 : nil
        for scalar in text.unicodeScalars {
            units += unit.width(of: scalar)
            scalars += 1
            if units == offset { start = scalars }
            if units == end, let start { return start..<scalars }
            if units > end { return nil }
        }
        return nil
    }

    /// The length of `text` in `unit`s.
    static func length(of text: String, in unit: Unit) -> Int {
        switch unit {
        case .utf16: return text.utf16.count
        case .utf8: return text.utf8.count
        case .scalar: return text.unicodeScalars.count
        }
    }

    /// The offset in `unit`s of scalar offset `scalarOffset` in `text` (for export).
    static func unitOffset(_ scalarOffset: Int, unit: Unit, in text: String) -> Int {
        text.unicodeScalars.prefix(scalarOffset).reduce(0) { $0 + unit.width(of: $1) }
    }

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

import Yams

/// Text in YAML exports as the author wrote it. Read as values, YAML 1.1 (Yams) makes a plain `yes`,
/// `on` or `no` a boolean, `42` a number and `null` nothing, so an utterance, a name or an entity
/// value written that way was dropped without a word (or written `true`); Rasa reads YAML 1.2, where
/// they stay text, and snips-nlu's authors mean text. Every scalar is taken as written here.
///
///     YAMLText.scalar(try Yams.compose(yaml: "- yes")?[0])   // "yes"
enum YAMLText {
    /// The text of a scalar node, `nil` for a missing node, a list or a mapping.
    static func scalar(_ node: Node?) -> String? {
        if case let .scalar(scalar)? = node { return scalar.string }
        return nil
    }

    /// The text of `item` as written; an item that is not text (an unquoted `[x, y]` reads as a list)
    /// is `nil`, with a warning naming it (`place`).
    static func item(_ item: Node, at place: String, warnings: inout [String]) -> String? {
        if let text = scalar(item) { return text }
        warnings.append("\(place) is not text; skipped (quote an item that starts with '[' or '{': YAML reads it as a list or a mapping)")
        return nil
    }
}

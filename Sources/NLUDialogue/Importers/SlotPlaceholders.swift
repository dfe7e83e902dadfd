import NLUInputOutput

/// Lex, Alexa and Dialogflow prompts name slots as `{Slot}` (Dialogflow: `$slot`, already NLUKit's
/// syntax); NLUKit's templates name the context variable the slot fills as `$Slot`. The conversion checks
/// that every name is a slot of the intent, so a prompt naming an unknown slot is refused at import with
/// the file and the field, not rendered empty on every turn.
enum SlotPlaceholders {
    /// `text` with each `{name}` as `$name` (`<? $name ?>` when a letter, digit, `_` or `-` follows, which
    /// would otherwise join the name).
    /// - Throws: `JSONFileError` naming `file` and `field` when a name is not in `slots`.
    static func template(_ text: String, slots: Set<String>, file: String, field: String) throws -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            guard isName(name) else {
                // Not a placeholder (`{` in prose, JSON in a message): kept as written.
                result += rest[open...close]
                rest = rest[rest.index(after: close)...]
                continue
            }
            guard slots.contains(name) else {
                let known = slots.isEmpty ? "it has no slots" : "its slots: \(slots.sorted().joined(separator: ", "))"
                throw JSONFileError(file: file, field: field, reason: "'{\(name)}' names no slot of the intent (\(known))")
            }
            rest = rest[rest.index(after: close)...]
            let joins = rest.first.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } ?? false
            result += joins ? "<? $\(name) ?>" : "$\(name)"
        }
        return result + rest
    }

    /// Whether `name` can be a slot name: letters, digits, `_` and `-`, starting with a letter or `_`.
    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }
}

import NLUKit

/// `--verbose`'s note on a text written in a script its language does not use: such text is read without
/// error (names and borrowed words are normal), but what reads it finds nothing it knows.
enum ScriptNotes {
    /// Writes `note: "TEXT" is written in Han, not in the Latin script of 'en': READER read nothing there`.
    static func note(on text: String, language: String, reader: String) {
        guard let mismatch = LanguageScripts.mismatch(in: text, language: language) else { return }
        let shown = text.count > 60 ? String(text.prefix(57)) + "..." : text
        Console.log("note: \"\(shown)\" is \(LanguageScripts.describe(mismatch, language: language)): \(reader) read nothing there")
    }
}

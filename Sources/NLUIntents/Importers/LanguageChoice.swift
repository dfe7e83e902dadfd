/// The language a multi-language export is read in when `--language` names one: the same rule for
/// CLU, Dialogflow ES and CX and Lex V2, so that a language the export lacks is an error naming
/// the ones it has, never a silent import of another language.
enum LanguageChoice {
    /// The one of `available` that `wanted` names: the same code (ignoring case, `_` read as `-`),
    /// else the first whose primary subtag it is (`en` reads `en-us` or `en_US`).
    /// - Parameter holding: what `available` are, for the message ("the agent has training phrases in").
    /// - Throws: ``IntentDatasetError/unknownFormat(file:detail:)`` naming `available`.
    static func requested(_ wanted: String, among available: [String], file: String, holding: String) throws -> String {
        let code = normalized(wanted)
        if let exact = available.first(where: { normalized($0) == code }) { return exact }
        if let primary = available.first(where: { language(of: $0) == code }) { return primary }
        throw IntentDatasetError.unknownFormat(
            file: file, detail: "--language \(wanted): \(holding) \(available.isEmpty ? "no language" : available.joined(separator: ", "))")
    }

    /// A locale as exports compare them: case and `_` / `-` aside ("en_US" and "en-us" are one).
    static func normalized(_ locale: String) -> String {
        locale.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// The language of a locale, its primary subtag lowercased: "en-US" → "en", "pt_BR" → "pt".
    static func language(of locale: String) -> String {
        String(locale.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

    /// The warning of an export holding several languages of which one is read: "bot.zip: the bot has
    /// locales de_DE, en_US; reading en_US (--language to choose)", the same words for every format.
    static func warning(file: String, holding: String, available: [String], reading chosen: String) -> String {
        "\(file): \(holding) \(available.joined(separator: ", ")); reading \(chosen) (--language to choose)"
    }
}

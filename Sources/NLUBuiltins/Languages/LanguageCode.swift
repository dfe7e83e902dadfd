import Foundation

/// The shape every language code NLUKit reads must have, wherever it comes from (`--language`, a dataset's or an
/// export's language, the server's `language` field): a language of 2 or 3 ASCII letters (ISO 639), then any
/// subtags of 1 to 8 ASCII letters or digits (script, region), joined by `-` or `_`; spaces around are ignored.
/// One rule for every reader, so that a code one command refuses is not taken silently by another (`e!` trained
/// an intents model without a word said). Whether a reader then supports the language is its own question: the
/// built-in entities read nine, the stemmers about thirty.
///
///     LanguageCode.language(of: "pt_BR")        // "pt"
///     LanguageCode.language(of: "zh-Hans-CN")   // "zh"
///     LanguageCode.language(of: "e!")           // nil: not a language code
public enum LanguageCode {
    /// The lowercased language subtag of `code` ("fr" for "FR-fr"), or `nil` when `code` is not shaped as a
    /// language code or culture.
    public static func language(of code: String) -> String? {
        let parts = code.trimmingCharacters(in: .whitespaces)
            .split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }),
              parts.dropFirst().allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { return nil }
        return first.lowercased()
    }

    /// Whether `code` is a culture: a language code with a region or script (`fr-FR`, `zh_Hans`), as platforms
    /// name their per-locale files (`de-DE.json`, `main.fr-fr.lu`); a bare word of two letters is too often
    /// something else in a file name to be read as a language.
    public static func isCulture(_ code: String) -> Bool {
        language(of: code) != nil && code.contains(where: { $0 == "-" || $0 == "_" })
    }

    /// What an error message says a language code looks like.
    public static let expectedShape = "expected a code such as 'fr' or a culture such as 'fr-FR'"
}

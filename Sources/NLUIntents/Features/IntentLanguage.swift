import NLUBuiltins
import NLUText

/// What an intents model does in the language its dataset names: the Snowball stemmer its words are stemmed
/// with, and the built-in entities it reads (``BuiltinEntityLanguage``). The code must be a language code
/// (``NLUBuiltins/LanguageCode``; a Snowball algorithm name such as `german` is taken too, as `nlu stem` takes
/// it): one the stemmer and the built-ins cannot even read (`e!`) is refused wherever it enters (`--language`, a
/// dataset's or an export's language, a model's manifest), so that it is never trained on silently. A
/// well-formed code NLUKit has no stemmer for (Korean, Swahili, `xx`) trains on the words as written, with the
/// language-independent features, and ``warning(stemming:builtins:)`` says so. Chinese, Japanese, Thai, Lao,
/// Khmer and Myanmar have no stemmer either, but nothing to stem: their text is read by character
/// (``LetterRunNGrams``, docs/languages.md), so they get no warning.
///
///     try IntentLanguage(code: "fr-FR").stemmer   // .french
///     try IntentLanguage(code: "ko").warning(stemming: true, builtins: false)
///     // "the dataset's language 'ko' has no Snowball stemmer: its words train as written …"
///     try IntentLanguage(code: "e!")              // throws IntentLanguageError: 'e!' is not a language code …
public struct IntentLanguage: Sendable, Equatable {
    /// The code as the dataset, the options or the model give it; `nil` for none (English, as always).
    public let code: String?
    /// The language whose stemmer stems the words; `nil` when Snowball has none for it.
    public let stemmer: StemmerLanguage?
    /// The language the built-in entities are read in.
    public let builtins: BuiltinEntityLanguage

    /// The language `code` names (`nil`: English).
    /// - Parameter place: where the code comes from, for the error (`--language`, `bot.json: field 'culture'`).
    /// - Throws: ``IntentLanguageError`` when `code` is not a language code.
    public init(code: String?, place: String? = nil) throws(IntentLanguageError) {
        if let code, !Self.isReadable(code) { throw IntentLanguageError(code: code, place: place) }
        self.code = code
        stemmer = try? StemmerLanguage(code: code ?? "en")
        builtins = BuiltinEntityLanguage(code: code)
    }

    /// Whether `code` is a language code (or a Snowball algorithm name, which names a stemmer).
    static func isReadable(_ code: String) -> Bool {
        LanguageCode.language(of: code) != nil || StemmerLanguage(rawValue: code.lowercased()) != nil
    }

    /// Whether the language is written without spaces and read by character (Chinese, Japanese, Thai, Lao,
    /// Khmer, Myanmar): its words are not inflected with endings a stemmer would remove.
    public var isReadByCharacter: Bool {
        guard let code, let scripts = LanguageScripts.scripts(of: code) else { return false }
        return scripts.allSatisfy(Self.unspacedScripts.contains)
    }

    private static let unspacedScripts: Set<WritingScript> = [.han, .hiragana, .katakana, .thai, .lao, .khmer, .myanmar]

    /// The languages Snowball stems, by code ("ar, ca, cs, …, yi").
    public static var stemmedCodes: String {
        StemmerLanguage.allCases.compactMap(\.code).sorted().joined(separator: ", ")
    }

    /// The languages an intents model reads in full (stemmed, or read by character), by code: what an
    /// error lists.
    public static var supportedCodes: String {
        (StemmerLanguage.allCases.compactMap(\.code) + ["ja", "km", "lo", "my", "th", "zh"]).sorted().joined(separator: ", ")
    }

    /// One warning for what training in this language lacks, `nil` when it lacks nothing: no stemmer (when
    /// `stemming`, the words being stemmed), no built-in entities in the language (when `builtins`, the
    /// dataset using them). One message rather than two, naming what is supported.
    public func warning(stemming: Bool, builtins readsBuiltins: Bool) -> String? {
        guard let code else { return nil }
        let unstemmed = stemming && stemmer == nil && !isReadByCharacter
        let builtinsMissing = readsBuiltins && builtins.language == nil
        let builtinLanguages = BuiltinLanguage.allCases.map(\.rawValue).joined(separator: ", ")
        let onlyIndependent = "only digits, e-mails, URLs and phone numbers are recognized"
        switch (unstemmed, builtinsMissing) {
        case (true, true):
            return "the dataset's language '\(code)' has no Snowball stemmer: its words train as written, with the "
                + "language-independent features (stemmed: \(Self.stemmedCodes)); built-in entities do not read it "
                + "either (supported: \(builtinLanguages)): \(onlyIndependent)"
        case (true, false):
            return "the dataset's language '\(code)' has no Snowball stemmer: its words train as written, with the "
                + "language-independent features (stemmed: \(Self.stemmedCodes))"
        case (false, true):
            return builtins.warning
        case (false, false):
            return nil
        }
    }
}

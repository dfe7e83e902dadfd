import NLUBuiltins

/// The language an intents model reads its built-in entities in: the dataset's (``IntentDataset/language``,
/// which the model keeps), as ``BuiltinLanguage/init(code:)`` reads codes and cultures ("fr", "fr-FR").
/// No language at all (a dataset or a model that never recorded one) is English, as it always was. A language
/// the built-ins do not read (Korean, Polish...) gets the language-independent kinds only (digits, e-mails,
/// URLs, phone numbers: ``BuiltinLanguage/languageIndependentTypes``) and a ``warning`` saying so: English
/// number words in a Polish model would be wrong silently.
///
///     BuiltinEntityLanguage(code: "fr-FR").language   // .french
///     BuiltinEntityLanguage(code: "zh-CN").language   // .chinese
///     BuiltinEntityLanguage(code: "ko").language      // nil: digits, e-mails, URLs, phone numbers
public struct BuiltinEntityLanguage: Sendable, Equatable {
    /// The code as the dataset or the model gives it.
    public let code: String?
    /// The language the recognizer reads; `nil` for none (language-independent kinds only).
    public let language: BuiltinLanguage?

    public init(code: String?) {
        self.code = code
        guard let code else {
            language = .english
            return
        }
        language = try? BuiltinLanguage(code: code)
    }

    /// The warning for a language the built-ins do not read, `nil` otherwise.
    public var warning: String? {
        guard language == nil, let code else { return nil }
        let supported = BuiltinLanguage.allCases.map(\.rawValue).joined(separator: ", ")
        return "built-in entities do not read the dataset's language '\(code)' (supported: \(supported)); "
            + "only digits, e-mails, URLs and phone numbers are recognized"
    }
}

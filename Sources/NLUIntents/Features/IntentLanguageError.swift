import Foundation
import NLUBuiltins

/// A language an intents dataset, option or model names that is not a language code at all (`e!`): the
/// message says where it comes from, what a code looks like and which languages intents read.
///
///     print(IntentLanguageError(code: "e!", place: "--language"))
///     // "--language: 'e!' is not a language code (expected a code such as 'fr' or a culture such as 'fr-FR'); supported: ar, ca, …"
public struct IntentLanguageError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The code as given.
    public var code: String
    /// Where it comes from (`--language`, `bot.json: field 'culture'`), when known.
    public var place: String?

    public init(code: String, place: String? = nil) {
        self.code = code
        self.place = place
    }

    public var description: String {
        (place.map { "\($0): " } ?? "") + "'\(code)' is not a language code (\(LanguageCode.expectedShape)); "
            + "supported: \(IntentLanguage.supportedCodes)"
    }

    public var errorDescription: String? { description }
}

/// Why a ``Stemmer`` could not be made.
public enum StemmerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No algorithm stems the language `code` names; `supported` lists the codes that work.
    case unsupportedLanguage(String, supported: String)
    /// An embedded Snowball source did not read (a defect of NLUKit, caught by its tests).
    case unreadableAlgorithm(name: String, problem: String)

    public var description: String {
        switch self {
        case .unsupportedLanguage(let code, let supported):
            "no stemmer for language '\(code)'; supported: \(supported)"
        case .unreadableAlgorithm(let name, let problem):
            "the Snowball \(name) algorithm did not read: \(problem)"
        }
    }
}

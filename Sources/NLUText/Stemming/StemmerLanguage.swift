/// A language (or, for `porter` and `dutchPorter`, an older algorithm) that ``Stemmer`` stems: every
/// algorithm Snowball 3.1.1 publishes and the `snowballstemmer` package ships.
///
///     try StemmerLanguage(code: "pt_BR")   // .portuguese
///     try StemmerLanguage(code: "fr-fr")   // .french
///     StemmerLanguage.german.code          // "de"
public enum StemmerLanguage: String, CaseIterable, Sendable, Codable {
    case arabic, armenian, basque, catalan, czech, danish, dutch
    case dutchPorter = "dutch_porter"
    case english, esperanto, estonian, finnish, french, german, greek, hindi, hungarian, indonesian, irish
    case italian, lithuanian, nepali, norwegian, persian, polish, porter, portuguese, romanian, russian
    case serbian, sesotho, spanish, swedish, tamil, turkish, yiddish

    /// The ISO 639-1 code of the language (nil for the `porter` and `dutchPorter` algorithms, which
    /// are chosen by name).
    public var code: String? {
        switch self {
        case .arabic: "ar"
        case .armenian: "hy"
        case .basque: "eu"
        case .catalan: "ca"
        case .czech: "cs"
        case .danish: "da"
        case .dutch: "nl"
        case .english: "en"
        case .esperanto: "eo"
        case .estonian: "et"
        case .finnish: "fi"
        case .french: "fr"
        case .german: "de"
        case .greek: "el"
        case .hindi: "hi"
        case .hungarian: "hu"
        case .indonesian: "id"
        case .irish: "ga"
        case .italian: "it"
        case .lithuanian: "lt"
        case .nepali: "ne"
        case .norwegian: "no"
        case .persian: "fa"
        case .polish: "pl"
        case .portuguese: "pt"
        case .romanian: "ro"
        case .russian: "ru"
        case .serbian: "sr"
        case .sesotho: "st"
        case .spanish: "es"
        case .swedish: "sv"
        case .tamil: "ta"
        case .turkish: "tr"
        case .yiddish: "yi"
        case .dutchPorter, .porter: nil
        }
    }

    /// The language of `code`: an ISO 639-1 code (`fr`), a culture code whose language part is one
    /// (`fr-FR`, `pt_BR`, `zh-Hans-CN` is Chinese), Norwegian's `nb` and `nn`, or the algorithm's
    /// Snowball name (`french`, `dutch_porter`, `porter`), in any case.
    ///
    /// - Throws: ``StemmerError/unsupportedLanguage(_:supported:)`` when no algorithm stems it.
    public init(code: String) throws(StemmerError) {
        let trimmed = code.trimmingSpaces.lowercased()
        if let named = StemmerLanguage(rawValue: trimmed) {
            self = named
            return
        }
        let language = trimmed.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        if language == "nb" || language == "nn" {
            self = .norwegian
            return
        }
        guard let found = StemmerLanguage.allCases.first(where: { $0.code == language }) else {
            throw StemmerError.unsupportedLanguage(code, supported: StemmerLanguage.supportedList)
        }
        self = found
    }

    /// "ar (arabic), ca (catalan), …, porter, dutch_porter": what an error message lists.
    static var supportedList: String {
        let coded = allCases.compactMap { language in language.code.map { "\($0) (\(language.rawValue))" } }.sorted()
        return (coded + ["porter", "dutch_porter"]).joined(separator: ", ")
    }
}

private extension String {
    var trimmingSpaces: Substring {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return Substring(scalars[first...last])
    }
}

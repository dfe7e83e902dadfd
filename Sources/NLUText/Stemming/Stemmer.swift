/// Stems words of one language with its Snowball algorithm: `Stemmer(language: "fr")` stems
/// French, `"pt_BR"` Portuguese, `"en"` English. Each algorithm is Snowball's published one as
/// `snowballstemmer` 3.1.1 carries it out, checked word for word against that package and against
/// Snowball's own test vocabularies (Tests/Fixtures/stemmer).
///
/// English uses ``EnglishStemmer``; every other language runs Snowball's `.sbl` source through
/// NLUText's Snowball interpreter (the source is read once per process, on first use).
/// Give it lowercase words; it works on Unicode scalars, as the reference works on code points.
///
///     let stemmer = try Stemmer(language: "fr-FR")
///     stemmer.stem("continuellement")   // "continuel"
///     try Stemmer(language: "xx")        // throws: no stemmer for language 'xx'; supported: ar (arabic), ...
public struct Stemmer: Sendable {
    /// The language this stemmer stems.
    public let language: StemmerLanguage
    private let implementation: Implementation

    private enum Implementation: Sendable {
        case english(EnglishStemmer)
        case snowball(SnowballProgram)
    }

    /// Snowball English (``EnglishStemmer``): the one stemmer that cannot fail to be made.
    public static let english = Stemmer(language: .english, implementation: .english(EnglishStemmer()))

    private init(language: StemmerLanguage, implementation: Implementation) {
        self.language = language
        self.implementation = implementation
    }

    /// The stemmer of `language`.
    public init(_ language: StemmerLanguage) throws(StemmerError) {
        if language == .english {
            self = .english
        } else {
            self.init(language: language, implementation: .snowball(try SnowballAlgorithms.program(for: language).get()))
        }
    }

    /// The stemmer of the language `code` names (`fr`, `fr-fr`, `pt_BR`, `german`...).
    ///
    /// - Throws: ``StemmerError/unsupportedLanguage(_:supported:)``, listing the supported codes.
    public init(language code: String) throws(StemmerError) {
        try self.init(StemmerLanguage(code: code))
    }

    /// The stem of `word` (a lowercase word).
    public func stem(_ word: String) -> String {
        switch implementation {
        case .english(let stemmer):
            return stemmer.stem(word)
        case .snowball(let program):
            var machine = SnowballInterpreter(program: program, word: Array(word.unicodeScalars))
            machine.run()
            var result = String.UnicodeScalarView()
            result.append(contentsOf: machine.current)
            return String(result)
        }
    }
}

/// The elided articles, pronouns and prepositions of a language written with an apostrophe before the next word
/// (French "l'alarme", "qu'il", "jusqu'à"; Italian "dell'anno", "un'ora"; Catalan "d'aigua"), which the word
/// tokenizer keeps inside one word and keyword terms split off: removing them makes "l'alarme" the word "alarme".
///
/// Lucene's `ElisionFilter` semantics: a word whose part before its first apostrophe (`'` U+0027 or `’` U+2019) is,
/// lower-cased, in the language's fixed list loses that part and the apostrophe; any other word stays as it is
/// ("aujourd'hui", and every English word: English has no list, so "don't" and "o'clock" are untouched). The lists
/// are the elided forms of the language's grammar (the words Lucene's French, Italian, Catalan and Irish analyzers
/// list, and for Italian also those Snowball's Italian stemmer removes, "quest'", "quell'", "tutt'", so that `’` and
/// `'` give the same word). The Snowball French, Italian and Irish stemmers remove some of these themselves, but only
/// before `'`: what is removed here never reaches them, and the stem of the rest is the stem Snowball gives the word
/// without its article (Irish "d’fhág" and "d'fhág" both stem to "fág").
///
/// The lists grew: ``revision`` 1 had French, Italian and Catalan, 2 adds Irish. Whoever stored terms made with
/// an earlier revision (a trained model) asks for that one, and its words are cut as they were.
///
///     let elision = Elision(language: .french)
///     elision?.remainder(of: "L’alarme")   // "alarme"
///     elision?.remainder(of: "aujourd'hui") // "aujourd'hui"
///     Elision(language: .english)         // nil: nothing is elided
public struct Elision: Sendable {
    /// The language whose elided words this removes.
    public let language: StemmerLanguage
    /// The elided words, lower-case, without their apostrophe.
    public let words: Set<String>

    /// The revision of the lists this version of NLUKit has: 1, French, Italian and Catalan; 2, also Irish.
    public static let revision = 2

    /// The elision of `language` in the lists of `revision` (this version's by default), `nil` for a language whose
    /// words are not elided before an apostrophe, or were not in that revision.
    public init?(language: StemmerLanguage, revision: Int = Elision.revision) {
        guard let (words, since) = Self.lists[language], since <= revision else { return nil }
        self.language = language
        self.words = words
    }

    /// Whether `scalar` is an apostrophe that ends an elided word: `'` or `’`.
    @inlinable
    public static func isApostrophe(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "'" || scalar == "\u{2019}"
    }

    /// Whether `word` (as written, any case, without its apostrophe) is one of the elided words.
    public func isElided(_ word: some StringProtocol) -> Bool {
        // The longest elided word has 7 letters: longer ones are never looked up (nor lower-cased).
        guard word.unicodeScalars.count <= 7 else { return false }
        return words.contains(word.lowercased())
    }

    /// `word` without its elided article: the slice after the first apostrophe when the part before it is
    /// elided and something follows; otherwise `word` itself. A slice of `word`, so its range stays a range of the
    /// text `word` was cut from.
    public func remainder(of word: Substring) -> Substring {
        let scalars = word.unicodeScalars
        guard let apostrophe = scalars.firstIndex(where: Self.isApostrophe) else { return word }
        let after = scalars.index(after: apostrophe)
        // Sliced by scalars: an apostrophe followed by a combining mark is not a character boundary.
        guard after < scalars.endIndex, isElided(Substring(scalars[..<apostrophe])) else { return word }
        return Substring(scalars[after...])
    }

    /// Each language's elided words and the revision that added them.
    private static let lists: [StemmerLanguage: (words: Set<String>, since: Int)] = [
        // Articles, pronouns, "de", "que" and its compounds.
        .french: (["c", "d", "j", "l", "m", "n", "s", "t", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu"], 1),
        // Articles, articulated prepositions, pronouns, and the demonstratives Snowball's stemmer also removes.
        .italian: (["c", "d", "l", "m", "s", "t", "v", "un", "gl", "all", "agl", "coll", "dall", "dagl", "dell",
                    "degl", "nell", "negl", "pell", "sull", "sugl", "quell", "quest", "tutt"], 1),
        // Articles, "de", and the pronouns.
        .catalan: (["d", "l", "m", "n", "s", "t"], 1),
        // The past-tense particle "do" ("d'fhág", "d'ól") and the possessives "mo", "do" before a vowel ("m'athair");
        // "b'" is "ba" (the copula: "b'fhéidir"). The prefixes written with a hyphen ("t-athair", "n-éan",
        // "h-oileán") are not elisions: the word tokenizer splits them off at the hyphen.
        .irish: (["d", "m", "b"], 2),
    ]
}

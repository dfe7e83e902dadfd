/// The stop words of a language: its most frequent function words ("le", "der", "и"), which a keyword
/// index leaves out. The lists are the ones the Snowball project publishes beside its stemmers, for the
/// 16 languages that have one (Danish, Dutch, English, Finnish, French, German, Hungarian, Indonesian,
/// Irish, Italian, Norwegian, Portuguese, Russian, Sesotho, Spanish, Swedish).
///
///     StopWords.list(for: .french)?.contains("les")   // true
///     StopWords.list(for: .greek)                     // nil: Snowball publishes no Greek list
public enum StopWords {
    /// The lowercase stop words of `language`, or nil when Snowball publishes no list for it.
    public static func list(for language: StemmerLanguage) -> Set<String>? {
        lists[language]
    }

    private static let lists: [StemmerLanguage: Set<String>] = snowballLists.mapValues(Set.init)
}

/// Tells which Latin-script language a short text is written in from its function words ("der", "le", "the"),
/// when they say it clearly; otherwise says nothing. Cheap and deterministic: a dictionary look-up per word.
///
/// The profiles are the Snowball stop-word lists (``StopWords``) of the 13 Latin-script languages that have one,
/// Irish and Sesotho aside (their lists hold "a", "an", "is", "le", "o", common in English and Romance text):
/// Danish, Dutch, English, Finnish, French, German, Hungarian, Indonesian, Italian, Norwegian, Portuguese, Spanish,
/// Swedish. A word counts for each language whose list holds it, divided by the number of such languages ("die"
/// is German's alone: 1; "de" is in five lists: 0.2 each). A text is identified as the language with the highest
/// sum when that sum is at least 1, at least two of the text's words are in its list, and it is at least twice the
/// sum of every language outside its group (Danish and Norwegian, whose function words are mostly the same, are
/// one group: neither is told from the other). Commands of two or three content words ("play jazz") have too few
/// function words and are not identified.
///
/// On xSID's dev and test utterances (800 per language, `Tests/Fixtures/languages`) it identifies 64 % of the
/// English ones as English and 1 of the 800 as another language; German 71 %, Dutch 55 %, Indonesian 52 %, Italian
/// 50 %, Norwegian 39 % and Danish 39 % as their language, and 2-4 % as another.
///
///     FunctionWordIdentifier.language(of: "Wie wird das Wetter morgen in Berlin")   // .german
///     FunctionWordIdentifier.language(of: "play jazz")                              // nil
public enum FunctionWordIdentifier {
    /// The languages a text can be identified as.
    public static let languages: [StemmerLanguage] = [.danish, .dutch, .english, .finnish, .french, .german, .hungarian,
                                                      .indonesian, .italian, .norwegian, .portuguese, .spanish, .swedish]

    /// The language `text` is clearly written in, or `nil`.
    public static func language(of text: String) -> StemmerLanguage? {
        var scores = [Double](repeating: 0, count: languages.count)
        var hits = [Int](repeating: 0, count: languages.count)
        for token in WordTokenizer(includePunctuation: false).tokens(in: text) where token.kind == .word {
            guard let listed = weights[token.text.lowercased()] else { continue }
            let weight = 1 / Double(listed.count)
            for language in listed {
                scores[language] += weight
                hits[language] += 1
            }
        }
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[best] >= 1, hits[best] >= 2 else { return nil }
        let rival = scores.indices.filter { !isSameGroup(languages[$0], languages[best]) }.map { scores[$0] }.max() ?? 0
        return scores[best] >= 2 * rival ? languages[best] : nil
    }

    /// Whether `a` and `b` are not told apart (the same language, or Danish and Norwegian).
    public static func isSameGroup(_ a: StemmerLanguage, _ b: StemmerLanguage) -> Bool {
        group(a) == group(b)
    }

    /// Whether texts in `language` can be identified (it has a profile, or is in a group that has one).
    public static func identifies(_ language: StemmerLanguage) -> Bool {
        languages.contains { isSameGroup($0, language) }
    }

    private static func group(_ language: StemmerLanguage) -> StemmerLanguage {
        language == .norwegian ? .danish : language
    }

    /// Each profile word and the indices (in ``languages``) of the languages whose list holds it.
    private static let weights: [String: [Int]] = {
        var weights: [String: [Int]] = [:]
        for (index, language) in languages.enumerated() {
            for word in StopWords.list(for: language) ?? [] { weights[word, default: []].append(index) }
        }
        return weights
    }()
}

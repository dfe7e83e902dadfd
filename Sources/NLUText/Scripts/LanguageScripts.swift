/// The scripts a language is written in, and whether a text is written in them: a German model asked in
/// Chinese, or a dataset declared English but written in Cyrillic, reads nothing its stemmer, vocabulary or
/// built-ins know. NLUKit does not refuse such text (names, borrowed words and mixed text are normal); the CLI
/// says so (`nlu intents train`, and `--verbose` on `predict` and `entities extract`).
///
///     LanguageScripts.scripts(of: "ru")                      // [.cyrillic]
///     LanguageScripts.mismatch(in: "明天下雨吗", language: "de")  // (found: .han, expected: [.latin])
///     LanguageScripts.mismatch(in: "Berlin", language: "zh")    // nil: too few letters to tell
public enum LanguageScripts {
    /// The scripts `code`'s language (`de`, `pt-BR`, `zh_Hans`) is written in; nil for a language NLUKit has
    /// no record of (no check is made then).
    public static func scripts(of code: String) -> [WritingScript]? {
        let language = code.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        switch language {
        case "en", "fr", "es", "pt", "de", "it", "nl", "da", "sv", "no", "nb", "nn", "fi", "et", "hu", "ro", "tr",
             "id", "ms", "ga", "ca", "eu", "lt", "lv", "pl", "cs", "sk", "sl", "hr", "eo", "st", "af", "is", "sq",
             "vi", "tl", "sw":
            return [.latin]
        case "sr": return [.cyrillic, .latin]  // Serbian is written in both (Snowball's stemmer reads both)
        case "ru", "uk", "bg", "be", "mk", "kk": return [.cyrillic]
        case "el": return [.greek]
        case "hy": return [.armenian]
        case "he", "yi": return [.hebrew]
        case "ar", "fa", "ur": return [.arabic]
        case "hi", "ne", "mr": return [.devanagari]
        case "bn": return [.bengali]
        case "ta": return [.tamil]
        case "th": return [.thai]
        case "lo": return [.lao]
        case "ka": return [.georgian]
        case "ko": return [.hangul, .han]
        case "ja": return [.hiragana, .katakana, .han]
        case "zh": return [.han]
        case "km": return [.khmer]
        case "my": return [.myanmar]
        default: return nil
        }
    }

    /// The fewest letters a text needs before its script is judged: a name or an acronym in another script
    /// is normal in any language.
    public static let minimumLetters = 4

    /// When most of `text`'s letters (of at least ``minimumLetters``) are in scripts `language` is not written
    /// in: the commonest such script and the language's; nil otherwise, or when the language is unknown.
    public static func mismatch(in text: String, language: String) -> (found: WritingScript, expected: [WritingScript])? {
        guard let expected = scripts(of: language) else { return nil }
        var counts = [Int](repeating: 0, count: WritingScript.allCases.count)
        var letters = 0
        for scalar in text.unicodeScalars {
            guard let script = WritingScript(letter: scalar) else { continue }
            counts[Int(script.rawValue)] += 1
            letters += 1
        }
        let inLanguage = expected.reduce(0) { $0 + counts[Int($1.rawValue)] }
        guard letters >= minimumLetters, inLanguage * 2 < letters,
              let commonest = counts.indices.max(by: { counts[$0] < counts[$1] }),
              let found = WritingScript(rawValue: UInt8(commonest)) else { return nil }
        return (found, expected)
    }

    /// "written in Han, not in the Latin script of de": what a warning says of `mismatch`.
    public static func describe(_ mismatch: (found: WritingScript, expected: [WritingScript]), language: String) -> String {
        let expected = mismatch.expected.map(\.description)
        let scripts = expected.count == 1 ? "the \(expected[0]) script" : "the " + expected.joined(separator: ", ") + " scripts"
        return "written in \(mismatch.found), not in \(scripts) of '\(language)'"
    }
}

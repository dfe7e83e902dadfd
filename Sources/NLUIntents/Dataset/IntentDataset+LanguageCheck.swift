import NLUText

extension IntentDataset {
    /// A warning when a substantial share of the utterances are clearly written in another Latin-script language
    /// than the dataset's (English when it names none): a project declared English whose utterances are German
    /// trains without error, then stems and reads built-ins in the wrong language. Nothing is refused or changed.
    ///
    /// The rule: the utterances (and counterexamples) ``NLUText/FunctionWordIdentifier`` identifies as one other
    /// language (not the dataset's, nor in its group: Danish and Norwegian are one) number at least
    /// ``languageMismatchMinimumCount`` and at least ``languageMismatchMinimumShare`` of all of them. Only a dataset
    /// whose language the identifier knows is checked (English, German, French... the 13 it lists): a Catalan
    /// dataset's utterances would look Spanish or French, so it is not. The warning names the language, the count,
    /// two example utterances and how to name the language.
    ///
    ///     IntentDataset(language: "en", intents: [germanWeather]).languageMismatchWarning(file: "bot.json")
    ///     // "bot.json: 6 of 8 utterances look German (de), not English ('en', the dataset's language): ..."
    public func languageMismatchWarning(file: String) -> String? {
        guard let declared = try? StemmerLanguage(code: language ?? "en"),
              FunctionWordIdentifier.identifies(declared) else { return nil }
        let texts = intents.flatMap { $0.utterances.map(\.text) } + counterexamples.map(\.text)
        var other: [StemmerLanguage: [String]] = [:]
        for text in texts {
            guard let found = FunctionWordIdentifier.language(of: text),
                  !FunctionWordIdentifier.isSameGroup(found, declared) else { continue }
            other[found, default: []].append(text)
        }
        guard let (found, examples) = other.max(by: { ($0.value.count, $1.key.rawValue) < ($1.value.count, $0.key.rawValue) }),
              examples.count >= Self.languageMismatchMinimumCount,
              Double(examples.count) >= Self.languageMismatchMinimumShare * Double(texts.count) else { return nil }
        let name = { (language: StemmerLanguage) in language.rawValue.prefix(1).uppercased() + language.rawValue.dropFirst() }
        let code = found.code ?? found.rawValue
        let assumed = language == nil ? "; a dataset that names no language is read as English" : ""
        let quoted = examples.prefix(2).map { "\"\($0)\"" }.joined(separator: ", ")
        return "\(file): \(examples.count) of \(texts.count) utterances look \(name(found)) (\(code)), not "
            + "\(name(declared)) ('\(language ?? "en")', the dataset's language\(assumed)), e.g. \(quoted): "
            + "if the dataset is in \(name(found)), name its language (its \"language\" field, or --language \(code)) "
            + "so that it is stemmed and its built-ins read in \(name(found))"
    }

    /// The fewest utterances in another language that ``languageMismatchWarning(file:)`` reports.
    public static let languageMismatchMinimumCount = 5
    /// The smallest share of the utterances in another language that ``languageMismatchWarning(file:)`` reports.
    public static let languageMismatchMinimumShare = 0.2
}

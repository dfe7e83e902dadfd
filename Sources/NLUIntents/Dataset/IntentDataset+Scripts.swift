import NLUText

extension IntentDataset {
    /// A warning when most of the dataset's utterances are written in a script its language is not written in
    /// (English when it names none, as the featurizer then reads it): its stemmer and built-ins read nothing
    /// there, and such a project would otherwise train without a word said. Nil when most are in the
    /// language's scripts, or the language is one NLUKit has no scripts recorded for.
    ///
    ///     IntentDataset(language: "de", intents: [chinese]).scriptMismatchWarning(file: "bot.json")
    ///     // "bot.json: 40 of 40 utterances are written in Han, not in the Latin script of 'de': ..."
    public func scriptMismatchWarning(file: String) -> String? {
        let language = self.language ?? "en"
        let texts = intents.flatMap { $0.utterances.map(\.text) } + counterexamples.map(\.text)
        var mismatched = 0
        var found: [WritingScript: Int] = [:]
        var expected: [WritingScript] = []
        for text in texts {
            guard let mismatch = LanguageScripts.mismatch(in: text, language: language) else { continue }
            mismatched += 1
            found[mismatch.found, default: 0] += 1
            expected = mismatch.expected
        }
        guard mismatched * 2 > texts.count,
              let commonest = found.max(by: { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) })?.key else { return nil }
        let assumed = self.language == nil ? " (a dataset that names no language is read as English)" : ""
        return "\(file): \(mismatched) of \(texts.count) utterances are "
            + LanguageScripts.describe((commonest, expected), language: language)
            + "\(assumed): its stemmer and built-ins read nothing there; name the dataset's language (its \"language\" field, or --language)"
    }
}

/// Ordinals relative to the end or the current item, as LUIS's ordinalV2 resolves them: "last" is
/// "end+0", "penultimate" "end-1", "next" "current+1", "previous" "current-1".
enum RelativeOrdinals {
    private static let phrases: [String: String] = [
        "last": "end+0", "next": "current+1", "previous": "current-1", "current": "current+0",
        "next one": "current+1", "previous one": "current-1", "current one": "current+0",
        "penultimate": "end-1", "antepenultimate": "end-2", "next to last": "end-1", "second to last": "end-1",
        "the second to last": "end-1", "last but one": "end-1", "the last but one": "end-1",
        "the one before the last": "end-1", "the one before the last one": "end-1",
        "the one before last": "end-1", "second last": "end-1", "third to last": "end-2", "the third to last": "end-2",
    ]
    private static let longest = 6
    private static let afterThe: Set<String> = Set(phrases.keys.compactMap { phrase in
        let words = phrase.split(separator: " ")
        return words.count > 1 && words[0] == "the" ? String(words[1]) : nil
    })

    /// The relative ordinal phrase starting at token `index`: its value and last token.
    static func match(in text: TokenizedText, at index: Int) -> (value: String, last: Int)? {
        guard let first = text.word(index), first == "the" || phrases[first] != nil || first == "second" || first == "third"
                || first == "penultimate" || first == "antepenultimate" else { return nil }
        // "the" begins only "the second/third to last", "the last but one", "the one before (the) last": most
        // "the"s of a text end here without building phrases.
        if first == "the", !(text.word(index + 1).map(Self.afterThe.contains) ?? false) { return nil }
        var phrase = ""
        var best: (String, Int)?
        var position = index
        while position < index + longest, let word = text.word(position) {
            phrase += (phrase.isEmpty ? "" : " ") + word
            if let value = phrases[phrase] { best = (value, position) }
            position += 1
        }
        return best
    }
}

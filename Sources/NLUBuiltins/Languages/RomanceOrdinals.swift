/// Spanish and Portuguese ordinals agree in gender: every ordinal word ending in "o" has a form in "a"
/// ("vigésima", "milésima"); the tables list the masculine and this adds the feminine.
enum RomanceOrdinals {
    static func withFeminines(_ words: [String: NumberMorpheme]) -> [String: NumberMorpheme] {
        var all = words
        for (word, piece) in words where word.hasSuffix("o") {
            switch piece {
            case .ordinal, .ordinalScale: all[String(word.dropLast()) + "a", default: piece] = piece
            default: break
            }
        }
        return all
    }
}

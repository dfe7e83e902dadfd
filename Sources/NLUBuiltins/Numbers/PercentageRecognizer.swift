/// Finds percentages: "50%", "50 %", "fifty percent", "12.5 per cent"; the value is the number ("50").
struct PercentageRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.percentage] }

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let parser = context.numbers
        let numbers = NumberRecognizer()
        var index = 0
        while index < text.count {
            // "percent of 10", "per cent of twenty-two": the word first.
            if let word = text.word(index), let ofIndex = Self.ofAfterPercentWord(text, word, index),
               let number = parser.parse(at: ofIndex + 1), number.kind != .ordinal {
                matches.append(EntityMatch(type: .percentage, tokens: text, first: index, last: number.endToken - 1,
                                           resolution: .value(number.value.text)))
                index = number.endToken
                continue
            }
            guard numbers.startsNumber(text, at: index), let number = parser.parse(at: index), number.kind != .ordinal else {
                index += 1
                continue
            }
            var last: Int?
            let next = number.endToken
            // "%2020", "30%25": percent-encoding in a URL, not a percentage.
            let encoded = number.firstToken > 0 && text[number.firstToken - 1].isSymbol("%") && !text[number.firstToken].spaceBefore
            if let sign = text.token(next), sign.isSymbol("%"), !encoded,
               !(text.token(next + 1).map { !$0.spaceBefore && ($0.isDigits || $0.isWord) } ?? false) {
                last = next
            } else if let word = text.word(next) {
                if word == "percent" || word == "percentage" || word == "pct" { last = next }
                else if word == "per", text.word(next + 1) == "cent" { last = next + 1 }
                else if word == "percents" { last = next }
            }
            if let last {
                matches.append(EntityMatch(type: .percentage, tokens: text, first: number.firstToken, last: last,
                                           resolution: .value(number.value.text)))
                index = last + 1
            } else {
                index = number.endToken
            }
        }
    }

    /// The index of "of" in "percent of" / "percents of" / "per cent of" starting at `index`.
    private static func ofAfterPercentWord(_ text: TokenizedText, _ word: String, _ index: Int) -> Int? {
        if word == "percent" || word == "percents", text.word(index + 1) == "of" { return index + 1 }
        if word == "per", text.word(index + 1) == "cent", text.word(index + 2) == "of" { return index + 2 }
        return nil
    }
}

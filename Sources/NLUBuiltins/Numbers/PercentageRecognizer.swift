/// Finds percentages: "50%", "50 %", "fifty percent", "12.5 per cent", "percent of 10"; in other languages
/// their words ("vingt pour cent", "zwanzig Prozent", "percentage van 30"). The value is the number ("50").
struct PercentageRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.percentage] }

    /// The words that make a number a percentage: after it, and before it (with "of" / "de").
    struct Words: Sendable {
        var after: [[String]]
        var before: [[String]]
        /// Whether hyphens may join the words ("pour-cent").
        var hyphens: Bool

        static let english = Words(after: [["percent"], ["percentage"], ["pct"], ["per", "cent"], ["percents"]],
                                   before: [["percent", "of"], ["percents", "of"], ["per", "cent", "of"]], hyphens: false)

        init(after: [[String]], before: [[String]], hyphens: Bool) {
            self.after = after
            self.before = before
            self.hyphens = hyphens
        }

        init(_ lexicon: NumberLexicon) {
            self.init(after: lexicon.percentAfter, before: lexicon.percentBefore, hyphens: true)
        }

        /// The last token of the first phrase of `phrases` that starts at token `index`, or nil.
        func match(_ phrases: [[String]], in text: TokenizedText, at index: Int) -> Int? {
            guard let first = text.word(index) else { return nil }
            let folded = hyphens ? NumberLexicon.fold(first) : first
            for phrase in phrases where phrase[0] == folded {
                var position = index
                var matched = true
                for word in phrase.dropFirst() {
                    position += 1
                    if hyphens, text.token(position)?.isSymbol("-") == true { position += 1 }
                    guard let next = text.word(position), (hyphens ? NumberLexicon.fold(next) : next) == word else {
                        matched = false
                        break
                    }
                }
                if matched { return position }
            }
            return nil
        }
    }

    var words: Words = .english

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let parser = context.reader
        let numbers = NumberRecognizer()
        var index = 0
        while index < text.count {
            // "percent of 10", "per cent of twenty-two": the words first.
            if let ofIndex = words.match(words.before, in: text, at: index),
               let number = parser.parse(at: ofIndex + 1), number.kind != .ordinal {
                matches.append(EntityMatch(type: .percentage, tokens: text, first: index, last: number.endToken - 1,
                                           resolution: .value(context.valueText(number.value))))
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
            } else {
                last = words.match(words.after, in: text, at: next)
            }
            if let last {
                matches.append(EntityMatch(type: .percentage, tokens: text, first: number.firstToken, last: last,
                                           resolution: .value(context.valueText(number.value))))
                index = last + 1
            } else {
                index = number.endToken
            }
        }
    }
}

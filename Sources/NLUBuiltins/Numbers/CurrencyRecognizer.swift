/// Finds amounts of money: "$1.5k", "$ 75 million", "USD 20", "20 euros", "one-yen", "3 dollars 50 cents",
/// "c $ 16.4 million"; the value is the amount in the unit named ("Dollar", "Euro"…).
struct CurrencyRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.currency] }

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let parser = context.numbers
        let numbers = NumberRecognizer()
        var index = 0
        while index < text.count {
            // A unit written first: "$5", "USD 20", "€ 2 million".
            if !text.touchesPrevious(index) || text[index].kind == .symbol || text[index - 1].kind == .symbol,
               let (unit, unitLast) = CurrencyUnits.unit(in: text, at: index), unit.prefix,
               let number = parser.parse(at: unitLast + 1), number.kind != .ordinal,
               text[unitLast + 1].spaceBefore == false || text[unitLast + 1].start - text[unitLast].end <= 1 {
                var value = number.value * .integer(unit.multiplier)
                var last = number.endToken - 1
                // "c $ 100 and fifty", "$20 and 43c": the amount's hundredths.
                if unit.takesHundredths, value.isInteger, let (cents, centsLast) = hundredths(text, parser, after: last) {
                    value = value + .real(cents / 100)
                    last = centsLast
                }
                matches.append(EntityMatch(type: .currency, tokens: text, first: index, last: last,
                                           resolution: .value(value.text, unit: unit.name, isoCurrency: unit.iso)))
                index = last + 1
                continue
            }
            // An amount then its unit: "20 euros", "100元", "115USD", "one-yen", "a dollar", "3 dollars 50 cents".
            guard numbers.startsNumber(text, at: index),
                  let number = parser.parse(at: index) ?? parser.parseBeforeGluedWord(at: index) ?? article(text, parser, at: index),
                  number.kind != .ordinal, number.kind == .cardinal || number.value.double >= 1 else {
                index += 1
                continue
            }
            var unitStart = number.endToken
            if let hyphen = text.token(unitStart), hyphen.isSymbol("-"), !hyphen.spaceBefore { unitStart += 1 }
            guard let (unit, unitLast) = CurrencyUnits.unit(in: text, at: unitStart),
                  !(unit.name == "Pence" && text[unitStart].text == "p" && text[unitStart].spaceBefore) else {
                index = number.endToken
                continue
            }
            var value = number.value * .integer(unit.multiplier)
            var last = unitLast
            // "75 USD million": the scale after the unit.
            if let word = text.word(last + 1), let scale = NumberWords.scales[word], scale >= 1_000_000 {
                value = value * .integer(scale)
                last += 1
            }
            let measure = unitLast == unitStart && !text[unitStart].capitalized
                && CurrencyUnits.lowercaseMeasureWords.contains(text[unitStart].text)
            if unit.takesHundredths, value.isInteger, !measure, let (cents, centsLast) = hundredths(text, parser, after: last) {
                value = value + .real(cents / 100)
                last = centsLast
            }
            var match = EntityMatch(type: .currency, tokens: text, first: number.firstToken, last: last,
                                    resolution: .value(value.text, unit: unit.name, isoCurrency: unit.iso))
            match.yieldsOnEqualSpan = measure
            matches.append(match)
            index = last + 1
        }
    }

    /// "a" or "an" right before a unit word: one of it ("a dollar").
    private func article(_ text: TokenizedText, _ parser: NumberParser, at index: Int) -> NumberMatch? {
        guard let word = text.word(index), word == "a" || word == "an", let next = text.token(index + 1), next.isWord,
              let unit = CurrencyUnits.unit(in: text, at: index + 1), parser.parse(at: unit.last + 1) == nil else { return nil }
        return NumberMatch(value: .integer(1), firstToken: index, endToken: index + 1, kind: .cardinal, spelled: true)
    }

    /// The hundredths after a whole amount: "… and forty-five cents", "… 50 cents", "… 43c", "… 1 pence",
    /// "… 43 sen", or a bare number below 100 ("$20 43", "15 dollars and 50", "thirteen dollars forty five"),
    /// as Recognizers-Text and Duckling read them. Not when another amount of money follows ("3 dollars 2 euros").
    private func hundredths(_ text: TokenizedText, _ parser: NumberParser, after index: Int) -> (Double, Int)? {
        var position = index + 1
        if text.word(position) == "and" { position += 1 }
        guard let token = text.token(position), token.isDigits || token.isWord, token.spaceBefore,
              let cents = parser.parse(at: position) ?? parser.parseBeforeGluedWord(at: position),
              cents.kind == .cardinal, cents.value.isInteger, cents.value.double < 100, cents.value.double >= 0 else { return nil }
        if !cents.spelled && token.text.count > 2 { return nil }
        if let unit = CurrencyUnits.unit(in: text, at: cents.endToken) {
            guard unit.unit.isSubunit else { return nil }
            return (cents.value.double, unit.last)
        }
        // "43c": a cent glued to its digits (on its own, "10 c" is as likely Celsius).
        if let glued = text.token(cents.endToken), glued.isWord, !glued.spaceBefore {
            guard glued.text == "c" else { return nil }
            return (cents.value.double, cents.endToken)
        }
        return (cents.value.double, cents.endToken - 1)
    }
}

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
               let number = parser.parse(at: unitLast + 1), number.kind == .cardinal,
               text[unitLast + 1].spaceBefore == false || text[unitLast + 1].start - text[unitLast].end <= 1 {
                var value = number.value
                var last = number.endToken - 1
                // "c $ 100 and fifty": the amount's hundredths.
                if text.word(last + 1) == "and", let cents = parser.parse(at: last + 2), cents.kind == .cardinal, cents.spelled,
                   cents.value.isInteger, cents.value.double < 100, text.word(cents.endToken) == nil || !isUnit(text, cents.endToken) {
                    value = value + .real(cents.value.double / 100)
                    last = cents.endToken - 1
                }
                matches.append(EntityMatch(type: .currency, tokens: text, first: index, last: last,
                                           resolution: .value(value.text, unit: unit.name, isoCurrency: unit.iso)))
                index = last + 1
                continue
            }
            // An amount then its unit: "20 euros", "100元", "one-yen", "3 dollars 50 cents".
            guard numbers.startsNumber(text, at: index), let number = parser.parse(at: index), number.kind == .cardinal else {
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
            var value = number.value
            var last = unitLast
            if unit.hasCents, let (cents, centsLast) = hundredths(text, parser, after: unitLast) {
                value = value + .real(cents / 100)
                last = centsLast
            }
            matches.append(EntityMatch(type: .currency, tokens: text, first: number.firstToken, last: last,
                                       resolution: .value(value.text, unit: unit.name, isoCurrency: unit.iso)))
            index = last + 1
        }
    }

    private func isUnit(_ text: TokenizedText, _ index: Int) -> Bool {
        CurrencyUnits.unit(in: text, at: index) != nil
    }

    /// "… and forty-five cents", "… 50 cents", "… forty five": the hundredths after a whole amount.
    private func hundredths(_ text: TokenizedText, _ parser: NumberParser, after index: Int) -> (Double, Int)? {
        var position = index + 1
        if text.word(position) == "and" { position += 1 }
        guard let cents = parser.parse(at: position), cents.kind == .cardinal, cents.value.isInteger,
              cents.value.double < 100 else { return nil }
        if let word = text.word(cents.endToken), word == "cents" || word == "cent" || word == "pence" {
            return (cents.value.double, cents.endToken)
        }
        // A bare number counts only spelled and not followed by another unit ("thirteen dollars forty five").
        guard cents.spelled, text.word(position - 1) != "and", !isUnit(text, cents.endToken) else { return nil }
        return (cents.value.double, cents.endToken - 1)
    }
}

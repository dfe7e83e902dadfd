/// Finds amounts of money in a language other than English, from its ``UnitLexicon``: "75 millions de dollars",
/// "$ 75 millions", "16,4 millions de $ c", "323 millions d'euros", "US$ 150 millones", "dólar 22,5 millones",
/// "zwei Euro und fünfzig Cent", "15 dólares con 50", "een kwartje"; a unit named without an amount ("le
/// dollar") is a currency with a unit and no value, as Recognizers-Text's specs report it. Values use the
/// decimal comma and the unit names are the language's, as in those specs.
struct LexiconCurrencyRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.currency] }
    let units: UnitLexicon
    let numbers: NumberLexicon

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let reader = context.reader
        let starts = NumberRecognizer()
        var index = 0
        while index < text.count {
            // A unit written first: "$ 75 millions", "EUR 1000", "dólar 22,5 millones".
            if !text.touchesPrevious(index) || text[index].kind == .symbol || text[index - 1].kind == .symbol,
               let (unit, unitLast) = units.currency(in: text, at: index), unit.prefix, !unit.subunit,
               let number = amount(reader, at: unitLast + 1), text[unitLast + 1].start - text[unitLast].end <= 1 {
                var (value, last) = units.scaled(number.value, text, after: number.endToken - 1, numbers: numbers)
                if let (cents, centsLast) = hundredths(text, reader, after: last) {
                    value = value + .real(cents / 100)
                    last = centsLast
                }
                append(value, unit, text, first: index, last: last, context: context, into: &matches)
                index = last + 1
                continue
            }
            guard starts.startsNumber(text, at: index), let number = amount(reader, at: index) else {
                if let (unit, last) = units.currency(in: text, at: index), !text.touchesPrevious(index) || text[index - 1].kind == .symbol {
                    // "een kwartje", "een cent": an article that the number reader leaves alone (Dutch "een") says one.
                    let article = text.word(index - 1).map { numbers.morphemes[NumberLexicon.fold($0)] == .value(1) } == true
                        && text.word(index - 2).map { units.anotherWords.contains(NumberLexicon.fold($0)) } != true
                    if unit.impliedOne || article {
                        matches.append(EntityMatch(type: .currency, tokens: text, first: article ? index - 1 : index, last: last,
                                                   resolution: .value("1", unit: unit.name, isoCurrency: unit.iso)))
                    } else if unit.bare {
                        matches.append(EntityMatch(type: .currency, tokens: text, first: index, last: last, resolution: .unit(unit.name)))
                    }
                }
                index += 1
                continue
            }
            // An amount then its unit: "94.000 $", "75 millions de dollars", "siebenhundert-Euro", "100元".
            var unitStart = number.endToken
            if let hyphen = text.token(unitStart), hyphen.isSymbol("-"), !hyphen.spaceBefore { unitStart += 1 }
            var (value, numberLast) = units.scaled(number.value, text, after: number.endToken - 1, numbers: numbers)
            if numberLast >= number.endToken { unitStart = numberLast + 1 }
            var found = units.currency(in: text, at: unitStart)
            if found == nil, let word = text.word(unitStart), units.unitConnectors.contains(NumberLexicon.fold(word)) {
                found = units.currency(in: text, at: unitStart + 1)
            }
            // "50 cents", "50 centesimi": the number reader took the unit for a number word (French "cents" is
            // hundreds, Italian "centesimi" hundredths); digits then that word are so many of the unit.
            if found == nil, number.endToken == number.firstToken + 2, text[number.firstToken].isDigits,
               let (unit, last) = units.currency(in: text, at: number.endToken - 1), unit.subunit {
                found = (unit, last)
                value = NumberValue(digits: Substring(text[number.firstToken].text))
            }
            guard let (unit, unitLast) = found else {
                index = number.endToken
                continue
            }
            var last = unitLast
            // "75 USD millones", "2,5 Mio USD" is read by the number: the scale after the unit.
            if let word = text.word(last + 1), case .scale(let scale)? = numbers.morphemes[NumberLexicon.fold(word)], scale >= 1_000_000 {
                value = value * .integer(scale)
                last += 1
            }
            if !unit.subunit, let (cents, centsLast) = hundredths(text, reader, after: last) {
                value = value + .real(cents / 100)
                last = centsLast
            }
            append(value, unit, text, first: number.firstToken, last: last, context: context, into: &matches)
            index = last + 1
        }
    }

    /// A cardinal amount at `index`: a number that is not an ordinal.
    private func amount(_ reader: any NumberReader, at index: Int) -> NumberMatch? {
        guard let number = reader.parse(at: index), number.kind != .ordinal else { return nil }
        return number
    }

    private func append(_ value: NumberValue, _ unit: UnitLexicon.Currency, _ text: TokenizedText, first: Int, last: Int,
                        context: RecognitionContext, into matches: inout [EntityMatch]) {
        matches.append(EntityMatch(type: .currency, tokens: text, first: first, last: last,
                                   resolution: .value(context.valueText(value), unit: unit.name, isoCurrency: unit.iso)))
    }

    /// The hundredths after a whole amount: "… et 15 cents", "… y cuarenta y cinco céntimos", "… 50", "… con 50",
    /// "… fünfzig": a whole number below 100, with a subunit named or nothing after it (not another unit: "3
    /// dollars 2 euros" is two amounts).
    private func hundredths(_ text: TokenizedText, _ reader: any NumberReader, after index: Int) -> (Double, Int)? {
        var position = index + 1
        if let word = text.word(position), units.hundredthsConnectors.contains(NumberLexicon.fold(word)) { position += 1 }
        let connected = position > index + 1
        guard let token = text.token(position), token.isDigits || token.isWord, token.spaceBefore,
              let cents = reader.parse(at: position), cents.value.double >= 0 else { return nil }
        if !cents.spelled && token.text.count > 2 { return nil }
        if let glued = text.token(cents.endToken), !glued.spaceBefore, glued.isWord || glued.isDigits { return nil }
        // "et quarante-cinq cents", "e quarantacinque centesimi": the subunit read as a number word (hundreds in
        // French, hundredths in Italian) ends the number; what it multiplied or divided is the hundredths.
        if cents.endToken - 1 > position, let (unit, last) = units.currency(in: text, at: cents.endToken - 1), unit.subunit, last == cents.endToken - 1 {
            let value = cents.kind == .fraction ? cents.value.double * 100 : cents.value.double / 100
            guard value.rounded() == value, value >= 0, value < 100 else { return nil }
            return (value, last)
        }
        guard cents.kind == .cardinal, cents.value.isInteger, cents.value.double < 100 else { return nil }
        if let (unit, last) = units.currency(in: text, at: cents.endToken) {
            return unit.subunit ? (cents.value.double, last) : nil
        }
        // A bare number after the amount ("15 dollars 50") is its hundredths from ten on: "1015 francs une" is not.
        // One after "et" / "y" / "und" only ends the amount ("15 dollars et 15."): in "323 millions d'euros et 30
        // degrés" it starts something else.
        if connected {
            if let next = text.token(cents.endToken), next.isWord || next.isDigits { return nil }
        } else if cents.value.double < 10 {
            return nil
        }
        return (cents.value.double, cents.endToken - 1)
    }
}

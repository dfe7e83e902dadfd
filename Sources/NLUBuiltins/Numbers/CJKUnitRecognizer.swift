/// Finds money and temperatures in Chinese or Japanese text with a language's ``CJKUnits``: an amount with its
/// currency after it ("15元", "1200亿美元", "1,280円"), before it ("$20", "￥300", "us$ 48.2 万") or both ("人民元八千元"),
/// with sub-units ("五元三毛" 5.3, "2222円13銭" 2222.13), and temperatures with their scale before ("华氏温度98.6度",
/// "摂氏 40度") or after ("20摄氏度", "20℃", "85度"), or a scale named alone ("摄氏度": the unit C without a value), and ages
/// and dimensions with their unit after ("29岁", "十个月大", "168公分", "一吨半", "75ミリリットル") or a speed's before
/// ("時速120キロメートル").
struct CJKUnitRecognizer: EntityRecognizer {
    let numerals: CJKNumerals
    let units: CJKUnits
    /// Signs and names before an amount, the signs first ("$20", then "人民币 8千元"), joined once.
    private let leads: [(currency: CJKUnits.Currency, isSign: Bool)]
    /// The characters a reading can start with (an amount's, a scale's, a sign's or a name's first, in either case);
    /// most of a text starts none.
    private let starts: ScalarSet

    init(numerals: CJKNumerals, units: CJKUnits) {
        self.numerals = numerals
        self.units = units
        leads = units.currencyPrefixes.map { ($0, true) } + units.leadingNames.map { ($0, false) }
        let words = units.temperaturePrefixes.map(\.0) + units.speedPrefixes.map(\.word) + leads.map(\.currency.word)
            + units.temperatureNames.map(\.0)
        let firsts = words.compactMap(\.first).flatMap { first in
            TokenizedText.isASCIILetter(first)
                ? [Unicode.Scalar(UInt8(first.value & 0xDF)), Unicode.Scalar(UInt8(first.value | 0x20))] : [first]
        }
        starts = ScalarSet(numerals.numberStarts + firsts)
    }

    var produces: Set<BuiltinEntityType> { [.currency, .temperature, .age, .dimension] }

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let reader = CJKNumberReader(scalars: text.scalars, numerals: numerals)
        var index = 0
        while index < reader.count {
            guard starts.contains(reader.scalars[index]) else {
                index += 1
                continue
            }
            if context.wants(.temperature), let (end, match) = prefixedTemperature(reader, at: index) {
                matches.append(EntityMatch(type: .temperature, start: index, end: end, resolution: match))
                index = end
                continue
            }
            if let (end, unit, value) = prefixedSpeed(reader, at: index) {
                if context.wants(.dimension) {
                    matches.append(EntityMatch(type: .dimension, start: index, end: end, resolution: .value(value.text, unit: unit)))
                }
                index = end
                continue
            }
            if context.wants(.currency), let (end, match) = prefixedMoney(reader, at: index) {
                matches.append(EntityMatch(type: .currency, start: index, end: end, resolution: match))
                index = end
                continue
            }
            if let (word, unit) = units.temperatureNames.first(where: { reader.match($0.0, at: index) != nil }) {
                if context.wants(.temperature) {
                    matches.append(EntityMatch(type: .temperature, start: index, end: index + word.count, resolution: .unit(unit)))
                }
                index += word.count
                continue
            }
            guard index == 0 || !isASCIIWordCharacter(reader.scalars[index - 1]),
                  case .number(let number)? = reader.number(at: index) else {
                index += 1
                continue
            }
            // "五六岁", "一两块": where numerals one after the other are no number, they are no amount either; only a
            // last "两" may be the liang ("二两").
            let isRun = reader.isNumeralRunOfNoValue(number)
            // "200ポンド" is money when money is asked for, else a weight.
            if !isRun, context.wants(.currency) || units.measures.isEmpty, let (end, resolution) = money(after: number, reader) {
                if context.wants(.currency) { matches.append(EntityMatch(type: .currency, start: index, end: end, resolution: resolution)) }
                index = end
            } else if !isRun, let (end, unit) = temperatureSuffix(after: number.end, reader) {
                if context.wants(.temperature) {
                    matches.append(EntityMatch(type: .temperature, start: index, end: end, resolution: .value(number.value.text, unit: unit)))
                }
                index = end
            } else if let (end, unit, value) = isRun ? numeralUnit(ending: number, reader) : measure(after: number, reader) {
                // "70 - 90天大", "75 -300ミリ": a minus spaced from its digits, or right after an amount, is a dash; the
                // amount starts after it.
                if reader.isSign(index), reader.isSpace(index + 1) || followsAmount(index, reader) {
                    index += 1
                    continue
                }
                if context.wants(unit.type) {
                    var match = EntityMatch(type: unit.type, start: index, end: end, resolution: .value(value.text, unit: unit.name))
                    match.yieldsOnEqualSpan = unit.alsoDuration
                    matches.append(match)
                }
                index = end
            } else {
                index = max(number.end, index + 1)
            }
        }
    }

    /// Whether digits end right before `index`, spaces aside.
    private func followsAmount(_ index: Int, _ reader: CJKNumberReader) -> Bool {
        var before = index - 1
        while reader.isSpace(before) { before -= 1 }
        return reader.digit(before) != nil
    }

    private func isASCIIWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        TokenizedText.isASCIILetter(scalar) || (scalar.value < 128 && CJKNumberReader.digitValue(scalar) != nil)
    }

    // MARK: - Temperatures

    /// "华氏温度98.6度", "摂氏 40度", "華氏 マイナス 5度", "華氏温度の51度": a scale, the amount, then "度".
    private func prefixedTemperature(_ reader: CJKNumberReader, at index: Int) -> (Int, BuiltinResolution)? {
        for (word, unit) in units.temperaturePrefixes {
            guard let afterScale = reader.match(word, at: index) else { continue }
            var start = reader.skipSpaces(afterScale)
            if let joined = reader.match(any: units.temperatureJoiners, at: start) { start = reader.skipSpaces(joined) }
            guard case .number(let number)? = reader.number(at: start),
                  let (end, _) = temperatureSuffix(after: number.end, reader) else { return nil }
            return (end, .value(number.value.text, unit: unit))
        }
        return nil
    }

    private func temperatureSuffix(after end: Int, _ reader: CJKNumberReader) -> (Int, String)? {
        let at = reader.skipSpaces(end)
        for (word, unit) in units.temperatureSuffixes {
            if let after = reader.match(word, at: at, spaced: true) { return (after, unit) }
        }
        return nil
    }

    // MARK: - Ages and dimensions

    /// The age or dimension unit after an amount ("29岁", "168公分", "168 cm", "十个月大"), a half after it ("一吨半"), with
    /// the end and the value.
    private func measure(after number: CJKNumber, _ reader: CJKNumberReader) -> (Int, UnitLexicon.Measure, NumberValue)? {
        var at = reader.skipSpaces(number.end)
        var value = number.value
        // "12千米", "五十兆字节": a multiplier the number took is the first character of its unit.
        if number.end >= 2, let factor = units.unitPrefixNumerals[reader.scalars[number.end - 1]],
           reader.digit(number.end - 2) != nil || reader.numeral(at: number.end - 2) != nil,
           units.measures.contains(where: { $0.word.first == reader.scalars[number.end - 1] && reader.match($0.word, at: number.end - 1) != nil }),
           let unscaled = value / .integer(factor) {
            at = number.end - 1
            value = unscaled
        }
        guard let (word, unit) = units.measures.first(where: { matchIgnoringCase($0.word, reader, at: at) != nil }) else {
            return numeralUnit(ending: number, reader)
        }
        var end = at + word.count
        // A unit of Latin letters glued to more letters ("5 cmd") is no unit.
        if word.last.map({ $0.value < 128 }) == true, end < reader.count, reader.isASCIILetter(end) { return nil }
        if unit.type == .dimension, let half = units.half, let afterHalf = reader.match(half, at: end) {
            value = value + .real(0.5)
            end = afterHalf
        }
        return (end, unit, value)
    }

    /// "三十两" 30 Liang, "两万两" 20000 Liang: an amount whose last numeral is a unit's (``CJKUnits/numeralUnit``), read
    /// again without it; not before a counter ("十两个" is twelve of something), nor after a lone numeral next to its
    /// own value ("一两天", "三两个": one or two days, two or three).
    private func numeralUnit(ending number: CJKNumber, _ reader: CJKNumberReader) -> (Int, UnitLexicon.Measure, NumberValue)? {
        let last = number.end - 1
        guard let scalar = units.numeralUnit, last > number.start, reader.scalars[last] == scalar,
              reader.match(any: units.counters, at: number.end) == nil,
              let unit = units.measures.first(where: { $0.word == [scalar] })?.unit else { return nil }
        if last == number.start + 1, let lone = numerals.digits[reader.scalars[number.start]], let own = numerals.digits[scalar],
           abs(lone - own) == 1 { return nil }
        // The amount alone, read as the number reader reads it where nothing follows ("三千两百" 3200).
        let amount = CJKNumberReader(scalars: Array(reader.scalars[number.start..<last]), numerals: numerals)
        guard case .number(let before)? = amount.number(at: 0), before.end == amount.count else { return nil }
        return (number.end, unit, before.value)
    }

    /// "时速120公里", "時速188マイル", "毎秒23メートル": a speed said as a length per hour or second.
    private func prefixedSpeed(_ reader: CJKNumberReader, at index: Int) -> (Int, String, NumberValue)? {
        for (word, per) in units.speedPrefixes {
            guard let afterPrefix = reader.match(word, at: index),
                  case .number(let number)? = reader.number(at: reader.skipSpaces(afterPrefix)),
                  let (end, unit, value) = measure(after: number, reader), unit.type == .dimension else { continue }
            return (end, "\(unit.name) per \(per)", value)
        }
        return nil
    }

    // MARK: - Money

    /// "$20", "￥300", "€ 1.5", "us$ 48.2 万", "人民币 8千元": a sign or name, then the amount (and a unit word that
    /// repeats the currency).
    private func prefixedMoney(_ reader: CJKNumberReader, at index: Int) -> (Int, BuiltinResolution)? {
        for (currency, isSign) in leads {
            guard let afterSign = matchIgnoringCase(currency.word, reader, at: index),
                  case .number(let number)? = reader.number(at: reader.skipSpaces(afterSign)) else { continue }
            // A sign glued to the end of a word is no sign of this amount ("abc$5").
            if index > 0, isASCIIWordCharacter(reader.scalars[index - 1]), currency.word.first?.value ?? 0 < 128 { continue }
            if let (end, resolution) = money(after: number, reader) { return (end, resolution) }
            guard isSign else { continue }
            return (number.end, .value(number.value.text, unit: currency.unit, isoCurrency: currency.isoCurrency))
        }
        return nil
    }

    private func matchIgnoringCase(_ word: [Unicode.Scalar], _ reader: CJKNumberReader, at index: Int) -> Int? {
        var position = index
        for scalar in word {
            guard position < reader.count else { return nil }
            let here = reader.scalars[position]
            guard here == scalar || (TokenizedText.isASCIILetter(here) && here.value | 0x20 == scalar.value | 0x20)
            else { return nil }
            position += 1
        }
        return position
    }

    /// The currency after an amount, and its sub-units: "15元", "20个比特币", "五元三毛", "2ドル3セント", "8亿元人民币".
    private func money(after number: CJKNumber, _ reader: CJKNumberReader) -> (Int, BuiltinResolution)? {
        var at = reader.skipSpaces(number.end)
        if let counted = reader.match(any: units.counters, at: at) { at = counted }
        guard let currency = units.currencies.first(where: { reader.match($0.word, at: at) != nil }) else { return nil }
        var end = at + currency.word.count
        var value = number.value
        // Sub-units: "五元三毛", "50元6角三分", "两美元又三美分", "545ドルと5セント", "100ユーロと30".
        var position = end
        var joined = false
        if let afterJoiner = reader.match(any: units.subunitJoiners, at: position) {
            position = afterJoiner
            joined = true
        }
        var readSubunit = false
        while case .number(let amount)? = reader.number(at: position), amount.value.double >= 0 {
            guard let subunit = units.subunits.first(where: { reader.match($0.word, at: amount.end) != nil }),
                  let part = amount.value / .integer(subunit.perUnit) else {
                if joined, !readSubunit, units.bareSubunitAfterJoiner, amount.isDecimal == false, let part = amount.value / .integer(100) {
                    value = value + part
                    end = amount.end
                }
                break
            }
            value = value + part
            position = amount.end + subunit.word.count
            end = position
            readSubunit = true
        }
        if let trailing = reader.match(any: units.trailingNames, at: end) { end = trailing }
        return (end, .value(CJKNumberReader.exact(value).text, unit: currency.unit, isoCurrency: currency.isoCurrency))
    }
}

/// Finds numbers, ordinals and percentages in Chinese or Japanese text, where nothing separates them from the
/// words around them: "小明有十个手指头" (10), "第三" (the third), "3番目", "百分之五十" (50 %), "５０％", "五成",
/// "5割", "九折" (a discount to 90 %). Offsets are Unicode scalars, as everywhere in NLUKit; values use the
/// decimal point, as Recognizers-Text's Chinese and Japanese specs write them.
///
/// Every reading is offered as a candidate of its kind ("六个百分点" is the percentage 6 and the number 6 in it,
/// "第三" the ordinal and the number), and ``BuiltinRecognizer`` keeps the longest of the kinds asked for.
struct CJKNumberRecognizer: EntityRecognizer {
    let numerals: CJKNumerals
    /// The words of ``CJKNumerals/blockedWords`` by their first character, and the characters that are a numeral
    /// (a digit or a unit), built once rather than at every text.
    private let blockedWordsByFirst: ScalarMap<[[Unicode.Scalar]]>
    private let numeralCharacters: ScalarSet
    /// The characters a reading can start with (a number's, a word's first); most of a text starts none.
    private let starts: ScalarSet

    init(numerals: CJKNumerals) {
        self.numerals = numerals
        blockedWordsByFirst = ScalarMap(Dictionary(grouping: numerals.blockedWords.filter { !$0.isEmpty }, by: { $0[0] }).map { ($0.key, $0.value) })
        numeralCharacters = ScalarSet(numerals.digits.keys + numerals.smallUnits.keys + numerals.bigUnits.keys)
        var words = numerals.percentWords.map(\.0) + numerals.ordinalWords.map(\.0) + numerals.ordinalPrefixes
            + numerals.halfDiscountWords
        if let relatives = numerals.relativeOrdinals { words += relatives.words.map(\.0) + [relatives.fromEnd] }
        starts = ScalarSet(numerals.numberStarts + numerals.bigUnits.keys + words.compactMap(\.first))
    }

    var produces: Set<BuiltinEntityType> { [.number, .ordinal, .percentage] }

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let reader = CJKNumberReader(scalars: text.scalars, numerals: numerals)
        let blocked = blockedPositions(reader)
        var index = 0
        while index < reader.count {
            if !starts.contains(reader.scalars[index]) || blocked[index] || !canStart(reader, at: index) {
                index += 1
                continue
            }
            if let (word, value) = numerals.percentWords.first(where: { reader.match($0.0, at: index) != nil }) {
                matches.append(EntityMatch(type: .percentage, start: index, end: index + word.count, resolution: .value(value)))
                index += word.count
                continue
            }
            if let (end, value) = relativeOrdinal(reader, at: index) ?? ordinalWord(reader, at: index) {
                matches.append(EntityMatch(type: .ordinal, start: index, end: end, resolution: .value(value)))
                index = end
                continue
            }
            if let (end, numeratorStart, percent, fraction) = barePercentage(reader, at: index) {
                matches.append(EntityMatch(type: .percentage, start: index, end: end, resolution: .value(percent.text)))
                if let fraction {
                    matches.append(EntityMatch(type: .number, start: index, end: end, resolution: .value(fraction.text)))
                }
                // The number after "百分之" is a number of its own where only numbers are asked for.
                index = numeratorStart
                continue
            }
            if let (end, percent) = discountWithoutNumber(reader, at: index) ?? discountOfTwoDigits(reader, at: index) {
                matches.append(EntityMatch(type: .percentage, start: index, end: end, resolution: .value(percent.text)))
                index = end
                continue
            }
            if let prefixEnd = reader.match(any: numerals.ordinalPrefixes, at: index),
               case .number(let number)? = reader.numeral(at: prefixEnd) {
                matches.append(EntityMatch(type: .ordinal, start: index, end: number.end, resolution: .value(number.value.text)))
                index = prefixEnd
                continue
            }
            guard let reading = reader.number(at: index) else {
                index += 1
                continue
            }
            guard case .number(let number) = reading else {
                if case .skip(let end) = reading { index = max(end, index + 1) }
                continue
            }
            // A run of numerals ("五六", "一两") where the language reads none as a number: only what follows ("七五折")
            // makes it something.
            let isRun = reader.isNumeralRunOfNoValue(number)
            if !isRun, reader.match(any: numerals.cancellingSuffixes, at: reader.skipSpaces(number.end)) == nil {
                matches.append(EntityMatch(type: .number, start: number.start, end: number.end, resolution: .value(number.value.text)))
            }
            var next = number.end
            if let (end, percent) = percentage(after: number, reader) {
                matches.append(EntityMatch(type: .percentage, start: number.start, end: end, resolution: .value(percent.text)))
                next = end
            } else if number.isFraction, let percent = perHundred(number, reader) {
                matches.append(EntityMatch(type: .percentage, start: number.start, end: number.end, resolution: .value(percent.text)))
            } else if !number.isFraction, !isRun, let end = reader.match(any: numerals.ordinalSuffixes, at: number.end) {
                matches.append(EntityMatch(type: .ordinal, start: number.start, end: end, resolution: .value(number.value.text)))
                next = end
            }
            index = max(next, index + 1)
        }
    }

    /// A number does not begin inside a word or a number written in ASCII ("abc123"), right after another numeral
    /// ("五十千" is fifty: its "千" is no thousand), after a URL's "%" escape ("%2D9114") or a range's "~".
    private func canStart(_ reader: CJKNumberReader, at index: Int) -> Bool {
        guard index > 0 else { return true }
        let previous = reader.scalars[index - 1]
        if TokenizedText.isASCIILetter(previous) || CJKNumberReader.digitValue(previous) != nil
            || numeralCharacters.contains(previous) { return false }
        return !Self.noStartAfter.contains(previous)
    }

    private static let noStartAfter: ScalarSet = ["%", "％", "~", "～"]

    /// The positions inside words that hold a numeral and are no number ("四川", "一切", "收拾").
    private func blockedPositions(_ reader: CJKNumberReader) -> [Bool] {
        var blocked = [Bool](repeating: false, count: reader.count)
        for index in 0..<reader.count {
            guard let words = blockedWordsByFirst[reader.scalars[index]] else { continue }
            for word in words {
                if let end = reader.match(word, at: index) {
                    for position in index..<end { blocked[position] = true }
                }
            }
        }
        return blocked
    }

    // MARK: - Ordinals

    /// "最後" end+0, "次のもの" current+1, "最後から三番目" end-2, "最後から一つ前" end-1.
    private func relativeOrdinal(_ reader: CJKNumberReader, at index: Int) -> (Int, String)? {
        guard let relatives = numerals.relativeOrdinals else { return nil }
        var found: (Int, String)?
        if let afterFromEnd = reader.match(relatives.fromEnd, at: index),
           case .number(let number)? = reader.numeral(at: afterFromEnd), let count = number.value.integer {
            for (ending, taken) in relatives.countedEndings {
                // "最後から1番目" is the last one itself: end+0, as LUIS writes it.
                if let end = reader.match(ending, at: number.end), count >= taken {
                    found = (end, count == taken ? "end+0" : "end-\(count - taken)")
                    break
                }
            }
        }
        if found == nil {
            for (word, value) in relatives.words {
                guard let end = reader.match(word, at: index) else { continue }
                if word.count == 1, relatives.standAlone.contains(word[0]) {
                    let before = index > 0 && CJKNumerals.isIdeograph(reader.scalars[index - 1])
                    let after = end < reader.count && CJKNumerals.isIdeograph(reader.scalars[end])
                    if before || after || reader.match(any: relatives.notBefore, at: end) != nil { continue }
                }
                found = (end, value)
                break
            }
        }
        guard let (end, value) = found else { return nil }
        return (reader.match(any: relatives.extensions, at: end) ?? end, value)
    }

    /// "最初" 1, "ファースト" 1.
    private func ordinalWord(_ reader: CJKNumberReader, at index: Int) -> (Int, String)? {
        for (word, value) in numerals.ordinalWords {
            if let end = reader.match(word, at: index) { return (end, value) }
        }
        return nil
    }

    // MARK: - Percentages

    /// "百分之五十" 50 %, "千分之一" 0.1 %, "百 分 之2.4", "百万分之五" 0.0005 %: a per-hundred (per-thousand…) with no
    /// number before it; with the fraction it also is in a language that reads it so ("百分の一" 0.01).
    private func barePercentage(_ reader: CJKNumberReader, at index: Int)
        -> (end: Int, numeratorStart: Int, percent: NumberValue, fraction: NumberValue?)? {
        var position = index
        var denominator: Int64 = 1
        var units = 0
        while units < 3, position < reader.count {
            let scalar = reader.scalars[position]
            // "百万万分之七": at most three units, each at most 1e8, their product kept inside Int64 ("亿亿亿" stops).
            guard let unit = numerals.smallUnits[scalar].flatMap({ $0 >= 100 ? $0 : nil }) ?? numerals.bigUnits[scalar],
                  unit <= 100_000_000, case let (product, overflow) = denominator.multipliedReportingOverflow(by: unit),
                  !overflow, product <= 1_000_000_000_000 else { break }
            denominator = product
            units += 1
            position = reader.skipSpaces(position + 1)
        }
        guard units > 0, index == 0 || numerals.digits[reader.scalars[index - 1]] == nil, reader.digit(index - 1) == nil,
              let joined = reader.match(any: numerals.fractionJoiners, at: position, spaced: true) else { return nil }
        let numeratorStart = reader.skipSpaces(joined)
        guard case .number(let numerator)? = reader.number(at: numeratorStart), !numerator.isFraction,
              let percent = numerator.value * .integer(100) / .integer(denominator),
              let fraction = numerator.value / .integer(denominator) else { return nil }
        return (numerator.end, numeratorStart, CJKNumberReader.exact(percent),
                numerals.barePercentIsAlsoFraction ? CJKNumberReader.exact(fraction) : nil)
    }

    /// The percentage a number begins: "50%", "六个百分点", "20パーセント", "五成", "七成 六" 76, "三成半" 35, "5割",
    /// "3割8分7厘" 38.7, "九折" 90, "七五折" 75, "9.9折" 99.
    private func percentage(after number: CJKNumber, _ reader: CJKNumberReader) -> (Int, NumberValue)? {
        guard !number.isFraction else { return nil }
        let at = reader.skipSpaces(number.end)
        if let end = reader.match(any: numerals.percentSuffixes, at: at, spaced: true) {
            // "30%25": a URL's escape, not thirty percent.
            let isEscape = reader.scalars[at] == "%" && end + 1 < reader.count
                && reader.scalars[end].properties.isASCIIHexDigit && reader.scalars[end + 1].properties.isASCIIHexDigit
            return isEscape ? nil : (end, number.value)
        }
        guard at < reader.count else { return nil }
        if numerals.tenthWords.contains(reader.scalars[at]) {
            var value = number.value * .integer(10)
            var end = at + 1
            let next = reader.skipSpaces(end)
            if next < reader.count, reader.scalars[next] == numerals.half {
                value = value + .integer(5)
                end = next + 1
            } else if let hundredth = numerals.hundredthWord, case .number(let hundredths)? = reader.numeral(at: end),
                      hundredths.end < reader.count, reader.scalars[hundredths.end] == hundredth {
                value = value + hundredths.value
                end = hundredths.end + 1
                if let thousandth = numerals.thousandthWord, case .number(let thousandths)? = reader.numeral(at: end),
                   thousandths.end < reader.count, reader.scalars[thousandths.end] == thousandth,
                   let tenths = thousandths.value / .integer(10) {
                    value = value + tenths
                    end = thousandths.end + 1
                }
            } else if next < reader.count, numerals.hundredthWord == nil, let digit = numerals.digits[reader.scalars[next]],
                      reader.numeral(at: next).map({ if case .number(let n) = $0 { n.end == next + 1 } else { false } }) == true {
                // "七成 六": a digit after the tenths is the units.
                value = value + .integer(Int64(digit))
                end = next + 1
            }
            end = reader.match(any: numerals.tenthTails, at: end) ?? end
            return (end, CJKNumberReader.exact(value))
        }
        if let discount = numerals.discountWord, reader.scalars[at] == discount {
            let value = number.value
            if number.isDecimal, value.double > 0, value.double < 10 { return (at + 1, CJKNumberReader.exact(value * .integer(10))) }
            guard let whole = value.integer else { return nil }
            if number.digitRun == 1, (1...9).contains(whole) { return (at + 1, .integer(Int64(whole) * 10)) }
            if number.digitRun == 2, (10...99).contains(whole) { return (at + 1, value) }
        }
        return nil
    }

    /// "120.5/100", "2/100": a number over a hundred written with a slash is also a percentage.
    private func perHundred(_ number: CJKNumber, _ reader: CJKNumberReader) -> NumberValue? {
        guard number.end >= 4, reader.scalars[number.end - 4] == "/" || reader.scalars[number.end - 4] == "／",
              reader.digit(number.end - 3) == 1, reader.digit(number.end - 2) == 0, reader.digit(number.end - 1) == 0,
              reader.digit(number.end - 5) != nil else { return nil }
        return CJKNumberReader.exact(number.value * .integer(100))
    }

    /// "半折" 50 %, "半成" 5 %, "打对折" 50 % (the discount without the lead: "对折" alone is folding in two).
    private func discountWithoutNumber(_ reader: CJKNumberReader, at index: Int) -> (Int, NumberValue)? {
        if reader.scalars[index] == numerals.half, index + 1 < reader.count {
            let next = reader.scalars[index + 1]
            if next == numerals.discountWord { return (index + 2, .integer(50)) }
            if numerals.tenthWords.contains(next), numerals.hundredthWord == nil { return (index + 2, .integer(5)) }
        }
        if let lead = numerals.halfDiscountLead, index > 0, reader.scalars[index - 1] == lead,
           let end = reader.match(any: numerals.halfDiscountWords, at: index) {
            return (end, .integer(50))
        }
        return nil
    }

    /// "7 2 折", "九 九 折": two digits said one by one before a discount.
    private func discountOfTwoDigits(_ reader: CJKNumberReader, at index: Int) -> (Int, NumberValue)? {
        guard let discount = numerals.discountWord else { return nil }
        func singleDigit(_ position: Int) -> Int? {
            guard position < reader.count, reader.isSpace(position + 1) else { return nil }
            return reader.digit(position) ?? numerals.digits[reader.scalars[position]]
        }
        guard let tens = singleDigit(index), tens > 0 else { return nil }
        let second = reader.skipSpaces(index + 1)
        guard let units = singleDigit(second) else { return nil }
        let word = reader.skipSpaces(second + 1)
        guard word < reader.count, reader.scalars[word] == discount else { return nil }
        return (word + 1, .integer(Int64(tens * 10 + units)))
    }
}

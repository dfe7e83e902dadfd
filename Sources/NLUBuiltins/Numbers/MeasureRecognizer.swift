/// Finds ages and dimensions from a language's ``UnitLexicon``: "five years old", "age 87", "29 ans", "5 Jahre alt",
/// "6-jarige leeftijd", "3-inch", "10 1/2 miles", "660 square meters", "1,5 million de gallons", "10km/hr", "20 (kg)",
/// "100 MB". The value is the amount in the unit named, as Recognizers-Text's AgeModel and DimensionModel specs name
/// it in the language ("Year", "Ans", "Square meter", "Kilomètres"); a unit said without an amount ("a **metric
/// ton** is…") is reported with its unit and no value where the specs do so.
///
/// Like money, a unit takes its amount in: the number inside "5 kg" is not reported apart. An age said with a
/// time word alone ("29 ans") reads the same as a duration, and yields to it on the same span.
struct MeasureRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.age, .dimension] }
    let units: UnitLexicon
    /// The number words of a language other than English, for scales said after a decimal ("2,4 milliards").
    let numbers: NumberLexicon?

    /// Brackets a unit may be written in after its amount: "20 (kg)", "20 [kg]".
    private static let closing: [String: String] = ["(": ")", "[": "]", "{": "}", "<": ">"]

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let starts = NumberRecognizer()
        var index = 0
        while index < text.count {
            // A unit written first: "age 87".
            if let (unit, unitLast) = units.measure(in: text, at: index), unit.prefix, context.wants(unit.type),
               text.token(unitLast + 1)?.spaceBefore == true, let number = amount(text, context, at: unitLast + 1) {
                append(unit, number.value, text, first: index, last: number.endToken - 1, context: context, into: &matches)
                index = number.endToken
                continue
            }
            // "media vuelta": a half said as a word.
            if let half = half(text, at: index), context.wants(half.unit.type) {
                append(half.unit, .real(0.5), text, first: index, last: half.last, context: context, into: &matches)
                index = half.last + 1
                continue
            }
            guard starts.startsNumber(text, at: index), !followsClock(text, index), !followsCode(text, index),
                  let number = amount(text, context, at: index) else {
                guard !text.touchesPrevious(index), let (unit, last) = units.measure(in: text, at: index), !unit.prefix,
                      context.wants(unit.type), !gluedOn(text, after: last) else {
                    index += 1
                    continue
                }
                // "een metrische ton", "Een ha": an article that the number reader leaves alone (Dutch "een") says one.
                if text[index].text.count > 1 || last > index, !unit.ambiguous, let article = text.word(index - 1),
                   numbers?.morphemes[NumberLexicon.fold(article)] == .value(1),
                   !text.touchesPrevious(index - 1) || index == 1 {
                    append(unit, .integer(1), text, first: index - 1, last: last, context: context, into: &matches)
                } else if unit.bare {
                    // "metric ton", "mcg": a unit said alone, where the specs report one.
                    matches.append(EntityMatch(type: unit.type, tokens: text, first: index, last: last, resolution: .unit(unit.name)))
                }
                index = last + 1
                continue
            }
            // "40 - 50 years old": a minus spaced from its digits is a dash, the amount starts after it.
            if text[number.firstToken].isSymbol("-"), text.token(number.firstToken + 1)?.spaceBefore == true {
                index += 1
                continue
            }
            if let (length, last) = twoPartLength(text, context, number: number), context.wants(.dimension) {
                matches.append(EntityMatch(type: .dimension, tokens: text, first: number.firstToken, last: last, resolution: length))
                index = last + 1
                continue
            }
            let (value, numberLast) = units.scaled(number.value, text, after: number.endToken - 1, numbers: numbers)
            guard let (unit, last) = unit(text, after: numberLast), context.wants(unit.type),
                  // "Une t", "dois um": a unit of one letter, or an ambiguous one, takes digits, not number words.
                  !(number.spelled && (unit.ambiguous || last == numberLast + 1 && text[last].text.count == 1 && text[last].isWord)),
                  !unit.ambiguous || ambiguousUnitFits(text, number: number, unitAfter: numberLast),
                  !unit.angle || nearAngle(text, before: number.firstToken, after: last) else {
                index = number.endToken
                continue
            }
            var match = EntityMatch(type: unit.type, tokens: text, first: number.firstToken, last: last,
                                    resolution: .value(context.valueText(value), unit: unit.name))
            match.yieldsOnEqualSpan = unit.alsoDuration
            matches.append(match)
            index = last + 1
        }
    }

    private func append(_ unit: UnitLexicon.Measure, _ value: NumberValue, _ text: TokenizedText, first: Int, last: Int,
                        context: RecognitionContext, into matches: inout [EntityMatch]) {
        matches.append(EntityMatch(type: unit.type, tokens: text, first: first, last: last,
                                   resolution: .value(context.valueText(value), unit: unit.name)))
    }

    /// A word of ``UnitLexicon/halves`` at `index` and the unit of dimension after it ("media vuelta"), with its last token.
    private func half(_ text: TokenizedText, at index: Int) -> (unit: UnitLexicon.Measure, last: Int)? {
        guard !units.halves.isEmpty, let word = text.word(index), units.halves.contains(NumberLexicon.fold(word)),
              let (unit, last) = unit(text, after: index), unit.type == .dimension, !unit.ambiguous, !unit.angle else { return nil }
        return (unit, last)
    }

    /// A length said in two units from `number` on (``UnitLexicon/twoPartLengths``): "5 ft 2 in", "5 feet and 2 inches",
    /// "6'2\""; as one amount of the larger unit, with the last token. The smaller part is less than one of the larger.
    private func twoPartLength(_ text: TokenizedText, _ context: RecognitionContext, number: NumberMatch) -> (BuiltinResolution, Int)? {
        guard !units.twoPartLengths.isEmpty else { return nil }
        let numberLast = number.endToken - 1
        let part: UnitLexicon.TwoPartLength
        let smallerStart: Int
        var marked = false
        if let mark = text.token(numberLast + 1), mark.kind == .symbol, !mark.spaceBefore,
           let withMark = units.twoPartLengths.first(where: { $0.largerMarks.contains(mark.text) }) {
            // "6'2\"": digits glued between the two marks.
            guard text.token(numberLast + 2)?.isDigits == true, text[numberLast + 2].spaceBefore == false else { return nil }
            part = withMark
            smallerStart = numberLast + 2
            marked = true
        } else if let (unit, last) = unit(text, after: numberLast), let named = units.twoPartLengths.first(where: { $0.larger == unit.name }) {
            part = named
            var start = last + 1
            if let joiner = text.word(start), units.twoPartJoiners.contains(NumberLexicon.fold(joiner)) { start += 1 }
            smallerStart = start
        } else {
            return nil
        }
        guard let smaller = amount(text, context, at: smallerStart), smaller.kind == .cardinal,
              smaller.value.double >= 0, smaller.value.double < Double(part.perLarger) else { return nil }
        let smallerLast = smaller.endToken - 1
        let last: Int
        if marked {
            guard let mark = text.token(smallerLast + 1), !mark.spaceBefore, part.smallerMarks.contains(mark.text) else { return nil }
            last = smallerLast + 1
        } else {
            // The smaller unit counts even where it is ambiguous alone ("2 in"): after the larger it can be nothing else.
            guard let (unit, unitLast) = units.measure(in: text, at: smallerLast + 1), unit.name == part.smaller,
                  !gluedOn(text, after: unitLast) else { return nil }
            last = unitLast
        }
        let length = number.value.double + smaller.value.double / Double(part.perLarger)
        // The specs write the sum at full precision ("5.166666666666667"), not with 15 digits as other amounts: the
        // shortest text that reads back as the same double.
        let value: NumberValue = length.rounded() == length && abs(length) < 1e15 ? .integer(Int64(length)) : .literal("\(length)")
        return (.value(context.valueText(value), unit: part.larger), last)
    }

    /// A cardinal amount at `index` (a fraction too: "1/4 mile"), digits glued to their unit included ("75ml", "7,62mm").
    private func amount(_ text: TokenizedText, _ context: RecognitionContext, at index: Int) -> NumberMatch? {
        let decimalMark = context.language == .english ? "." : ","
        if let number = context.reader.parse(at: index) {
            // "7.62mm": the number reader takes a glued "mm" for millions; before a unit it is the unit.
            let last = number.endToken - 1
            if last > index, text[last].isWord, !text[last].spaceBefore, units.measure(in: text, at: last) != nil {
                return digitsBeforeGluedWord(text, at: index, decimalMark: decimalMark)
            }
            if decimalMark != ".", last == index, let pointed = pointedDecimal(text, at: index) { return pointed }
            return number.kind == .ordinal ? nil : number
        }
        if context.language == .english { return context.numbers.parseBeforeGluedWord(at: index) }
        return digitsBeforeGluedWord(text, at: index, decimalMark: decimalMark) ?? pointedDecimal(text, at: index)
    }

    /// "0.8rad" in French: a decimal point, which the language reads as a thousands mark, glued between digits and a
    /// unit (three digits after it stay thousands: "1.000kg").
    private func pointedDecimal(_ text: TokenizedText, at index: Int) -> NumberMatch? {
        guard text.token(index + 2).map({ $0.text.count != 3 }) == true,
              let pointed = digitsBeforeGluedWord(text, at: index, decimalMark: "."), pointed.endToken == index + 3,
              units.measure(in: text, at: pointed.endToken) != nil else { return nil }
        return pointed
    }

    /// "75ml", "7,62mm", "0,8rad": digits, with a decimal mark, glued to a word, which the language's number reader
    /// leaves alone (or takes for a multiplier: "mm" millions).
    private func digitsBeforeGluedWord(_ text: TokenizedText, at index: Int, decimalMark: String) -> NumberMatch? {
        guard let first = text.token(index), first.isDigits else { return nil }
        var end = index + 1
        var digits = first.text
        if let comma = text.token(end), comma.isSymbol(decimalMark), !comma.spaceBefore, let decimals = text.token(end + 1), decimals.isDigits,
           !decimals.spaceBefore {
            digits += "." + decimals.text
            end += 2
        }
        guard let word = text.token(end), word.isWord, !word.spaceBefore else { return nil }
        let value: NumberValue
        if end == index + 1 {
            value = NumberValue(digits: Substring(digits))
        } else if let real = Double(digits) {
            value = .real(real)
        } else {
            return nil
        }
        return NumberMatch(value: value, firstToken: index, endToken: end, kind: .cardinal, spelled: false)
    }

    /// The unit after an amount's last token: right after it, after a glued hyphen ("six-mile", "2,5-km"), in
    /// brackets ("20 (kg)"), or after a connector ("1/4 de milla", "1,5 million de gallons"); with its last token.
    private func unit(_ text: TokenizedText, after numberLast: Int) -> (UnitLexicon.Measure, Int)? {
        var start = numberLast + 1
        if let hyphen = text.token(start), hyphen.isSymbol("-"), !hyphen.spaceBefore, text.token(start + 1)?.spaceBefore == false {
            start += 1
        }
        guard let first = text.token(start) else { return nil }
        if first.kind == .symbol, let close = Self.closing[first.text], text.token(start + 1)?.spaceBefore == false,
           let (unit, last) = units.measure(in: text, at: start + 1), let after = text.token(last + 1), after.isSymbol(close),
           !after.spaceBefore {
            return (unit, last + 1)
        }
        var found = units.measure(in: text, at: start)
        if found == nil, first.isWord, units.unitConnectors.contains(NumberLexicon.fold(first.text)) {
            found = units.measure(in: text, at: start + 1)
        }
        guard let (unit, last) = found, !unit.prefix, !gluedOn(text, after: last) else { return nil }
        return (unit, last)
    }

    /// Whether letters or digits are glued to the end of a unit ("m212", "L-202"): then it was no unit.
    private func gluedOn(_ text: TokenizedText, after last: Int) -> Bool {
        guard let next = text.token(last + 1), !next.spaceBefore else { return false }
        if next.isWord || next.isDigits { return true }
        if next.isSymbol("-"), let after = text.token(last + 2), !after.spaceBefore, after.isDigits { return true }
        return false
    }

    /// An ambiguous unit ("in", "pm") counts spaced from its amount and not after a word that makes it something else.
    private func ambiguousUnitFits(_ text: TokenizedText, number: NumberMatch, unitAfter numberLast: Int) -> Bool {
        guard text.token(numberLast + 1)?.spaceBefore == true else { return false }
        if let lead = text.word(number.firstToken - 1), units.ambiguityLeads.contains(lead) { return false }
        return true
    }

    /// Whether a word of turning ("rotate", "angle", "drehen") is among the four tokens before `first` or the two after
    /// `last`.
    private func nearAngle(_ text: TokenizedText, before first: Int, after last: Int) -> Bool {
        (max(0, first - 4)..<min(text.count, last + 3)).contains { position in
            (position < first || position > last) && text.word(position).map { units.angleWords.contains(NumberLexicon.fold($0)) } == true
        }
    }

    /// Digits after a hyphen glued to a word are a code's ("scp-173m", "scp2-173m"), not an amount; after digits that
    /// stand alone, the end of a range ("75-300mm": 300 Millimeter).
    private func followsCode(_ text: TokenizedText, _ index: Int) -> Bool {
        guard let hyphen = text.token(index - 1), hyphen.isSymbol("-"), !text[index].spaceBefore, !hyphen.spaceBefore,
              let before = text.token(index - 2) else { return false }
        return before.isWord || before.isDigits && text.touchesPrevious(index - 2)
    }

    /// Digits right after a glued ":" are the minutes of a clock time ("2:00 pm"), after a glued "." or "," the decimals
    /// of a number not read as one ("0.8rad" in French): not an amount.
    private func followsClock(_ text: TokenizedText, _ index: Int) -> Bool {
        guard let mark = text.token(index - 1), mark.isSymbol(":") || mark.isSymbol(".") || mark.isSymbol(","),
              !text[index].spaceBefore else { return false }
        return text.token(index - 2)?.isDigits == true && !mark.spaceBefore
    }
}

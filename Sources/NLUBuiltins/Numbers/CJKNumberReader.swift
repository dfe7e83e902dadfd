import Foundation

/// A number read from Chinese or Japanese text: its span in Unicode scalars (end exclusive), its value, and how it
/// was written, which the words after it read ("五五折" is 55 %, "五十折" nothing).
struct CJKNumber: Sendable {
    var start: Int
    var end: Int
    var value: NumberValue
    /// Single digits written one after the other without units ("五五", "75"): their count; 0 when written otherwise.
    var digitRun = 0
    /// Whether it holds a decimal point ("9.9", "三点一").
    var isDecimal = false
    /// Whether it is a fraction ("三分之一", "3/5"), which no suffix turns into another kind.
    var isFraction = false
}

/// What reading a number at a position gives: a number, or a stretch to pass over whole ("二三十" is an
/// approximation, "twenty or thirty": none of its numerals is a number of its own).
enum CJKReading: Sendable {
    case number(CJKNumber)
    case skip(to: Int)
}

/// Reads numbers at Unicode-scalar positions of a text written without spaces, with one language's
/// ``CJKNumerals``: ASCII and fullwidth digits with their separators, decimals, exponents and powers ("1,234",
/// "２．５", "2e5", "2^5"), numerals in characters with units ("两千四百五", "四億五千六百四十二万零一十五"), both mixed
/// ("5万4千6百", "1,100.9亿"), signs, fractions ("三分之一", "3分の1", "一又二分之一") and dozens ("五十打"). Every read
/// looks a bounded distance ahead (a number's own length, and a few words after it), so a text is read in linear time.
struct CJKNumberReader {
    let scalars: [Unicode.Scalar]
    let numerals: CJKNumerals

    var count: Int { scalars.count }

    // MARK: - Characters

    static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        let value = scalar.value
        if value >= 0x30, value <= 0x39 { return Int(value - 0x30) }
        if value >= 0xFF10, value <= 0xFF19 { return Int(value - 0xFF10) }
        return nil
    }

    func digit(_ index: Int) -> Int? { index >= 0 && index < count ? Self.digitValue(scalars[index]) : nil }

    /// Whether `number` is numerals one after the other without units ("五六", "一两") in a language that reads
    /// such a run as no number (``CJKNumerals/numeralRunsAreNumbers``): only a word after it makes it something.
    func isNumeralRunOfNoValue(_ number: CJKNumber) -> Bool {
        !numerals.numeralRunsAreNumbers && number.digitRun >= 2 && digit(number.end - 1) == nil
    }

    func isDot(_ index: Int) -> Bool { index >= 0 && index < count && (scalars[index] == "." || scalars[index] == "．") }

    func isSpace(_ index: Int) -> Bool { index >= 0 && index < count && scalars[index] == " " }

    /// The first position at or after `index` that is not an ASCII space (the specs allow them inside numerals:
    /// "一百 五 十 二", "7 万5 千4 百").
    func skipSpaces(_ index: Int) -> Int {
        var position = index
        while isSpace(position) { position += 1 }
        return position
    }

    func isSign(_ index: Int) -> Bool {
        guard index >= 0, index < count else { return false }
        let scalar = scalars[index]
        return scalar == "-" || scalar == "－" || scalar == "−"
    }

    func isASCIILetter(_ index: Int) -> Bool {
        index >= 0 && index < count && TokenizedText.isASCIILetter(scalars[index])
    }

    /// The end of `word` written at `index`, or nil. With `spaced`, spaces may stand between its characters
    /// ("百 分 之", "个 百 分点", "パ ーセ ント").
    func match(_ word: [Unicode.Scalar], at index: Int, spaced: Bool = false) -> Int? {
        var position = index
        for (offset, scalar) in word.enumerated() {
            if spaced, offset > 0 { position = skipSpaces(position) }
            guard position < count, scalars[position] == scalar else { return nil }
            position += 1
        }
        return position
    }

    /// The end of the first of `words` written at `index`.
    func match(any words: [[Unicode.Scalar]], at index: Int, spaced: Bool = false) -> Int? {
        for word in words { if let end = match(word, at: index, spaced: spaced) { return end } }
        return nil
    }

    // MARK: - Digits

    /// ASCII or fullwidth digits at `index`: grouped thousands ("1,050,000,000", "４，５６５"), a decimal part (not in a
    /// dotted run such as "192.168.1.2"), an exponent ("2e5", "２.７８９０e－１") or a power ("2^5", "1.1^+23").
    func digits(at index: Int, afterUnit: Bool = false) -> CJKNumber? {
        var position = index
        var text = ""
        let leadingPoint = isDot(index) && digit(index + 1) != nil && digit(index - 1) == nil && !isDot(index - 1)
        if !leadingPoint {
            while let value = digit(position) {
                text.append(Character(String(value)))
                position += 1
            }
            guard !text.isEmpty else { return nil }
            // Thousands: a separator and exactly three digits, after a first group of at most three.
            // "4千万50、154.0" is two numbers: after a unit only a comma groups.
            if text.count <= 3 {
                while position < count, scalars[position] == "," || scalars[position] == "，"
                        || (!afterUnit && numerals.extraGroupSeparators.contains(scalars[position])),
                      let first = digit(position + 1), let second = digit(position + 2), let third = digit(position + 3),
                      digit(position + 4) == nil {
                    text += "\(first)\(second)\(third)"
                    position += 4
                }
            }
        }
        // Past Int64 the specs write a double ("2.02107211321364E+23"), as .NET parses such digits.
        let whole = text.count > 18 ? .real(Double(text) ?? .infinity) : NumberValue(digits: Substring(text))
        var number = CJKNumber(start: index, end: position, value: whole)
        number.digitRun = text.count
        // "2222.2222.22222": numbers joined by dots (versions, addresses) have no decimals.
        let inDottedRun = isDot(index - 1) && digit(index - 2) != nil
        var decimal = ""
        // Japanese "5,00", "５、００": a comma before exactly two digits is a decimal comma.
        if numerals.decimalCommaBeforeTwoDigits, position < count, !leadingPoint,
           scalars[position] == "," || scalars[position] == "，" || numerals.extraGroupSeparators.contains(scalars[position]),
           let first = digit(position + 1), let second = digit(position + 2), digit(position + 3) == nil {
            decimal = "\(first)\(second)"
            position += 3
        }
        if decimal.isEmpty, isDot(position), digit(position + 1) != nil, !inDottedRun {
            var end = position + 1
            while let value = digit(end) {
                decimal.append(Character(String(value)))
                end += 1
            }
            if isDot(end), digit(end + 1) != nil {
                decimal = ""  // a dotted run: this number stops before its first dot
            } else {
                position = end
            }
        }
        var exponent = 0
        var hasExponent = false
        if position < count, scalars[position] == "e" || scalars[position] == "E" {
            var end = position + 1
            var negative = false
            if end < count, scalars[end] == "+" { end += 1 } else if isSign(end) { negative = true; end += 1 }
            var exponentText = ""
            while let value = digit(end), exponentText.count < 4 {
                exponentText.append(Character(String(value)))
                end += 1
            }
            if let parsed = Int(exponentText), digit(end) == nil, !isASCIILetter(end) {
                exponent = negative ? -parsed : parsed
                hasExponent = true
                position = end
            }
        }
        if !decimal.isEmpty || hasExponent {
            let mantissa = (text.isEmpty ? "0" : text) + (decimal.isEmpty ? "" : "." + decimal)
            var value = (Double(mantissa) ?? 0) * pow(10, Double(exponent))
            // "1e9999" is no number a value can hold: the exponent is left unread.
            if !value.isFinite {
                value = Double(mantissa) ?? 0
                position = number.end + (decimal.isEmpty ? 0 : decimal.count + 1)
            }
            number.value = Self.normalized(value)
            number.isDecimal = !decimal.isEmpty
            number.digitRun = 0
        }
        number.end = position
        if position < count, scalars[position] == "^" {
            var end = position + 1
            var negatives = 0
            while end < count, scalars[end] == "+" || isSign(end) {
                if isSign(end) { negatives += 1 }
                end += 1
            }
            if end - position <= 4, let power = digits(at: end), !power.isFraction, power.end - end <= 4 {
                let exponentValue = negatives % 2 == 1 ? -power.value.double : power.value.double
                let raised = pow(number.value.double, exponentValue)
                if raised.isFinite {
                    number.value = Self.normalized(raised)
                    number.end = power.end
                    number.digitRun = 0
                }
            }
        }
        return number
    }

    /// A `Double` as a ``NumberValue``: a whole number as an integer.
    static func normalized(_ value: Double) -> NumberValue {
        // From 1e15 up .NET writes a double in exponent notation ("-1.2732E+15"), as ``NumberValue/text`` does.
        if value.isFinite, value.rounded() == value, abs(value) < 1.0e15 { return .integer(Int64(value)) }
        return .real(value)
    }

    // MARK: - Numerals

    /// The numeral at `start` without its sign: digits, characters with units, or both.
    func numeral(at start: Int) -> CJKReading? {
        var position = start, end = start
        var total = NumberValue.integer(0), section = NumberValue.integer(0)
        var pending: NumberValue?
        var pendingIsCharacterDigit = false
        var run = 0, runText = ""
        var lastSmall: Int64 = 0, lastBig: Int64 = 0
        var unitJustBefore: Int64 = 0
        var sawUnit = false, sawAny = false, sawHalf = false
        var digitRun = 0
        var arabicDecimal = false
        while true {
            let at = sawAny ? skipSpaces(position) : position
            guard at < count else { break }
            let scalar = scalars[at]
            if let value = numerals.digits[scalar] {
                if value == 0, sawUnit, pending == nil {
                    // "一千零一": a zero between units holds a place; the digit after it is not a tenth of the unit.
                    unitJustBefore = 0
                    position = at + 1
                    end = position
                    continue
                }
                if pending != nil {
                    // "一二三", "二五〇": single digits one after the other, without spaces or units.
                    guard pendingIsCharacterDigit, at == position, !sawUnit, run >= 1 else { break }
                    run += 1
                    runText.append(Character(String(value)))
                    pending = NumberValue(digits: Substring(runText))
                    position = at + 1
                    end = position
                    continue
                }
                if sawAny, at != position, !sawUnit { break }
                pending = .integer(Int64(value))
                pendingIsCharacterDigit = true
                run = 1
                runText = String(value)
                sawAny = true
                position = at + 1
                end = position
                continue
            }
            if scalar == numerals.half, !sawAny {
                let next = at + 1
                guard next < count, numerals.smallUnits[scalars[next]] != nil || numerals.bigUnits[scalars[next]] != nil
                        || match(any: numerals.dozenWords, at: next) != nil else { break }
                pending = .real(0.5)
                pendingIsCharacterDigit = false
                sawAny = true
                sawHalf = true
                position = next
                end = position
                continue
            }
            if let unit = numerals.smallUnits[scalar] {
                if run >= 2 { return .skip(to: at + 1) }
                if lastSmall != 0, unit >= lastSmall { break }
                // "十五", "百三", "零十": a unit without its digit is one of it.
                var multiplier = pending ?? .integer(1)
                if pendingIsCharacterDigit, pending == .integer(0) { multiplier = .integer(1) }
                section = section + multiplier * .integer(unit)
                lastSmall = unit
                pending = nil
                run = 0
                unitJustBefore = unit
                sawUnit = true
                sawAny = true
                position = at + 1
                end = position
                continue
            }
            if let unit = numerals.bigUnits[scalar] {
                if run >= 2 { return .skip(to: at + 1) }
                guard sawAny else { break }
                let group = section + (pending ?? .integer(0))
                // "四万万", "二十万亿": a unit at least as large as the last multiplies everything before it.
                total = lastBig == 0 || unit >= lastBig ? (total + group) * .integer(unit) : total + group * .integer(unit)
                lastBig = unit
                section = .integer(0)
                lastSmall = 0
                pending = nil
                run = 0
                unitJustBefore = unit
                sawUnit = true
                position = at + 1
                end = position
                continue
            }
            if sawAny, let after = match(any: numerals.approximateWords, at: at) {
                let next = skipSpaces(after)
                guard next < count, numerals.bigUnits[scalars[next]] != nil else { break }
                position = next
                continue
            }
            if digit(at) != nil || (!sawAny && isDot(at)) {
                guard pending == nil, let number = digits(at: at, afterUnit: sawUnit) else { break }
                // "1千零20" but not "12 34": digits after digits only with a unit between.
                if sawAny, !sawUnit { break }
                pending = number.value
                pendingIsCharacterDigit = false
                arabicDecimal = number.isDecimal
                digitRun = sawAny ? 0 : number.digitRun
                run = 0
                sawAny = true
                position = number.end
                end = position
                continue
            }
            break
        }
        guard sawAny else { return nil }
        var value = total + section
        if let pending {
            // Chinese "一千六" 1600, "九万四" 94000: a lone digit right after a unit of a hundred or more is its tenth.
            if numerals.elidesTrailingUnit, pendingIsCharacterDigit, run == 1, unitJustBefore >= 100 {
                value = value + pending * .integer(unitJustBefore / 10)
            } else {
                value = value + pending
            }
        }
        if !sawUnit, run >= 2 { digitRun = run } else if sawUnit { digitRun = 0 } else if pendingIsCharacterDigit { digitRun = 1 }
        // "半" is a half only before a unit or a dozen ("半百", "半ダース").
        if sawHalf, !sawUnit, match(any: numerals.dozenWords, at: end) == nil { return nil }
        var number = CJKNumber(start: start, end: end, value: value, digitRun: digitRun, isDecimal: arabicDecimal)
        readDecimalWords(into: &number)
        return .number(number)
    }

    /// "十五点七", "四百 点 五", "〇・〇八": decimals written with a decimal point word, added to `number`.
    private func readDecimalWords(into number: inout CJKNumber) {
        guard !number.isDecimal else { return }
        let point = skipSpaces(number.end)
        guard point < count, numerals.decimalPoints.contains(scalars[point]) else { return }
        var position = skipSpaces(point + 1)
        var fraction = ""
        while position < count {
            if numerals.decimalDigits.contains(scalars[position]), let value = numerals.digits[scalars[position]] {
                fraction.append(Character(String(value)))
            } else if let value = digit(position) {
                fraction.append(Character(String(value)))
            } else {
                break
            }
            position += 1
            if fraction.count > 30 { break }
        }
        guard !fraction.isEmpty, let decimals = Double("0." + fraction) else { return }
        number.value = Self.normalized(number.value.double + decimals)
        number.end = position
        number.isDecimal = true
        number.digitRun = 0
    }

    // MARK: - Numbers

    /// A sign word or character at `index` and the position after it: "负", "マイナス", or "-" / "－" / "−" not glued to
    /// a digit or another sign before it ("5-20%" is no minus, "－－9" is 9).
    func sign(at index: Int) -> Int? {
        if let end = match(any: numerals.negativeWords, at: index) { return end }
        guard isSign(index), digit(index - 1) == nil, !isSign(index - 1), !isASCIILetter(index - 1) else { return nil }
        return index + 1
    }

    /// The number at `index` with its sign, a fraction or a mixed number it begins, and a dozen after it.
    func number(at index: Int) -> CJKReading? {
        var start = index
        var negative = false
        if let afterSign = sign(at: index) {
            negative = true
            start = skipSpaces(afterSign)
        }
        guard let reading = numeral(at: start) else { return nil }
        guard case .number(var number) = reading else { return negative ? nil : reading }
        number.start = index
        if negative { number.value = -number.value }
        if let fraction = fraction(over: number) {
            number = fraction
        } else if let mixed = mixedNumber(after: number) {
            number = mixed
        } else if let slashed = slashFraction(after: number) {
            number = slashed
        } else if let power = power(of: number) {
            number = power
        } else {
            if let dozen = skipSpacesThenMatch(numerals.dozenWords, at: number.end) {
                number.value = number.value * .integer(12)
                number.end = dozen
                number.digitRun = 0
            } else if let scaled = scaleLetter(after: number) {
                number = scaled
            }
        }
        return .number(number)
    }

    private func skipSpacesThenMatch(_ words: [[Unicode.Scalar]], at index: Int) -> Int? {
        match(any: words, at: skipSpaces(index))
    }

    /// "三分之一", "３ 分  之 一百五十七", "5分の1", "负３分之负一百五十七": `denominator` over the number after the joiner.
    func fraction(over denominator: CJKNumber) -> CJKNumber? {
        guard let joined = match(any: numerals.fractionJoiners, at: skipSpaces(denominator.end), spaced: true) else { return nil }
        var numeratorStart = skipSpaces(joined)
        var negative = false
        if let afterSign = sign(at: numeratorStart) {
            negative = true
            numeratorStart = skipSpaces(afterSign)
        }
        guard case .number(let numerator)? = numeral(at: numeratorStart),
              let value = (negative ? -numerator.value : numerator.value) / denominator.value else { return nil }
        return CJKNumber(start: denominator.start, end: numerator.end, value: Self.exact(value), isFraction: true)
    }

    /// A quotient as the specs write it: whole when it is whole ("３分の27" 9).
    static func exact(_ value: NumberValue) -> NumberValue {
        if case .real(let double) = value { return normalized(double) }
        return value
    }

    /// "一又二分之一", "1と2分の1", "三百五十又3分之1", "1また4/3": a whole number, a joiner, then a fraction; or a number
    /// and a dozen ("三百と二ダース" 324).
    private func mixedNumber(after whole: CJKNumber) -> CJKNumber? {
        guard let joined = match(any: numerals.mixedJoiners, at: skipSpaces(whole.end)) else { return nil }
        let start = skipSpaces(joined)
        guard case .number(let denominator)? = numeral(at: start) else { return nil }
        if let dozen = match(any: numerals.dozenWords, at: denominator.end), whole.value.double >= 0 {
            return CJKNumber(start: whole.start, end: dozen, value: whole.value + denominator.value * .integer(12))
        }
        guard let fraction = fraction(over: denominator) ?? slashFraction(after: denominator),
              fraction.value.double >= 0 else { return nil }
        let sum = whole.value.double < 0 ? whole.value + -fraction.value : whole.value + fraction.value
        return CJKNumber(start: whole.start, end: fraction.end, value: Self.exact(sum), isFraction: true)
    }

    /// "3/5", "３／５", "1 ３/5", "４ ６／３", "120.5/100": fractions and mixed numbers written with digits and a slash.
    private func slashFraction(after number: CJKNumber) -> CJKNumber? {
        guard number.digitRun > 0 || number.isDecimal else { return nil }
        func isSlash(_ index: Int) -> Bool { index < count && (scalars[index] == "/" || scalars[index] == "／") }
        if isSlash(number.end), let denominator = digits(at: number.end + 1), denominator.value.isInteger,
           denominator.digitRun > 0, !isSlash(denominator.end), let value = number.value / denominator.value {
            return CJKNumber(start: number.start, end: denominator.end, value: Self.exact(value), isFraction: true)
        }
        if number.value.isInteger, isSpace(number.end), !isSpace(number.end + 1), let numerator = digits(at: number.end + 1),
           numerator.value.isInteger,
           numerator.digitRun > 0, isSlash(numerator.end), let denominator = digits(at: numerator.end + 1),
           denominator.value.isInteger, !isSlash(denominator.end), let part = numerator.value / denominator.value {
            let sum = number.value.double < 0 ? number.value + -part : number.value + part
            return CJKNumber(start: number.start, end: denominator.end, value: Self.exact(sum), isFraction: true)
        }
        return nil
    }

    /// "１．１の２３乗", "二・五のマイナス一乗", "−１２×１０の−１乗": a power in words (Japanese); the sign before the base
    /// applies after the power, as the specs read it.
    private func power(of base: CJKNumber) -> CJKNumber? {
        guard let words = numerals.powerWords else { return nil }
        var position = base.end
        var magnitude = abs(base.value.double)
        if let times = match(words.times, at: position), case .number(let ten)? = numeral(at: times), ten.value == .integer(10) {
            position = ten.end
        } else if match(words.times, at: position) != nil {
            return nil
        }
        let scaled = position != base.end
        guard let afterOf = match(words.of, at: position) else { return nil }
        position = afterOf
        var negatives = 0
        while negatives < 4 {
            if let end = match(any: numerals.negativeWords, at: position) { position = end } else if isSign(position) { position += 1 } else { break }
            negatives += 1
        }
        guard case .number(let exponent)? = numeral(at: position), let end = match(words.power, at: exponent.end),
              abs(exponent.value.double) <= 400 else { return nil }
        let power = negatives % 2 == 1 ? -exponent.value.double : exponent.value.double
        magnitude = scaled ? magnitude * pow(10, power) : pow(magnitude, power)
        let value = base.value.double < 0 ? -magnitude : magnitude
        guard value.isFinite else { return nil }
        return CJKNumber(start: base.start, end: end, value: Self.normalized(value))
    }

    /// "40k", "15Ｋ", "-2.5 M": thousands and millions written as a letter after digits.
    private func scaleLetter(after number: CJKNumber) -> CJKNumber? {
        guard number.digitRun > 0 || number.isDecimal else { return nil }
        let at = skipSpaces(number.end)
        guard at < count, at - number.end <= 1 else { return nil }
        let scale: Int64
        switch scalars[at] {
        case "k", "K", "Ｋ": scale = 1_000
        case "M": scale = 1_000_000
        default: return nil
        }
        guard !isASCIILetter(at + 1) else { return nil }
        var scaled = number
        scaled.value = Self.exact(number.value * .integer(scale))
        scaled.end = at + 1
        scaled.digitRun = 0
        return scaled
    }
}

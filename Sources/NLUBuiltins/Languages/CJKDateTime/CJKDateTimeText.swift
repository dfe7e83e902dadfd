/// The characters of a Chinese or Japanese text as ``CJKDateTimeReader`` reads them: words matched at a position,
/// spaces skipped, and the small whole numbers a date or a clock is made of ("2016", "１２", "二十九", "二零零四"),
/// read with the language's ``CJKNumerals`` tables. Every read looks a bounded distance ahead.
struct CJKDateTimeText {
    typealias Word = [Unicode.Scalar]

    let scalars: [Unicode.Scalar]
    let numerals: CJKNumerals

    var count: Int { scalars.count }

    /// A whole number as written: its value, where it ends, how many digits or numerals it has, whether it began with
    /// a zero ("07", "零八": a year of the century), and whether it is in ASCII or fullwidth digits.
    struct Count {
        var value: Int
        var end: Int
        var length: Int
        var leadingZero: Bool
        var isDigits: Bool
    }

    /// The end of `word` written at `index`, or nil.
    func match(_ word: Word, at index: Int) -> Int? {
        guard !word.isEmpty, index >= 0, index + word.count <= count else { return nil }
        for offset in word.indices where scalars[index + offset] != word[offset] { return nil }
        return index + word.count
    }

    /// The end of the first of `words` (longest first in every table) written at `index`.
    func match(any words: [Word], at index: Int) -> Int? {
        for word in words { if let end = match(word, at: index) { return end } }
        return nil
    }

    /// The first entry of `table` written at `index`, with its end.
    func match<T>(_ table: [(Word, T)], at index: Int) -> (T, Int)? {
        for (word, value) in table { if let end = match(word, at: index) { return (value, end) } }
        return nil
    }

    /// Whether `index` holds an ASCII or ideographic space.
    func isSpace(_ index: Int) -> Bool { index >= 0 && index < count && (scalars[index] == " " || scalars[index] == "\u{3000}") }

    /// The first position at or after `index` that is not a space.
    func skipSpaces(_ index: Int) -> Int {
        var position = index
        while isSpace(position) { position += 1 }
        return position
    }

    func digit(_ index: Int) -> Int? { index >= 0 && index < count ? CJKNumberReader.digitValue(scalars[index]) : nil }

    /// Whether `index` holds a digit or a numeral character (a number would go on through it).
    func isNumeral(_ index: Int) -> Bool {
        guard index >= 0, index < count else { return false }
        return digit(index) != nil || numerals.digits[scalars[index]] != nil || numerals.smallUnits[scalars[index]] != nil
    }

    /// The whole number at `index`: up to six ASCII or fullwidth digits, or numeral characters with units below ten
    /// thousand ("二十九", "一千零五") or one after the other ("二零零四"). Longer runs are no part of a date-time.
    func integer(at index: Int) -> Count? {
        guard index >= 0, index < count else { return nil }
        if digit(index) != nil {
            var value = 0, end = index
            while let next = digit(end) {
                value = value * 10 + next
                end += 1
                if end - index > 6 { return nil }
            }
            return Count(value: value, end: end, length: end - index, leadingZero: digit(index) == 0 && end - index > 1, isDigits: true)
        }
        var total = 0, pending: Int?, end = index, sawUnit = false, run = 0, runValue = 0
        while end < count, end - index < 8 {
            let scalar = scalars[end]
            if let value = numerals.digits[scalar] {
                if pending != nil, !sawUnit {
                    // "二零零四": digits one after the other, read as written.
                    run += 1
                    runValue = runValue * 10 + value
                    pending = runValue
                } else {
                    pending = value
                    if !sawUnit { run = 1; runValue = value }
                }
                end += 1
            } else if let unit = numerals.smallUnits[scalar], unit < 10_000, run <= 1 {
                total += (pending ?? 1) * Int(unit)
                pending = nil
                sawUnit = true
                end += 1
            } else {
                break
            }
        }
        guard end > index else { return nil }
        let leadingZero = numerals.digits[scalars[index]] == 0 && end - index > 1
        return Count(value: total + (pending ?? 0), end: end, length: end - index, leadingZero: leadingZero, isDigits: false)
    }

    /// An amount for a duration: a whole number, a decimal in digits ("123.45"), or "数" (a few, 3).
    func amount(at index: Int, few: Word?) -> (Double, Int)? {
        if let few, let end = match(few, at: index) { return (3, end) }
        guard let whole = integer(at: index) else { return nil }
        // "一两天", "两三个小时": neighbouring numerals are a rough count, no amount (``CJKNumerals/numeralRunsAreNumbers``).
        if !numerals.numeralRunsAreNumbers, !whole.isDigits, whole.length >= 2,
           (index..<whole.end).allSatisfy({ numerals.digits[scalars[$0]] != nil }) { return nil }
        if whole.isDigits, whole.end < count, scalars[whole.end] == "." || scalars[whole.end] == "．", digit(whole.end + 1) != nil {
            var end = whole.end + 1, fraction = 0.0, scale = 0.1
            while let next = digit(end), end - whole.end < 8 {
                fraction += Double(next) * scale
                scale /= 10
                end += 1
            }
            return (Double(whole.value) + fraction, end)
        }
        return (Double(whole.value), whole.end)
    }
}

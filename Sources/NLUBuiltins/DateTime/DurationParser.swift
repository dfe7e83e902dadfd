/// Reads durations: "3 days", "an hour", "half an hour", "1.5 hours", "30min", "several weeks",
/// "one hour and a half", "1 hour and 30 minutes"; the TIMEX keeps the units said ("P3W", "PT1H30M").
struct DurationParser {
    let text: TokenizedText
    let numbers: NumberParser

    init(_ text: TokenizedText, numbers: NumberParser) {
        self.text = text
        self.numbers = numbers
    }

    /// A spoken duration: its TIMEX, its length in seconds, the index after it, and its amounts in the units of
    /// the TIMEX letters, largest first.
    struct Duration: Sendable {
        var timex: String
        var seconds: Double
        var end: Int
        var parts: [(Double, DateTimeWords.Unit)] = []

        /// The duration as a calendar shift, as dateparser and LUIS move a date by "1 year, 1 month and 2 days":
        /// whole months (a year is 12), then whole days (a week is 7), then the clock seconds; nil when a
        /// year, month, week or day amount has a fraction ("1.5 months" has no calendar reading).
        var calendarShift: (months: Int, days: Int, seconds: Double)? {
            var months = 0.0, days = 0.0, seconds = 0.0
            for (amount, unit) in parts {
                switch (unit.isTime, unit.letter) {
                case (false, "Y"): months += 12 * amount
                case (false, "M"): months += amount
                case (false, "W"): days += 7 * amount
                case (false, "D"): days += amount
                default: seconds += amount * unit.seconds
                }
            }
            guard months == months.rounded(), days == days.rounded(), months < 1e6, days < 1e7 else { return nil }
            return (Int(months), Int(days), seconds)
        }
    }

    /// One amount of one unit at `index`: (amount, unit, index after the unit), in the unit of the TIMEX
    /// letter ("2 decades" is 20 years, "a fortnight" 2 weeks).
    func amount(at index: Int) -> (Double, DateTimeWords.Unit, Int)? {
        guard let (amount, unit, end) = spokenAmount(at: index) else { return nil }
        return (amount * Double(unit.multiple), unit.base, end)
    }

    /// One amount of one unit at `index` as said: (amount, unit, index after the unit).
    private func spokenAmount(at index: Int) -> (Double, DateTimeWords.Unit, Int)? {
        guard let token = text.token(index) else { return nil }
        var amount: Double
        var position: Int
        if let (quarters, afterOf) = quartersOf(at: index) {
            // "a quarter of an hour", "three-quarters of an hour" (Duckling).
            amount = quarters
            position = afterOf
        } else if token.isWord, token.text == "a", let next = text.word(index + 1), next == "few" || next == "couple" {
            amount = next == "few" ? 3 : 2
            position = index + 2
            if text.word(position) == "of" { position += 1 }
        } else if token.isWord, token.text == "a" || token.text == "an" || token.text == "one" && text.word(index + 1).map({ DateTimeWords.units[$0] != nil }) == true {
            amount = 1
            position = index + 1
        } else if token.isWord, token.text == "half", let article = text.word(index + 1), article == "a" || article == "an" {
            amount = 0.5
            position = index + 2
        } else if token.isWord, token.text == "another" || token.text == "all",
                  let unit = text.word(index + 1), token.text == "another" || ["day", "week", "month", "year"].contains(unit) {
            amount = 1
            position = index + 1
        } else if token.isWord, token.text == "several" || token.text == "few" || token.text == "some" {
            amount = 3
            position = index + 1
        } else if token.isWord, token.text == "a", text.word(index + 1) == "few" {
            amount = 3
            position = index + 2
        } else if token.isWord, token.text == "couple" || (token.text == "a" && text.word(index + 1) == "couple") {
            position = token.text == "a" ? index + 2 : index + 1
            if text.word(position) == "of" { position += 1 }
            amount = 2
        } else if let number = numbers.parse(at: index), number.kind != .ordinal, !(number.value.double < 0) {
            amount = number.value.double
            position = number.endToken
            // "one and a quarter of hour", "two and three quarters hours", "five and half min" (Duckling).
            if number.value.isInteger, let (fraction, after) = andFraction(at: position) {
                amount += fraction
                position = after
            } else if !number.value.isInteger, text.word(position) == "of",
                      let unitWord = text.word(position + 1), DateTimeWords.units[unitWord] != nil {
                // "one and three quarters of hour": the number reader took the fraction.
                position += 1
            }
        } else if token.isDigits, let value = Double(token.text) {
            // "30min", "2hrs": digits glued to a unit, which the number reader refuses.
            amount = value
            position = index + 1
        } else {
            return nil
        }
        // "2 more minutes", "two additional minutes", "2 fewer minutes": the amount is the duration said.
        if let word = text.word(position), Self.comparatives.contains(word), let unitWord = text.word(position + 1),
           DateTimeWords.units[unitWord] != nil {
            position += 1
        }
        guard amount.isFinite, amount < 1e9, let unitWord = text.word(position), let unit = DateTimeWords.units[unitWord] else { return nil }
        // "s" and "h" alone are units only glued to digits ("30s", "2h").
        if unitWord.count == 1, text[position].spaceBefore { return nil }
        if let after = text.token(position + 1), after.isWord, !after.spaceBefore { return nil }
        return (amount, unit, position + 1)
    }

    /// "a quarter of an", "three-quarters of a": (the fraction, the index of the unit after).
    private func quartersOf(at index: Int) -> (Double, Int)? {
        guard let word = text.word(index), let count = Self.quarterCounts[word] else { return nil }
        var position = index + 1
        if let hyphen = text.token(position), hyphen.isSymbol("-") { position += 1 }
        guard let quarter = text.word(position), quarter == "quarter" || quarter == "quarters", text.word(position + 1) == "of" else { return nil }
        position += 2
        if let article = text.word(position), article == "a" || article == "an" { position += 1 }
        guard let unit = text.word(position), DateTimeWords.units[unit] != nil else { return nil }
        return (count / 4, position)
    }

    private static let comparatives: Set<String> = ["more", "additional", "extra", "less", "fewer"]
    private static let quarterCounts: [String: Double] = ["a": 1, "one": 1, "two": 2, "three": 3]

    /// "and a half", "and half", "and quarter", "and a quarter of", "and three quarters of" after a whole
    /// number, before a unit: the fraction and the index of the unit.
    private func andFraction(at index: Int) -> (Double, Int)? {
        guard text.word(index) == "and" else { return nil }
        var position = index + 1
        var count = 1.0
        if let word = text.word(position), let said = Self.quarterCounts[word] {
            count = said
            position += 1
        }
        guard let word = text.word(position) else { return nil }
        let fraction: Double
        switch word {
        case "half" where count == 1: fraction = 0.5
        case "quarter", "quarters": fraction = count / 4
        default: return nil
        }
        position += 1
        if text.word(position) == "of" { position += 1 }
        guard let unitWord = text.word(position), DateTimeWords.units[unitWord] != nil else { return nil }
        return (fraction, position)
    }

    /// "1 hour thirty", "2 hours and 10": minutes said without their unit after hours, ending the text or
    /// a clause (Duckling's reading); not when a word follows ("2 hours and 10 people").
    private func bareMinutes(after index: Int) -> (Double, Int)? {
        var position = index
        if text.word(position) == "and" { position += 1 }
        guard let token = text.token(position), token.isDigits || token.isWord,
              let number = numbers.parse(at: position), number.kind == .cardinal, number.value.isInteger,
              number.value.double >= 1, number.value.double < 60 else { return nil }
        if let next = text.token(number.endToken), !next.isSymbol(",") && !next.isSymbol(".") && !next.isSymbol("?")
            && !next.isSymbol("!") { return nil }
        return (number.value.double, number.endToken)
    }

    /// A whole duration at `index`, several amounts joined by "and" or "," included.
    func duration(at index: Int) -> Duration? {
        guard case (var amount, let unit, var end)? = spokenAmount(at: index) else { return nil }
        var parts: [(Double, DateTimeWords.Unit)] = []
        // "one hour and a half": half of the last unit.
        if text.word(end) == "and", text.word(end + 1) == "a", let half = text.word(end + 2), half == "half" || half == "quarter" {
            amount += half == "half" ? 0.5 : 0.25
            end += 3
        } else if text.word(end) == "and", text.word(end + 1) == "half" {
            amount += 0.5
            end += 2
        }
        parts.append((amount, unit))
        if unit.letter == "H", unit.isTime, amount == amount.rounded(), let (minutes, after) = bareMinutes(after: end) {
            parts.append((minutes, DateTimeWords.units["minutes"]!))
            end = after
        }
        while parts.count < 10 {  // each unit smaller than the last: at most century down to second
            var next = end
            if let joiner = text.token(next), joiner.isSymbol(",") || joiner.text == "and" { next += 1 }
            guard let (moreAmount, moreUnit, moreEnd) = spokenAmount(at: next), moreUnit.seconds < parts.last!.1.seconds else { break }
            parts.append((moreAmount, moreUnit))
            end = moreEnd
        }
        // "1 decade 2 years" is P12Y, "a fortnight and 3 days" P2W3D: amounts in the TIMEX letter's unit, those
        // of one letter added up.
        var merged: [(Double, DateTimeWords.Unit)] = []
        for (amount, unit) in parts {
            let base = unit.base
            if let last = merged.last, last.1 == base {
                merged[merged.count - 1].0 += amount * Double(unit.multiple)
            } else {
                merged.append((amount * Double(unit.multiple), base))
            }
        }
        parts = merged
        // "half an hour" is PT30M and "half a day" PT12H, as LUIS writes them.
        if parts.count == 1, parts[0].0 < 1, parts[0].1.letter == "H" || parts[0].1.letter == "D" {
            let smaller = parts[0].1.letter == "H" ? DateTimeWords.units["minutes"]! : DateTimeWords.units["hours"]!
            parts[0] = (parts[0].0 * parts[0].1.seconds / smaller.seconds, smaller)
        }
        var timex = "P"
        var inTime = false
        var seconds = 0.0
        for (amount, unit) in parts {
            if unit.isTime && !inTime {
                timex += "T"
                inTime = true
            }
            timex += NumberValue.real(amount).text + unit.letter
            seconds += amount * unit.seconds
        }
        return Duration(timex: timex, seconds: seconds, end: end, parts: parts)
    }
}

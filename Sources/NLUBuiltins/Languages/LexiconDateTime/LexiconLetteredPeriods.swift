/// Quarters and halves of a year written with a letter, alike in every language: "Q1 2017", "Q1-2017", "2019 q1",
/// "2019-Q1", "Q1 van 2017", "H2 2019"; and from one to another ("van Q1-2017 tot Q1-2018"), which the specs read
/// from the first one's start to the second one's start (P12M). Without a year a letter and a digit are left alone
/// ("Q1 en Q2" is no date: too many texts say "H2" or "Q3" for other things).
extension LexiconDateRanges {
    func letteredPeriod(at index: Int) -> ([DateTimeValue], Int)? {
        let (between, start) = read.rangeStart(at: index)
        if start > index, let first = lettered(at: start),
           let joined = (between ? words.betweenJoiners.end(text, at: first.end) : nil) ?? words.rangeJoiners.end(text, at: first.end),
           let second = lettered(at: joined), second.start > first.start {
            let months = (second.start.year - first.start.year) * 12 + second.start.month - first.start.month
            return ([span(first.start, second.start, months: months)], second.end)
        }
        guard let found = lettered(at: index) else { return nil }
        return ([span(found.start, found.start.adding(months: found.months), months: found.months)], found.end)
    }

    /// A quarter ("q") or a half ("h") with its year before or after it: its first day, its length in months, and
    /// the index after it.
    private func lettered(at index: Int) -> (start: CivilDate, months: Int, end: Int)? {
        var position = index
        var year: Int?
        if let (said, after) = read.fourDigitYear(at: position) {
            year = said
            position = after
            if text.isSymbol(position, "-"), text.touches(position), text.touches(position + 1) { position += 1 }
        }
        guard let letter = text.word(position), letter == "q" || letter == "h", let number = text.digits(position + 1, maxDigits: 1),
              text.touches(position + 1) else { return nil }
        let months = letter == "q" ? 3 : 6
        guard number >= 1, number <= 12 / months else { return nil }
        position += 2
        if year == nil {
            var yearAt = position
            if text.isSymbol(yearAt, "-"), text.touches(yearAt) { yearAt += 1 } else if let after = words.dateJoiners.end(text, at: yearAt) { yearAt = after }
            guard let (said, after) = read.fourDigitYear(at: yearAt) else { return nil }
            year = said
            position = after
        }
        guard let year else { return nil }
        return (CivilDate.first(ofMonth: (number - 1) * months + 1, year: year), months, position)
    }

    private func span(_ start: CivilDate, _ end: CivilDate, months: Int) -> DateTimeValue {
        DateTimeValue(timex: "(" + start.text + "," + end.text + ",P" + String(months) + "M)", type: "daterange", start: start.text, end: end.text)
    }
}

/// Weeks named by their place: "the first week of 2015" (ISO week 1), "the 3rd week of Jan", "the last
/// week of July" (a week belongs to the month that holds its Thursday, as ISO weeks belong to years),
/// "week 27 of last year", and weeks named by a day in them: "the week of April 10th", "w/c Feb 4",
/// "the week beginning February 4".
extension DateRangeParser {
    func weekOfPeriod(at index: Int) -> (SpokenDateRange, Int)? {
        var position = index
        if text.word(position) == "the" { position += 1 }
        // "week 3 of 2027": a numbered week of a year.
        if text.word(position) == "week", let digits = text.token(position + 1), digits.isDigits, let week = Int(digits.text),
           week >= 1, week <= 53, text.word(position + 2) == "of", let (year, end) = yearOf(at: position + 3) {
            return isoWeek(week, of: year).map { ($0, end) }
        }
        if let found = weekContaining(at: position) { return found }
        guard let (place, afterPlace) = ordinalPlace(at: position), text.word(afterPlace) == "week",
              text.word(afterPlace + 1) == "of" else { return nil }
        let periodIndex = afterPlace + 2
        if let (year, end) = yearOf(at: periodIndex) {
            let week = place > 0 ? place : isoWeeksIn(year)
            return isoWeek(week, of: year).map { ($0, end) }
        }
        // A month: said with its year, open ("Jan"), or relative ("this month", "last month").
        let month: SpokenDateRange, end: Int
        if let (range, afterRange) = monthRange(at: periodIndex) ?? relativeMonth(at: periodIndex) {
            (month, end) = (range, afterRange)
        } else if let (number, afterMonth) = dates.monthName(at: periodIndex) {
            let open = monthRangeOpen(number)
            (month, end) = (open, afterMonth)
        } else {
            return nil
        }
        let spans = month.spans.map { span -> (start: CivilDate, end: CivilDate) in
            let start = weekOfMonth(place, monthStart: span.start)
            return (start, start.adding(days: 7))
        }
        let timex = month.timex + "-W" + Timex.pad(place > 0 ? place : 5, 2)
        return (SpokenDateRange(timex: timex, spans: spans), end)
    }

    /// "first" 1 … "fifth" 5, "1st", "3rd"; "last" 0.
    private func ordinalPlace(at index: Int) -> (Int, Int)? {
        if text.word(index) == "last" { return (0, index + 1) }
        guard let number = dates.numbers.parse(at: index), number.kind == .ordinal, number.value.isInteger,
              number.value.double >= 1, number.value.double <= 5 else { return nil }
        return (Int(number.value.double), number.endToken)
    }

    /// A year after "of": "2015", "last year", "this year", "next year".
    private func yearOf(at index: Int) -> (Int, Int)? {
        if let (year, end) = dates.year(at: index) { return (year, end) }
        guard let relation = text.word(index), text.word(index + 1) == "year" else { return nil }
        let offsets = ["this": 0, "current": 0, "next": 1, "last": -1, "previous": -1]
        return offsets[relation].map { (reference.year + $0, index + 2) }
    }

    private func relativeMonth(at index: Int) -> (SpokenDateRange, Int)? {
        guard let relation = text.word(index), ["this", "next", "last", "previous", "current"].contains(relation),
              text.word(index + 1) == "month" else { return nil }
        return relativePeriod(at: index)
    }

    private func monthRangeOpen(_ month: Int) -> SpokenDateRange {
        let pastYear = month <= reference.month ? reference.year : reference.year - 1
        let futureYear = month >= reference.month ? reference.year : reference.year + 1
        return SpokenDateRange(timex: "XXXX-" + Timex.pad(month, 2),
                               spans: [monthSpan(year: pastYear, month: month).spans[0], monthSpan(year: futureYear, month: month).spans[0]])
    }

    /// The Monday of the month's week `place` (0: the last): weeks whose Thursday falls in the month.
    private func weekOfMonth(_ place: Int, monthStart: CivilDate) -> CivilDate {
        if place == 0 {
            let last = monthStart.adding(months: 1).adding(days: -1)
            let lastThursday = last.adding(days: -((last.weekday - 4 + 7) % 7))
            return lastThursday.weekStart
        }
        let firstThursday = monthStart.adding(days: (4 - monthStart.weekday + 7) % 7)
        return firstThursday.weekStart.adding(days: 7 * (place - 1))
    }

    private func isoWeek(_ week: Int, of year: Int) -> SpokenDateRange? {
        guard let januaryFourth = CivilDate(year: year, month: 1, day: 4), week <= isoWeeksIn(year) else { return nil }
        let start = januaryFourth.weekStart.adding(days: 7 * (week - 1))
        return SpokenDateRange(timex: Timex.pad(year, 4) + "-W" + Timex.pad(week, 2), spans: [(start, start.adding(days: 7))])
    }

    private func isoWeeksIn(_ year: Int) -> Int {
        CivilDate(year: year, month: 12, day: 28).map { $0.isoWeek.week } ?? 52
    }

    /// "week of April 10th", "w/c Feb 4", "week beginning/starting (on)/commencing February 4": the week
    /// (Monday to Sunday) that holds the day, with the day's TIMEX.
    private func weekContaining(at index: Int) -> (SpokenDateRange, Int)? {
        var position = index
        if text.word(position) == "w", text.token(position + 1)?.isSymbol("/") == true, text.word(position + 2) == "c" {
            position += 3
        } else if text.word(position) == "week", let lead = text.word(position + 1),
                  ["of", "beginning", "starting", "commencing"].contains(lead) {
            position += 2
            if lead == "starting", text.word(position) == "on" { position += 1 }
        } else {
            return nil
        }
        guard let (date, end) = dates.monthDay(at: position) ?? dates.dayMonth(at: position) ?? dates.dayOfMonth(at: position) else {
            return nil
        }
        let spans = date.readings(reference).map { ($0.weekStart, $0.weekStart.adding(days: 7)) }
        guard !spans.isEmpty else { return nil }
        return (SpokenDateRange(timex: date.timex, spans: spans.map { (start: $0.0, end: $0.1) }), end)
    }
}

/// Weeks and months named by their place in a year or a month, in a language other than English, as English's
/// ``DateRangeParser/weekOfPeriod(at:)`` reads them: "la primera semana de 2015" (ISO week 1), "la tercera semana
/// de enero", "la última semana de julio" (a week belongs to the month that holds its Thursday), "décima semana"
/// and "semana diez" (of this year), "semana 3 de dos mil veintisiete", "el tercer mes de 2021", "el noveno mes
/// del próximo año"; and the first or last few of a year's units: "las primeras 2 semanas de 2021", "los últimos
/// cuatro meses de 2021", "los primeros diez días del último año"; and centuries ("15e eeuw").
extension LexiconDateRanges {
    func periodByPlace(at index: Int) -> ([DateTimeValue], Int)? {
        var position = index
        if let (_, after) = words.articles.match(text, at: position) { position = after }
        let articled = position > index || (index > 0 && words.articles.end(text, at: index - 1) == index)
        // "semana diez", "semana 3 de 2027"; Dutch "in de week 31" is "week 31".
        if position == index || !words.periodArticleMeansThis, let (unit, afterUnit) = words.periods.match(text, at: position), unit.letter == "W",
           let (week, afterWeek) = read.integer(at: afterUnit, max: 53), week >= 1 {
            let (year, end) = yearOf(at: afterWeek) ?? (today.year, afterWeek)
            return isoWeek(week, of: year).map { ([$0], end) }
        }
        if let found = firstOrLastUnits(at: position) { return found }
        guard let (place, afterPlace) = place(at: position) else { return nil }
        // "15e eeuw": 1400 to 1500.
        if place >= 1, let end = words.centuries.end(text, at: afterPlace) {
            let first = Timex.pad((place - 1) * 100, 4) + "-01-01", last = Timex.pad(place * 100, 4) + "-01-01"
            return ([DateTimeValue(timex: "(" + first + "," + last + ",P100Y)", type: "daterange", start: first, end: last)], end)
        }
        guard let (unit, afterUnit) = words.periods.match(text, at: afterPlace) else { return nil }
        switch unit.letter {
        case "W":
            if let (year, end) = yearOf(at: afterUnit) {
                return isoWeek(place > 0 ? place : isoWeeksIn(year), of: year).map { ([$0], end) }
            }
            if let (months, timex, end) = monthOf(at: afterUnit) {
                let values = months.map { first -> DateTimeValue in
                    let start = weekOfMonth(place, monthStart: first)
                    return DateTimeValue(timex: timex + "-W" + Timex.pad(place > 0 ? place : 5, 2), type: "daterange",
                                         start: start.text, end: start.adding(days: 7).text)
                }
                return (values, end)
            }
            // "décima semana": of this year; "la primera semana" and "1ª semana" alone the spec leaves unread.
            guard !articled, place > 1 else { return nil }
            return isoWeek(place, of: today.year).map { ([$0], afterUnit) }
        case "M":
            guard place <= 12, let (year, end) = yearOf(at: afterUnit) else { return nil }
            let first = CivilDate.first(ofMonth: place > 0 ? place : 12, year: year)
            return ([DateTimeValue(timex: String(first.text.prefix(7)), type: "daterange", start: first.text, end: first.adding(months: 1).text)], end)
        default:
            return nil
        }
    }

    /// "primera" 1 … "décima" 10, "3ª", "10ª", "4.º"; "última" 0.
    private func place(at index: Int) -> (Int, Int)? {
        if let (first, end) = words.firstOrLast.match(text, at: index) { return (first ? 1 : 0, end) }
        if text.digits(index) != nil {
            guard let (value, end) = read.integer(at: index, max: 53), end > index + 1, value >= 1 else { return nil }
            return (value, end)
        }
        guard let number = read.numbers.parse(at: index), number.firstToken == index, number.kind == .ordinal,
              let value = number.value.integer, value >= 1, value <= 53 else { return nil }
        return (value, number.endToken)
    }

    /// The year after "de" / "del": "2015", "dos mil veintisiete", "del próximo año", "de este año"; Portuguese
    /// "deste ano" says the "de" in its "this".
    private func yearOf(at index: Int) -> (Int, Int)? {
        guard let (_, position) = words.dateJoiners.match(text, at: index) else {
            guard words.this.match(text, at: index) != nil, let (values, end) = namedPeriod(at: index), let first = values.first,
                  first.timex.count == 4, let year = Int(first.timex) else { return nil }
            return (year, end)
        }
        if let (year, end) = read.fourDigitYear(at: position) { return (year, end) }
        if text.digits(position) == nil, let (year, end) = read.year(at: position) { return (year, end) }
        guard let (values, end) = namedPeriod(at: position), let first = values.first, first.timex.count == 4, let year = Int(first.timex) else {
            return nil
        }
        return (year, end)
    }

    /// The month after "de": with its year ("diciembre de 2016": one), or alone ("enero": the last and the next).
    private func monthOf(at index: Int) -> ([CivilDate], String, Int)? {
        guard let (_, position) = words.dateJoiners.match(text, at: index), let (month, _, afterMonth) = read.monthWord(at: position) else {
            return nil
        }
        // "de eerste week van jan 2015": the year may follow the month without a joiner.
        if let (year, end) = yearOf(at: afterMonth) ?? read.fourDigitYear(at: afterMonth) {
            let first = CivilDate.first(ofMonth: month, year: year)
            return ([first], String(first.text.prefix(7)), end)
        }
        let past = month <= today.month ? today.year : today.year - 1
        let future = month >= today.month ? today.year : today.year + 1
        return ([past, future].map { CivilDate.first(ofMonth: month, year: $0) }, "XXXX-" + Timex.pad(month, 2), afterMonth)
    }

    /// "las primeras 2 semanas de 2021" (ISO weeks), "los últimos cuatro meses de 2021", "los primeros diez días del
    /// último año".
    private func firstOrLastUnits(at index: Int) -> ([DateTimeValue], Int)? {
        guard let (first, afterWord) = words.firstOrLast.match(text, at: index), let (amount, afterAmount) = read.amount(at: afterWord),
              amount >= 1, amount < 400, amount == amount.rounded(), let (unit, afterUnit) = words.units.match(text, at: afterAmount),
              !unit.base.isTime, unit.multiple == 1, let (year, end) = yearOf(at: afterUnit) else { return nil }
        let count = Int(amount)
        let start: CivilDate, finish: CivilDate
        switch unit.base.letter {
        case "W":
            guard let firstWeek = isoWeekStart(1, of: year), let lastWeek = isoWeekStart(isoWeeksIn(year), of: year) else { return nil }
            start = first ? firstWeek : lastWeek.adding(days: 7 * (1 - count))
            finish = first ? firstWeek.adding(days: 7 * count) : lastWeek.adding(days: 7)
        case "M":
            let january = CivilDate.first(ofMonth: 1, year: year)
            start = january.adding(months: first ? 0 : 12 - count)
            finish = january.adding(months: first ? count : 12)
        case "D":
            let january = CivilDate.first(ofMonth: 1, year: year), next = CivilDate.first(ofMonth: 1, year: year + 1)
            start = first ? january : next.adding(days: -count)
            finish = first ? january.adding(days: count) : next
        default:
            return nil
        }
        let timex = "(" + start.text + "," + finish.text + ",P" + String(count) + unit.base.letter + ")"
        return ([DateTimeValue(timex: timex, type: "daterange", start: start.text, end: finish.text)], end)
    }

    /// ISO week `week` of `year` (week 1 holds 4 January).
    private func isoWeek(_ week: Int, of year: Int) -> DateTimeValue? {
        guard let start = isoWeekStart(week, of: year) else { return nil }
        return DateTimeValue(timex: Timex.pad(year, 4) + "-W" + Timex.pad(week, 2), type: "daterange", start: start.text, end: start.adding(days: 7).text)
    }

    private func isoWeekStart(_ week: Int, of year: Int) -> CivilDate? {
        guard let januaryFourth = CivilDate(year: year, month: 1, day: 4), week >= 1, week <= isoWeeksIn(year) else { return nil }
        return januaryFourth.weekStart.adding(days: 7 * (week - 1))
    }

    private func isoWeeksIn(_ year: Int) -> Int {
        CivilDate(year: year, month: 12, day: 28).map { $0.isoWeek.week } ?? 52
    }

    /// The Monday of the month's week `place` (0: the last): weeks whose Thursday falls in the month.
    private func weekOfMonth(_ place: Int, monthStart: CivilDate) -> CivilDate {
        if place == 0 {
            let last = monthStart.adding(months: 1).adding(days: -1)
            return last.adding(days: -((last.weekday - 4 + 7) % 7)).weekStart
        }
        let firstThursday = monthStart.adding(days: (4 - monthStart.weekday + 7) % 7)
        return firstThursday.weekStart.adding(days: 7 * (place - 1))
    }
}

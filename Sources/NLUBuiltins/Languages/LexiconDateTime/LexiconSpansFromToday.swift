/// Spans of days that run to or from today, in a language other than English: between a date and now ("entre
/// ahora y 15 de noviembre", "entre enero de 2019 y hoy", "desde 01-agosto-2019 hasta hoy", "entre hoy y mañana"),
/// and the later or earlier part of this week, month or year ("más tarde esta semana", "más temprano de este mes").
extension LexiconDateRanges {
    /// A date and today (now, or a day named from today) as the two ends of a span, in either order, or two days named
    /// from today ("de ontem até hoje"). A day said without its year is its last occurrence before today, or its next one after it.
    func spanWithToday(at index: Int) -> ([DateTimeValue], Int)? {
        let (between, position) = read.rangeStart(at: index)
        guard let first = end(at: position) else { return nil }
        let joined = between ? words.betweenJoiners.end(text, at: first.end) : words.rangeJoiners.end(text, at: first.end)
        guard let afterJoiner = joined, let second = end(at: afterJoiner), first.fromToday || second.fromToday else { return nil }
        let start: CivilDate, finish: CivilDate
        switch (first.date, second.date) {
        case (.known(let a), .known(let b)): (start, finish) = (a, b)
        case (.open(let date), .known(let b)): (start, finish) = (date.readings(today).first ?? b, b)
        case (.known(let a), .open(let date)): (start, finish) = (a, date.readings(today).last ?? a)
        default: return nil
        }
        guard finish > start else { return nil }
        let timex = "(" + first.timex(start) + "," + second.timex(finish) + ",P" + String(start.days(until: finish)) + "D)"
        return ([DateTimeValue(timex: timex, type: "daterange", start: start.text, end: finish.text)], second.end)
    }

    private enum EndDate {
        case known(CivilDate)
        case open(SpokenDate)
    }

    private struct End {
        var date: EndDate
        var fromToday: Bool
        var end: Int
        var openTimex: String?

        func timex(_ day: CivilDate) -> String { openTimex ?? day.text }
    }

    /// One end: now, a day named from today, a date, or a month with its year ("enero de 2019": its first day).
    private func end(at index: Int) -> End? {
        if let (_, end) = words.now.match(text, at: index) { return End(date: .known(today), fromToday: true, end: end) }
        // "tussen nu en de 21e van mei": a date with the article it keeps.
        if let after = words.dateArticles.end(text, at: index), after > index, text.digits(after) != nil, let found = end(at: after) { return found }
        if let (offset, end) = words.relativeDays.match(text, at: index) {
            return End(date: .known(today.adding(days: offset)), fromToday: true, end: end)
        }
        if let (date, end) = read.calendarDate(at: index) {
            switch date.kind {
            case .exact(let day): return End(date: .known(day), fromToday: false, end: end)
            case .monthDay: return End(date: .open(date), fromToday: false, end: end, openTimex: date.timex)
            default: return nil
            }
        }
        // "enero de 2019", "jan 2019".
        guard let (month, _, afterMonth) = read.monthWord(at: index) else { return nil }
        let yearAt = words.dateJoiners.end(text, at: afterMonth) ?? afterMonth
        guard let (year, end) = read.fourDigitYear(at: yearAt) else { return nil }
        return End(date: .known(CivilDate.first(ofMonth: month, year: year)), fromToday: false, end: end)
    }

    /// "más tarde esta semana" (from its Thursday, or today if later, to its end), "más temprano de este mes" (from
    /// its start to the 16th, or today if sooner), "más tarde en el año" (from 1 July).
    func laterOrEarlierPart(at index: Int) -> ([DateTimeValue], Int)? {
        guard let (later, after) = words.laterOrEarlier.match(text, at: index) else { return nil }
        var position = after
        var unit: DateTimeWords.Unit
        if let (_, afterThis) = words.this.match(text, at: position), let (said, afterUnit) = words.periods.match(text, at: afterThis) {
            (unit, position) = (said, afterUnit)
        } else if let (_, afterArticle) = words.articles.match(text, at: position), let (said, afterUnit) = words.periods.match(text, at: afterArticle) {
            (unit, position) = (said, afterUnit)
        } else {
            return nil
        }
        let start: CivilDate, finish: CivilDate, middle: CivilDate, timex: String
        switch unit.letter {
        case "W":
            start = today.weekStart
            finish = start.adding(days: 7)
            middle = start.adding(days: 3)
            let week = start.isoWeek
            timex = Timex.pad(week.year, 4) + "-W" + Timex.pad(week.week, 2)
        case "M":
            start = CivilDate.first(ofMonth: today.month, year: today.year)
            finish = start.adding(months: 1)
            middle = start.adding(days: 15)
            timex = String(start.text.prefix(7))
        default:
            start = CivilDate.first(ofMonth: 1, year: today.year)
            finish = start.adding(months: 12)
            middle = start.adding(months: 6)
            timex = Timex.pad(today.year, 4)
        }
        let span = later ? (max(today, middle), finish) : (start, min(today, middle))
        guard span.1 > span.0 else { return nil }
        return ([DateTimeValue(timex: timex, type: "daterange", start: span.0.text, end: span.1.text)], position)
    }
}

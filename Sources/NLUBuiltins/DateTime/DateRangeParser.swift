/// Reads spans of days: "next week", "this month", "last year", "this weekend", "May", "May 2017",
/// "2017", "q1 2017", "this quarter", "week 31", "next 5 days", "past 3 weeks", "from May 4 to May 10",
/// "between 2014 and 2018", "November 18-19".
struct DateRangeParser {
    let text: TokenizedText
    let dates: DateParser
    let reference: CivilDate
    /// Whether the reference time is past midnight: a day said is then in the past for LUIS's readings.
    let referenceAfterMidnight: Bool

    init(_ text: TokenizedText, dates: DateParser, reference: CivilDate, afterMidnight: Bool = false) {
        self.text = text
        self.dates = dates
        self.reference = reference
        self.referenceAfterMidnight = afterMidnight
    }

    func range(at index: Int) -> (SpokenDateRange, Int)? {
        var best: (SpokenDateRange, Int)?
        for candidate in [between(at: index), relativePeriod(at: index), countedPeriod(at: index), quarter(at: index),
                          monthRange(at: index), numberedWeek(at: index), yearRange(at: index), partOfPeriod(at: index),
                          weekOfPeriod(at: index), holidaySpan(at: index), daysFromDate(at: index)] {
            if let candidate, candidate.1 > (best?.1 ?? index) { best = candidate }
        }
        return best
    }

    /// Words between two days of one month: "13 to 15", "13th thru 15th".
    private static let dayJoiners: Set<String> = ["to", "thru", "through", "till", "until", "til"]

    // MARK: named periods

    private static let relations: [String: Int] = [
        "this": 0, "current": 0, "next": 1, "following": 1, "coming": 1, "upcoming": 1, "last": -1, "previous": -1,
        "past": -1, "prior": -1,
    ]

    /// "this week", "next month", "last year", "the following week", "this weekend", "this calendar year".
    func relativePeriod(at index: Int) -> (SpokenDateRange, Int)? {
        var position = index
        // "the week", "the year": the current one ("partner of the year"), unless more follows.
        if text.word(position) == "the", let unit = text.word(position + 1), unit == "week" || unit == "month" || unit == "year",
           !(text.token(position + 2).map { $0.isDigits || $0.text == "of" || $0.text == "before" || $0.text == "after" } ?? false) {
            return period(unit, offset: 0, at: position + 1)
        }
        guard let relation = text.word(position), let offset = Self.relations[relation] else { return nil }
        position += 1
        if text.word(position) == "calendar" { position += 1 }
        guard let unit = text.word(position) else { return nil }
        if let (span, end) = period(unit, offset: offset, at: position) { return (span, end) }
        // "this September", "next May", "last April".
        if let month = DateTimeWords.months[unit], unit != "may" || text[position].capitalized {
            let year = reference.year + (relation == "this" || relation == "current" ? 0 : offset)
            return (monthSpan(year: year, month: month), position + 1)
        }
        return nil
    }

    func period(_ unit: String, offset: Int, at position: Int) -> (SpokenDateRange, Int)? {
        switch unit {
        case "week":
            let start = reference.weekStart.adding(days: 7 * offset)
            let week = start.isoWeek
            return (SpokenDateRange(timex: Timex.pad(week.year, 4) + "-W" + Timex.pad(week.week, 2), spans: [(start, start.adding(days: 7))]), position + 1)
        case "weekend":
            let start = reference.weekStart.adding(days: 7 * offset)
            let week = start.isoWeek
            return (SpokenDateRange(timex: Timex.pad(week.year, 4) + "-W" + Timex.pad(week.week, 2) + "-WE",
                                    spans: [(start.adding(days: 5), start.adding(days: 7))]), position + 1)
        case "month":
            let first = CivilDate(year: reference.year, month: reference.month, day: 1)!.adding(months: offset)
            return (monthSpan(year: first.year, month: first.month), position + 1)
        case "year", "yr":
            return (yearSpan(reference.year + offset), position + 1)
        case "quarter", "qtr":
            let quarterStart = CivilDate(year: reference.year, month: (reference.month - 1) / 3 * 3 + 1, day: 1)!.adding(months: 3 * offset)
            return (fixedSpan(quarterStart, quarterStart.adding(months: 3), duration: "P3M"), position + 1)
        default:
            return nil
        }
    }

    /// "next 5 days", "past 3 weeks", "last two months", "the 2 upcoming months", "5 coming days".
    func countedPeriod(at index: Int) -> (SpokenDateRange, Int)? {
        var position = index
        var relation = text.word(position).flatMap { Self.relations[$0] != nil ? $0 : nil }
        if relation != nil { position += 1 }
        guard var number = dates.numbers.parse(at: position) else { return nil }
        // "2 quarters" reads as the fraction 2/4: the count is back in quarters.
        if let last = text.word(number.endToken - 1), last == "quarters" || last == "quarter", number.endToken - 1 > position {
            let count = (number.value.double * 4).rounded()
            guard count >= 1, count <= 1000 else { return nil }
            number.value = .integer(Int64(count))
            number.kind = .cardinal
            number.endToken -= 1
        }
        guard number.kind == .cardinal, number.value.isInteger, number.value.double >= 1, number.value.double <= 1000 else { return nil }
        position = number.endToken
        if relation == nil, let word = text.word(position), ["next", "coming", "upcoming", "past", "previous", "last"].contains(word) {
            relation = word
            position += 1
        }
        guard let relation, relation != "this", relation != "current", let unitWord = text.word(position) else { return nil }
        let count = Int(number.value.double)
        // "last 2 quarters", "the coming three quarters": whole quarters, from the current one's start.
        if unitWord == "quarters" || unitWord == "quarter" {
            let current = CivilDate(year: reference.year, month: (reference.month - 1) / 3 * 3 + 1, day: 1)!
            let forward = (Self.relations[relation] ?? 1) > 0
            let start = forward ? current.adding(months: 3) : current.adding(months: -3 * count)
            let end = forward ? start.adding(months: 3 * count) : current
            return (fixedSpan(start, end, duration: "P" + String(3 * count) + "M"), position + 1)
        }
        // "the next two decades": 20 years, "last 2 fortnights": 4 weeks.
        guard let said = DateTimeWords.units[unitWord], !said.isTime, count * said.multiple <= 1000 else { return nil }
        let unit = said.base
        let units = count * said.multiple
        let forward = (Self.relations[relation] ?? 1) > 0
        func shift(_ date: CivilDate, _ n: Int) -> CivilDate {
            switch unit.letter {
            case "D": return date.adding(days: n)
            case "W": return date.adding(days: 7 * n)
            case "M": return date.adding(months: n)
            default: return date.adding(months: 12 * n)
            }
        }
        let duration = "P" + String(units) + unit.letter
        if forward {
            let start = reference.adding(days: 1)
            return (fixedSpan(start, shift(start, units), duration: duration), position + 1)
        }
        return (fixedSpan(shift(reference, -units), reference, duration: duration), position + 1)
    }

    /// "q1", "Q3 2017", "2017 q1", "q1-2019".
    func quarter(at index: Int) -> (SpokenDateRange, Int)? {
        var position = index
        var year: Int?
        if let (y, end) = dates.year(at: position) {
            year = y
            position = end
        }
        // "2017-q1", "2019-H2".
        if year != nil, let dash = text.token(position), dash.isSymbol("-"), !dash.spaceBefore { position += 1 }
        // "2019 H2": a half of a year said.
        if let year, text.word(position) == "h", let digits = text.token(position + 1), digits.isDigits, !digits.spaceBefore,
           let h = Int(digits.text), h == 1 || h == 2 {
            let start = CivilDate(year: year, month: 6 * h - 5, day: 1)!
            return (fixedSpan(start, start.adding(months: 6), duration: "P6M"), position + 2)
        }
        // "1st quarter of 2013", "the third quarter of 2019".
        if year == nil, let (q, end) = ordinalQuarter(at: position) { return (q, end) }
        guard let word = text.word(position), word == "q", let digits = text.token(position + 1), digits.isDigits,
              !digits.spaceBefore, let q = Int(digits.text), q >= 1, q <= 4 else {
            return nil
        }
        position += 2
        if year == nil {
            var yearIndex = position
            if let dash = text.token(yearIndex), dash.isSymbol("-") || dash.isSymbol(",") { yearIndex += 1 }
            if let (y, end) = dates.year(at: yearIndex) {
                year = y
                position = end
            }
        }
        if let year {
            let start = CivilDate(year: year, month: 3 * q - 2, day: 1)!
            return (fixedSpan(start, start.adding(months: 3), duration: "P3M"), position)
        }
        return (openQuarter(q), position)
    }

    /// Quarter `q` with the year left open: the past and the future such quarter.
    private func openQuarter(_ q: Int) -> SpokenDateRange {
        let thisYear = CivilDate(year: reference.year, month: 3 * q - 2, day: 1)!
        let future = thisYear.adding(months: 3) > reference ? thisYear : thisYear.adding(months: 12)
        let past = thisYear <= reference ? thisYear : thisYear.adding(months: -12)
        let timex = "(XXXX-" + Timex.pad(3 * q - 2, 2) + "-01,XXXX-" + Timex.pad((3 * q) % 12 + 1, 2) + "-01,P3M)"
        return SpokenDateRange(timex: timex, spans: [(past, past.adding(months: 3)), (future, future.adding(months: 3))])
    }

    private func ordinalQuarter(at index: Int) -> (SpokenDateRange, Int)? {
        var position = index
        if text.word(position) == "the" { position += 1 }
        guard let number = dates.numbers.parse(at: position), number.kind == .ordinal, number.value.isInteger,
              number.value.double >= 1, number.value.double <= 4, let word = text.word(number.endToken),
              word == "quarter" || word == "qtr" else { return nil }
        let q = Int(number.value.double)
        // "4th quarter 2018", "the 4th qtr of 2018"; without a year, open ("third quarter").
        var yearIndex = number.endToken + 1
        if text.word(yearIndex) == "of" { yearIndex += 1 }
        guard let (year, end) = dates.year(at: yearIndex) else {
            return text.word(number.endToken + 1) == "of" ? nil : (openQuarter(q), number.endToken + 1)
        }
        let start = CivilDate(year: year, month: 3 * q - 2, day: 1)!
        return (fixedSpan(start, start.adding(months: 3), duration: "P3M"), end)
    }

    /// "May", "in May" (the year left open), "May 2017", "2017 april", "Dec/2018", "April in 2016".
    func monthRange(at index: Int) -> (SpokenDateRange, Int)? {
        if let (year, afterYear) = dates.year(at: index), let (month, end) = dates.monthName(at: afterYear) {
            return (monthSpan(year: year, month: month), end)
        }
        // "2014-10", "2014/10": an ISO year and month (a day after it makes a date instead).
        if let token = text.token(index), token.isDigits, let (year, afterYear) = dates.year(at: index),
           let mark = text.token(afterYear), mark.isSymbol("-") || mark.isSymbol("/"), !mark.spaceBefore,
           let monthToken = text.token(afterYear + 1), monthToken.isDigits, !monthToken.spaceBefore, monthToken.text.count == 2,
           let month = Int(monthToken.text), month >= 1, month <= 12,
           text.token(afterYear + 2).map({ !$0.spaceBefore }) != true {
            return (monthSpan(year: year, month: month), afterYear + 2)
        }
        guard let (month, afterMonth) = dates.monthName(at: index) else { return nil }
        var position = afterMonth
        if let slash = text.token(position), slash.isSymbol("/") || slash.isSymbol(",") || slash.isSymbol("-") { position += 1 }
        if text.word(position) == "in" || text.word(position) == "of" { position += 1 }
        if let (year, end) = dates.year(at: position) { return (monthSpan(year: year, month: month), end) }
        // A month alone must look like one: capitalised, or after "in", "during", "since"….
        let word = text[index].text
        guard text[index].capitalized || (text.word(index - 1).map { DateTimeWords.monthLeads.contains($0) } ?? false),
              word != "may" || text[index].capitalized && index > 0 && (text.word(index - 1).map { DateTimeWords.monthLeads.contains($0) } ?? false),
              word != "march" || text[index].capitalized || (text.word(index - 1).map { DateTimeWords.monthLeads.contains($0) } ?? false)
        else { return nil }
        let pastYear = month <= reference.month ? reference.year : reference.year - 1
        let futureYear = month >= reference.month ? reference.year : reference.year + 1
        let past = monthSpan(year: pastYear, month: month).spans[0], future = monthSpan(year: futureYear, month: month).spans[0]
        return (SpokenDateRange(timex: "XXXX-" + Timex.pad(month, 2), spans: [past, future]), afterMonth)
    }

    /// "week 31", "the week 10".
    func numberedWeek(at index: Int) -> (SpokenDateRange, Int)? {
        guard text.word(index) == "week", let digits = text.token(index + 1), digits.isDigits, let week = Int(digits.text),
              week >= 1, week <= 53 else { return nil }
        let januaryFourth = CivilDate(year: reference.year, month: 1, day: 4)!
        let start = januaryFourth.weekStart.adding(days: 7 * (week - 1))
        return (SpokenDateRange(timex: Timex.pad(reference.year, 4) + "-W" + Timex.pad(week, 2), spans: [(start, start.adding(days: 7))]), index + 2)
    }

    /// A year said as one: "in 2017", "the year 2008", "during 1999", "cy 2008", "2150" after "in".
    func yearRange(at index: Int) -> (SpokenDateRange, Int)? {
        var position = index
        var said = false
        if let word = text.word(position), word == "year" || word == "cy" {
            said = true
            position += 1
        }
        guard let (year, end) = dates.year(at: position) else { return nil }
        if !said {
            guard let lead = text.word(index - 1), ["in", "during", "since", "of", "for", "year", "until", "till", "by", "before", "after", "and", "from", "to", "through", "between", "than", "on", "as"].contains(lead) else {
                return nil
            }
        }
        if let next = text.token(end), next.isSymbol("%") || next.isSymbol(",") && text.token(end + 1)?.isDigits == true { return nil }
        return (yearSpan(year), end)
    }

    // MARK: between

    /// "from May 4 to May 10", "between 2014 and 2018", "2014-2018", "from 10/1/2018 - 10/7/2018",
    /// "November 18-19", "Nov-Feb 2017", "May to March".
    func between(at index: Int) -> (SpokenDateRange, Int)? {
        var position = index
        let lead = text.word(position)
        if lead == "from" || lead == "between" { position += 1 }
        // "November 18-19": one month, two days.
        if let (month, afterMonth) = dates.monthName(at: position), let (day1, afterDay1) = dates.dayNumber(at: afterMonth),
           let dash = text.token(afterDay1), dash.isSymbol("-") || Self.dayJoiners.contains(dash.text),
           let (day2, afterDay2) = dates.dayNumber(at: afterDay1 + 1), day2 > day1 {
            let first = SpokenDate(kind: .monthDay(month: month, day: day1)), second = SpokenDate(kind: .monthDay(month: month, day: day2))
            if let span = span(first, second) { return (span, afterDay2) }
        }
        // "13th to 15th July", "from the 13 to the 15th of July", "1-8 september": two days, the month after.
        var dayStart = position
        if text.word(dayStart) == "the" { dayStart += 1 }
        if let (day1, afterDay1) = dates.dayNumber(at: dayStart), let dash = text.token(afterDay1),
           dash.isSymbol("-") || Self.dayJoiners.contains(dash.text),
           let (second, afterSecond) = dates.dayMonth(at: afterDay1 + 1) {
            let first: SpokenDate?
            switch second.kind {
            case .monthDay(let month, let day2) where day2 > day1: first = SpokenDate(kind: .monthDay(month: month, day: day1))
            case .exact(let date) where date.day > day1: first = CivilDate(year: date.year, month: date.month, day: day1).map { SpokenDate(kind: .exact($0)) }
            default: first = nil
            }
            if let first, let span = span(first, second) { return (span, afterSecond) }
        }
        guard let (first, afterFirst) = endpoint(at: position) else { return nil }
        guard let joiner = text.token(afterFirst) else { return nil }
        let joins = lead == "between" ? joiner.text == "and" || joiner.isSymbol("-") || joiner.isSymbol("~") || joiner.text == "through"
            : joiner.text == "to" || joiner.text == "till" || joiner.text == "until" || joiner.text == "through" || joiner.text == "thru" || joiner.isSymbol("-") || joiner.isSymbol("~")
        guard joins, let (second, afterSecond) = endpoint(at: afterFirst + 1) else { return nil }
        if lead == nil || (lead != "from" && lead != "between") {
            // Without "from"/"between" only the hyphen and "to"/"through" join, and both ends must be dates.
            guard joiner.isSymbol("-") || joiner.isSymbol("~") || joiner.text == "to" || joiner.text == "through" else { return nil }
        }
        return combine(first, second).map { ($0, afterSecond) }
    }

    /// One end of a range: where it starts, with the year said or left open.
    private struct Endpoint {
        enum Unit { case day, month, year }
        var unit: Unit
        /// The first day of the end; its year is ignored when `openYear`.
        var date: CivilDate
        var openYear: Bool
        /// Readings that do not follow from the month and day alone ("the 4th", "Monday"): (past, future).
        var readings: (past: CivilDate, future: CivilDate)?
        /// The TIMEX of such an end as said ("XXXX-XX-04", "XXXX-WXX-1").
        var saidTimex: String?
        /// Whether a year was said, which then serves the other end too.
        var yearSaid = true

        static func exact(_ date: CivilDate, _ unit: Unit = .day) -> Endpoint { Endpoint(unit: unit, date: date, openYear: false) }

        var timex: String { saidTimex ?? (openYear ? "XXXX" + String(date.text.dropFirst(4)) : date.text) }
    }

    private func endpoint(at index: Int) -> (Endpoint, Int)? {
        if let word = text.word(index), word == "now" || word == "today" {
            var now = Endpoint.exact(reference)
            now.yearSaid = false
            return (now, index + 1)
        }
        if let (date, end) = dates.monthDay(at: index) ?? dates.dayMonth(at: index) ?? dates.numericDate(at: index) ?? dates.relativeDay(at: index) {
            switch date.kind {
            case .exact(let day), .openCentury(let day):
                var said = Endpoint.exact(day)
                said.yearSaid = dates.relativeDay(at: index) == nil
                return (said, end)
            case .monthDay(let month, let day):
                // February 29th: a leap year stands in until the range settles the year.
                return (Endpoint(unit: .day, date: CivilDate(year: 2000, month: month, day: day)!, openYear: true), end)
            default:
                let readings = date.readings(reference)
                guard let past = readings.first, let future = readings.last else { return nil }
                return (Endpoint(unit: .day, date: future, openYear: false, readings: (past, future), saidTimex: date.timex), end)
            }
        }
        if let (year, afterYear) = dates.year(at: index), let (month, end) = dates.monthName(at: afterYear) {
            return (.exact(CivilDate(year: year, month: month, day: 1)!, .month), end)
        }
        if let (month, afterMonth) = dates.monthName(at: index) {
            var position = afterMonth
            if let mark = text.token(position), mark.isSymbol("/") || mark.isSymbol(",") || mark.isSymbol("-") { position += 1 }
            if text.word(position) == "in" || text.word(position) == "of" { position += 1 }
            if let (year, end) = dates.year(at: position) { return (.exact(CivilDate(year: year, month: month, day: 1)!, .month), end) }
            return (Endpoint(unit: .month, date: CivilDate(year: 2000, month: month, day: 1)!, openYear: true), afterMonth)
        }
        if let (year, end) = dates.year(at: index) { return (.exact(CivilDate(year: year, month: 1, day: 1)!, .year), end) }
        return nil
    }

    /// LUIS's readings of an end whose year is open, read on its own: the future one not before the
    /// reference (a day) or its month, the past one before.
    private func openReadings(_ end: Endpoint) -> (past: CivilDate, future: CivilDate)? {
        if let readings = end.readings { return readings }
        guard end.openYear else { return (end.date, end.date) }
        func on(_ year: Int) -> CivilDate? {
            CivilDate(year: year, month: end.date.month, day: end.date.day) ?? CivilDate(year: year, month: 2, day: 28)
        }
        let year = reference.year
        if end.unit == .month {
            let month = end.date.month
            guard let future = on(month >= reference.month ? year : year + 1), let past = on(month < reference.month ? year : year - 1) else { return nil }
            return (past, future)
        }
        guard let thisYear = on(year) else { return nil }
        // A day is taken at midnight: today is in the future when the reference is midnight too.
        let todayIsFuture = !referenceAfterMidnight
        let isFuture = thisYear > reference || (thisYear == reference && todayIsFuture)
        guard let future = isFuture ? thisYear : on(year + 1), let past = isFuture ? on(year - 1) : thisYear else { return nil }
        return (past, future)
    }

    private func combine(_ first: Endpoint, _ second: Endpoint) -> SpokenDateRange? {
        var first = first, second = second
        // One year said serves both ends: "26 june to 28 june in 2020", "5/1-5/7/2020".
        if first.openYear, !second.openYear, second.readings == nil, second.yearSaid {
            first.openYear = false
            first.date = CivilDate(year: second.date.year, month: first.date.month, day: first.date.day) ?? first.date
            if first.date >= second.date { first.date = first.date.adding(months: -12) }
        } else if second.openYear, !first.openYear, first.readings == nil, first.yearSaid {
            second.openYear = false
            second.date = CivilDate(year: first.date.year, month: second.date.month, day: second.date.day) ?? second.date
            if second.date <= first.date { second.date = second.date.adding(months: 12) }
        }
        // Each end is read on its own; a future start after its end falls back to the past start, a past
        // end before its start moves to the future end (as LUIS settles "from Nov to March").
        guard let a = openReadings(first), let b = openReadings(second) else { return nil }
        var future = (start: a.future, end: b.future), past = (start: a.past, end: b.past)
        if future.start >= future.end { future.start = a.past }
        if past.end <= past.start { past.end = b.future }
        var spans: [(start: CivilDate, end: CivilDate)] = []
        for span in [past, future] where span.start < span.end && !spans.contains(where: { $0.start == span.start && $0.end == span.end }) {
            spans.append(span)
        }
        guard let shown = spans.first else { return nil }
        let duration: String
        if first.unit == .year && second.unit == .year {
            duration = "P" + String(shown.end.year - shown.start.year) + "Y"
        } else if first.unit != .day && second.unit != .day {
            duration = "P" + String((shown.end.year - shown.start.year) * 12 + shown.end.month - shown.start.month) + "M"
        } else {
            duration = "P" + String(shown.start.days(until: shown.end)) + "D"
        }
        return SpokenDateRange(timex: "(" + first.timex + "," + second.timex + "," + duration + ")", spans: spans)
    }

    /// The range between two dates said, in LUIS's "(start,end,PnD)" form.
    private func span(_ first: SpokenDate, _ second: SpokenDate) -> SpokenDateRange? {
        let a = first.readings(reference), b = second.readings(reference)
        guard !a.isEmpty, !b.isEmpty else { return nil }
        var spans: [(start: CivilDate, end: CivilDate)] = []
        if a.count == b.count {
            for (start, end) in zip(a, b) where start < end { spans.append((start, end)) }
        } else if let start = a.last, let end = b.first(where: { $0 > start }) ?? b.last, start < end {
            spans.append((start, end))
        }
        guard let days = spans.first.map({ $0.start.days(until: $0.end) }) else { return nil }
        var range = SpokenDateRange(timex: "(" + first.timex + "," + second.timex + ",P" + String(days) + "D)", spans: spans)
        // "from easter to pentecost": each year's span with its own days.
        if first.movesWithYear || second.movesWithYear {
            range.spanTimexes = spans.map {
                "(" + first.timex(of: $0.start) + "," + second.timex(of: $0.end) + ",P" + String($0.start.days(until: $0.end)) + "D)"
            }
        }
        return range
    }

    /// "passover 2018", "ramadan", "rosh hashanah of 2019": a holiday of several days, end exclusive as
    /// for named periods; without a year, the past and the next one.
    func holidaySpan(at index: Int) -> (SpokenDateRange, Int)? {
        guard let (first, last, afterName) = Holiday.readSpan(text, at: index) else { return nil }
        func span(_ year: Int) -> (start: CivilDate, end: CivilDate)? {
            guard let start = first.date(in: year), let end = last.date(in: year)?.adding(days: 1), start < end else { return nil }
            return (start, end)
        }
        func range(_ spans: [(start: CivilDate, end: CivilDate)], timex: @escaping (CivilDate) -> String) -> SpokenDateRange? {
            func spanTimex(_ span: (start: CivilDate, end: CivilDate)) -> String {
                "(" + timex(span.start) + "," + timex(span.end) + ",P" + String(span.start.days(until: span.end)) + "D)"
            }
            guard let shown = spans.first else { return nil }
            // Such a holiday falls on other days each year (and may last another number of days: Ramadan has 29 or
            // 30): each span has its own TIMEX.
            return SpokenDateRange(timex: spanTimex(shown), spans: spans, spanTimexes: spans.map(spanTimex))
        }
        var yearIndex = afterName
        if let word = text.word(yearIndex), word == "of" || word == "in" { yearIndex += 1 }
        if let (year, end) = dates.year(at: yearIndex) {
            return span(year).flatMap { range([$0], timex: { $0.text }) }.map { ($0, end) }
        }
        let around = (reference.year - 1...reference.year + 1).compactMap(span)
        guard let past = around.last(where: { $0.start <= reference }), let future = around.first(where: { $0.start > reference }) else { return nil }
        return range([past, future], timex: { "XXXX" + String($0.text.dropFirst(4)) }).map { ($0, afterName) }
    }

    /// "from 18th Dec for 10 days", "for 10 days from 18th Dec": days counted from a date said, end exclusive.
    func daysFromDate(at index: Int) -> (SpokenDateRange, Int)? {
        func days(at position: Int) -> (Int, Int)? {
            guard let (amount, unit, end) = dates.durations.amount(at: position), unit.letter == "D" || unit.letter == "W",
                  amount == amount.rounded(), amount >= 1, amount <= 3660 else { return nil }
            return (Int(amount) * (unit.letter == "W" ? 7 : 1), end)
        }
        let start: SpokenDate, count: Int, end: Int
        if text.word(index) == "for", let (n, afterDays) = days(at: index + 1), text.word(afterDays) == "from",
           let (date, afterDate) = dates.date(at: afterDays + 1) {
            (start, count, end) = (date, n, afterDate)
        } else {
            // "the 9th of May for 2 days" alone is a date and a duration, as Recognizers-Text reads it.
            guard text.word(index) == "from", let (date, afterDate) = dates.date(at: index + 1), text.word(afterDate) == "for",
                  let (n, afterDays) = days(at: afterDate + 1) else { return nil }
            (start, count, end) = (date, n, afterDays)
        }
        let spans = start.readings(reference).map { (start: $0, end: $0.adding(days: count)) }
        guard let shown = spans.first, spans.allSatisfy({ $0.end.year <= 9999 }) else { return nil }
        func spanTimex(_ span: (start: CivilDate, end: CivilDate)) -> String {
            let open = start.timex(of: span.start)
            return "(" + open + "," + (open.hasPrefix("XXXX") ? "XXXX" + String(span.end.text.dropFirst(4)) : span.end.text) + ",P" + String(count) + "D)"
        }
        var range = SpokenDateRange(timex: spanTimex(shown), spans: spans)
        // "from easter for 10 days": each year's span from its own Easter.
        if start.movesWithYear { range.spanTimexes = spans.map(spanTimex) }
        return (range, end)
    }

    // MARK: spans

    // A month or year past 1…9999 ("next month" in December 9999) is spanned as it is, not clamped to a wrong one:
    // the recognizer drops the reading.
    func monthSpan(year: Int, month: Int) -> SpokenDateRange {
        let start = CivilDate.first(ofMonth: month, year: year)
        return SpokenDateRange(timex: Timex.pad(start.year, 4) + "-" + Timex.pad(month, 2), spans: [(start, start.adding(months: 1))])
    }

    func yearSpan(_ year: Int) -> SpokenDateRange {
        let start = CivilDate.first(ofMonth: 1, year: year)
        return SpokenDateRange(timex: Timex.pad(start.year, 4), spans: [(start, start.adding(months: 12))])
    }

    private func fixedSpan(_ start: CivilDate, _ end: CivilDate, duration: String) -> SpokenDateRange {
        SpokenDateRange(timex: "(" + start.text + "," + end.text + "," + duration + ")", spans: [(start, end)])
    }
}

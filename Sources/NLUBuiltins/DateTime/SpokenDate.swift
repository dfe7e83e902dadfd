/// A date as it was said: complete ("May 4, 2017", "tomorrow"), or with the year, the month or the
/// week left open ("May 4th", "the 4th", "Monday"), which LUIS resolves to a past and a future date.
struct SpokenDate: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case exact(CivilDate)
        case monthDay(month: Int, day: Int)
        case dayOfMonth(Int)
        case weekday(Int)
        /// "Monday 21": the 21st of a month in which it is a Monday.
        case weekdayAndDay(weekday: Int, day: Int)
        /// "12/12/30": a two-digit year LUIS leaves open to the century ("XX30-12-12", read as 1930).
        case openCentury(CivilDate)
        /// "christmas", "thanksgiving", "easter": a holiday without its year, with the TIMEX shared by its readings
        /// ("XXXX-12-25", "XXXX-11-WXX-4-4"); one that moves has a TIMEX per reading (``SpokenDate/timex(of:)``).
        case holiday(Holiday, timex: String)
        /// "este 12/05", "próximo 6 de abril": a day said without its year, the words before it choosing which
        /// one; its TIMEX leaves the year open ("XXXX-05-12").
        case yearChosen(CivilDate)
    }

    var kind: Kind

    /// TIMEX: "2016-11-08", "XXXX-05-04", "XXXX-XX-04", "XXXX-WXX-1".
    var timex: String {
        switch kind {
        case .exact(let date): return date.text
        case .monthDay(let month, let day): return "XXXX-" + Timex.pad(month, 2) + "-" + Timex.pad(day, 2)
        case .dayOfMonth(let day): return "XXXX-XX-" + Timex.pad(day, 2)
        case .weekday(let weekday), .weekdayAndDay(let weekday, _): return "XXXX-WXX-" + String(weekday)
        case .openCentury(let date): return "XX" + String(date.text.dropFirst(2))
        case .yearChosen(let date): return "XXXX" + String(date.text.dropFirst(4))
        case .holiday(_, let timex): return timex
        }
    }

    /// The TIMEX of one of the readings: ``timex``, except for a holiday whose month and day move from year to year
    /// ("easter", "diwali"), whose readings fall on different days: each is written with its own ("XXXX-04-16" for
    /// Easter 2017, "XXXX-04-01" for Easter 2018), so that the TIMEX always agrees with the value beside it.
    func timex(of reading: CivilDate) -> String {
        movesWithYear ? "XXXX" + String(reading.text.dropFirst(4)) : timex
    }

    /// A holiday without its year whose month and day change from year to year.
    var movesWithYear: Bool {
        guard case .holiday(let holiday, _) = kind else { return false }
        return holiday.openYearTimex == nil
    }

    /// The dates meant: the one date, or the past and the future readings relative to `reference`.
    func readings(_ reference: CivilDate) -> [CivilDate] {
        switch kind {
        case .exact(let date), .openCentury(let date), .yearChosen(let date):
            return [date]
        case .monthDay(let month, let day):
            let candidates = (reference.year - 4...reference.year + 4).compactMap { CivilDate(year: $0, month: month, day: day) }
            return Self.pastAndFuture(candidates, reference)
        case .dayOfMonth(let day):
            let thisMonth = CivilDate(year: reference.year, month: reference.month, day: 1)!
            let candidates = (-3...3).compactMap { offset -> CivilDate? in
                let first = thisMonth.adding(months: offset)
                return CivilDate(year: first.year, month: first.month, day: day)
            }
            return Self.pastAndFuture(candidates, reference)
        case .weekday(let weekday):
            let future = reference.adding(days: (weekday - reference.weekday + 7) % 7)
            return [future.adding(days: -7), future]
        case .holiday(let holiday, _):
            return Self.pastAndFuture((reference.year - 1...reference.year + 1).compactMap { holiday.date(in: $0) }, reference)
        case .weekdayAndDay(let weekday, let day):
            // Some month within 14 has such a day on that weekday; search both ways from this month.
            let thisMonth = CivilDate(year: reference.year, month: reference.month, day: 1)!
            func found(_ offset: Int) -> CivilDate? {
                let first = thisMonth.adding(months: offset)
                return CivilDate(year: first.year, month: first.month, day: day).flatMap { $0.weekday == weekday ? $0 : nil }
            }
            let past = (0...28).lazy.compactMap { found(-$0) }.first { $0 <= reference }
            let future = (0...28).lazy.compactMap { found($0) }.first { $0 >= reference }
            return [past, future].compactMap { $0 }
        }
    }

    /// The last of `candidates` (ascending) on or before the reference and the first on or after it. Near the ends
    /// of the years 1…9999 one of them may not exist ("May 4th" said on 9999-12-31 has no future reading): the
    /// other is still meant, as a weekday keeps its past reading where its future one leaves the years.
    private static func pastAndFuture(_ candidates: [CivilDate], _ reference: CivilDate) -> [CivilDate] {
        [candidates.last(where: { $0 <= reference }), candidates.first(where: { $0 >= reference })].compactMap { $0 }
    }
}

/// A time of day as said: "7pm" (exact), "at 7" (ambiguous: 07:00 or 19:00), with the precision said
/// ("T19" vs "T19:00").
struct SpokenTime: Sendable, Equatable {
    var hour: Int
    var minute: Int
    var second: Int
    /// 1: the hour only; 2: minutes said; 3: seconds said.
    var precision: Int
    /// No "am"/"pm" or part of the day: an hour from 1 to 11 may be morning or evening.
    var ambiguous: Bool

    /// Whether an open 12 is also midnight ("a las 12", "12h55" in the French and Spanish specs; English reads noon).
    var twelveIsMidnightToo = false

    /// The readings as (hour, minute, second): one, or the morning and the evening one.
    var readings: [(Int, Int, Int)] {
        if ambiguous, hour >= 1, hour <= 11 { return [(hour, minute, second), (hour + 12, minute, second)] }
        if ambiguous, twelveIsMidnightToo, hour == 12 { return [(12, minute, second), (0, minute, second)] }
        return [(hour, minute, second)]
    }

    func timex(_ reading: (Int, Int, Int)) -> String { Timex.time(reading.0, reading.1, reading.2, precision: precision) }

    /// The same time moved after noon ("7" said with "pm" or "in the evening").
    func afternoon() -> SpokenTime {
        var time = self
        if time.hour < 12 { time.hour += 12 }
        time.ambiguous = false
        return time
    }

    func morning() -> SpokenTime {
        var time = self
        if time.hour == 12 { time.hour = 0 }
        time.ambiguous = false
        return time
    }

    /// The time said with a part of the day: an open hour takes the part's half ("7" in the evening is 19:00).
    func within(_ part: DateTimeWords.PartOfDay) -> SpokenTime {
        guard ambiguous else { return self }
        return part.afternoon ? afternoon() : morning()
    }

    var seconds: Int { hour * 3600 + minute * 60 + second }
}

/// A span of days: "next week", "May 2017", "from May 4 to May 10"; one or, when the year is open,
/// two readings (past and future), each `start..<end`.
struct SpokenDateRange: Sendable {
    var timex: String
    var spans: [(start: CivilDate, end: CivilDate)]
    /// LUIS's `Mod` for a part of a period: "start", "mid", "end".
    var mod: String? = nil
    /// Each span's TIMEX, where the spans fall on other days of the year (a moving holiday's: "passover" is
    /// "(XXXX-04-11,XXXX-04-19,P8D)" one year and "(XXXX-03-31,XXXX-04-08,P8D)" the next); nil: ``timex`` for all.
    var spanTimexes: [String]? = nil

    /// The TIMEX written beside the span at `index`.
    func timex(ofSpan index: Int) -> String {
        guard let spanTimexes, spanTimexes.indices.contains(index) else { return timex }
        return spanTimexes[index]
    }
}

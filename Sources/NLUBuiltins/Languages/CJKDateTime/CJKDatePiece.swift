/// One part of a Chinese or Japanese date-time as ``CJKDateTimeReader`` reads it, before it is resolved: a day, a
/// span of days (a year, a month, a week), a clock time, a day with a time or a part of the day, or a part of the day.
enum CJKDatePiece {
    case day(SpokenDate)
    case span(CJKDaySpan)
    case clock(SpokenTime)
    case dayClock(SpokenDate, SpokenTime)
    case dayPart(SpokenDate, DateTimeWords.PartOfDay)
    case part(DateTimeWords.PartOfDay)
    /// A season of a year ("2017-SU"), which LUIS leaves unresolved.
    case season(String)
    /// The last moment of a day ("日曜日の終わり").
    case dayEnd(SpokenDate)
}

/// A span of days as said: its TIMEX ("2016", "XXXX-03", "2017-W14"), its readings (one, or a past and a future one
/// when the year is open), and the unit it is counted in, which a range between two spans keeps ("2014年から2018年" is
/// "P4Y", "3月到5月" "P2M").
struct CJKDaySpan {
    enum Unit { case year, month, week, other }

    var timex: String
    var readings: [(start: CivilDate, end: CivilDate)]
    var unit: Unit
    /// Whether the year was left open ("3月", "XXXX-03").
    var openYear = false
    var mod: String?

    /// A whole year.
    static func year(_ year: Int) -> CJKDaySpan? {
        guard let start = CivilDate(year: year, month: 1, day: 1) else { return nil }
        return CJKDaySpan(timex: Timex.pad(year, 4), readings: [(start, start.adding(months: 12))], unit: .year)
    }

    /// A month of a year.
    static func month(_ month: Int, of year: Int) -> CJKDaySpan? {
        guard let start = CivilDate(year: year, month: month, day: 1) else { return nil }
        return CJKDaySpan(timex: Timex.pad(year, 4) + "-" + Timex.pad(month, 2), readings: [(start, start.adding(months: 1))], unit: .month)
    }

    /// A month without its year: the one that began last before `today` and the next one to begin.
    static func openMonth(_ month: Int, today: CivilDate) -> CJKDaySpan? {
        guard (1...12).contains(month), let thisYear = CivilDate(year: today.year, month: month, day: 1) else { return nil }
        let past = thisYear <= today ? thisYear : thisYear.adding(months: -12)
        let future = past.adding(months: 12)
        return CJKDaySpan(timex: "XXXX-" + Timex.pad(month, 2), readings: [(past, past.adding(months: 1)), (future, future.adding(months: 1))],
                          unit: .month, openYear: true)
    }

    /// The ISO week holding `day`.
    static func week(of day: CivilDate) -> CJKDaySpan {
        let monday = day.weekStart, (year, week) = monday.isoWeek
        return CJKDaySpan(timex: Timex.pad(year, 4) + "-W" + Timex.pad(week, 2), readings: [(monday, monday.adding(days: 7))], unit: .week)
    }

    /// The weekend (Saturday to Monday) of the ISO week holding `day`.
    static func weekend(of day: CivilDate) -> CJKDaySpan {
        let monday = day.weekStart, (year, week) = monday.isoWeek
        return CJKDaySpan(timex: Timex.pad(year, 4) + "-W" + Timex.pad(week, 2) + "-WE",
                          readings: [(monday.adding(days: 5), monday.adding(days: 7))], unit: .other)
    }

    /// A span from `start` to `end` written as LUIS writes one: "(2016-01-01,2018-01-01,P2Y)".
    static func between(_ start: CivilDate, _ end: CivilDate, startTimex: String, endTimex: String, unit: Unit) -> CJKDaySpan? {
        guard start < end else { return nil }
        let duration: String
        if unit == .year, start.month == end.month, start.day == end.day {
            duration = "P\(end.year - start.year)Y"
        } else if unit == .year || unit == .month, start.day == 1, end.day == 1 {
            duration = "P\((end.year - start.year) * 12 + end.month - start.month)M"
        } else {
            duration = "P\(start.days(until: end))D"
        }
        return CJKDaySpan(timex: "(" + startTimex + "," + endTimex + "," + duration + ")", readings: [(start, end)], unit: .other)
    }

    func values(type: String = "daterange") -> [DateTimeValue] {
        readings.map { DateTimeValue(timex: timex, type: type, start: $0.start.text, end: $0.end.text, mod: mod) }
    }
}

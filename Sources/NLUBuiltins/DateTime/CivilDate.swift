/// A proleptic Gregorian calendar date with the arithmetic date-times need (days between, weekday,
/// adding days and months), free of time zones. Only real dates exist: February 30th is nil.
///
///     CivilDate(year: 2016, month: 11, day: 7)?.adding(days: 1).text // "2016-11-08"
///
/// A date is made in the years 1…9999 (what ISO 8601's four-digit `text` and LUIS's values can write), but
/// arithmetic is exact and may step past them ("tomorrow" on 9999-12-31 is in year 10000): `isInSupportedYears`
/// says so, and the recognizer drops any reading that would write such a date rather than clamp it to a wrong one.
public struct CivilDate: Sendable, Hashable, Comparable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The date, or nil when it does not exist (month 13, February 30th, year outside 1…9999).
    public init?(year: Int, month: Int, day: Int) {
        guard year >= 1, year <= 9999, month >= 1, month <= 12, day >= 1, day <= CivilDate.daysIn(month: month, year: year) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The years a date is made in and a resolution may write.
    public static let supportedYears = 1...9999

    /// Whether the year is in ``supportedYears`` (false only for a result of arithmetic past them).
    public var isInSupportedYears: Bool { CivilDate.supportedYears.contains(year) }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's days-from-civil).
    var dayNumber: Int { CivilDate.dayNumber(year: year, month: month, day: day) }

    /// Days since 1970-01-01 of a day of any year (past 1…9999 too, for arithmetic that leaves them).
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (m <= 2 ? 1 : 0)
        month = m
        day = d
    }

    /// ISO weekday: Monday 1 … Sunday 7.
    public var weekday: Int {
        let value = (dayNumber + 3) % 7  // 1970-01-01 was a Thursday (4)
        return (value < 0 ? value + 7 : value) + 1
    }

    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    /// The same day `months` later, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). The year is
    /// not clamped: past 1…9999 the result says so with ``isInSupportedYears``.
    public func adding(months: Int) -> CivilDate {
        let total = year * 12 + (month - 1) + months
        // Floor division, so that months before year 0 stay months 1…12.
        let newYear = total >= 0 ? total / 12 : (total - 11) / 12, newMonth = total - newYear * 12 + 1
        return CivilDate.first(ofMonth: newMonth, year: newYear).adding(days: min(day, CivilDate.daysIn(month: newMonth, year: newYear)) - 1)
    }

    /// The first day of a month of any year (past 1…9999 too, for arithmetic that leaves them).
    static func first(ofMonth month: Int, year: Int) -> CivilDate {
        CivilDate(dayNumber: dayNumber(year: year, month: month, day: 1))
    }

    /// `adding(months:)`, or nil when the year would leave 1…9999 ("in 9000 years").
    func addingIfInRange(months: Int) -> CivilDate? {
        let total = year * 12 + (month - 1) + months
        guard total >= 12, total < 10_000 * 12 else { return nil }
        return adding(months: months)
    }

    public func days(until other: CivilDate) -> Int { other.dayNumber - dayNumber }

    /// The Monday of this date's ISO week.
    var weekStart: CivilDate { adding(days: 1 - weekday) }

    /// ISO 8601 week-numbering year and week.
    var isoWeek: (year: Int, week: Int) {
        let thursday = adding(days: 4 - weekday)
        let firstOfYear = CivilDate.dayNumber(year: thursday.year, month: 1, day: 1)
        return (thursday.year, (thursday.dayNumber - firstOfYear) / 7 + 1)
    }

    /// "2016-11-07".
    public var text: String { Timex.pad(year, 4) + "-" + Timex.pad(month, 2) + "-" + Timex.pad(day, 2) }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }
}

import Foundation
@testable import NLUBuiltins
import Testing

/// Every holiday the library knows, said without a year: the TIMEX beside each reading must describe that
/// reading's date. A fixed day keeps "XXXX-12-25"; the nth weekday of a month is written as Recognizers-Text
/// writes Thanksgiving ("XXXX-11-WXX-4-4"); a holiday whose day moves (Easter-based, lunar) is written with each
/// reading's own month and day — "diwali" said in June 2017 used to give "XXXX-10-30" beside 2017-10-19.
@Suite struct HolidayTimexTests {
    private static let references = ["2017-06-01T00:00:00", "2019-08-05T00:00:00", "2021-01-15T00:00:00", "2024-12-20T00:00:00"]

    private static let gregorian: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// Year, month, day and ISO weekday (Monday 1) of "YYYY-MM-DD", worked out by Foundation's calendar.
    private func parts(_ text: String) -> (year: Int, month: Int, day: Int, weekday: Int, daysInMonth: Int)? {
        let fields = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard fields.count == 3,
              let date = Self.gregorian.date(from: DateComponents(year: fields[0], month: fields[1], day: fields[2])),
              let days = Self.gregorian.range(of: .day, in: .month, for: date) else { return nil }
        let sundayFirst = Self.gregorian.component(.weekday, from: date)
        return (fields[0], fields[1], fields[2], (sundayFirst + 5) % 7 + 1, days.count)
    }

    /// Whether a date TIMEX ("2017-10-19", "XXXX-10-19", "XXXX-11-WXX-4-4", "XXXX-05-WXX-1-#5") is true of `value`.
    private func agrees(_ timex: String, _ value: String) -> Bool {
        guard let date = parts(value) else { return false }
        let fields = timex.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if fields.count == 3 {
            return (fields[0] == "XXXX" || Int(fields[0]) == date.year) && Int(fields[1]) == date.month && Int(fields[2]) == date.day
        }
        guard fields.count == 5, fields[0] == "XXXX", Int(fields[1]) == date.month, fields[2] == "WXX",
              Int(fields[3]) == date.weekday else { return false }
        let last = fields[4].hasPrefix("#5")
        guard let nth = Int(fields[4].drop(while: { $0 == "#" })) else { return false }
        return last ? date.day + 7 > date.daysInMonth : (date.day - 1) / 7 + 1 == nth
    }

    /// Whether a range TIMEX "(A,B,PnD)" is true of `start`..<`end`.
    private func agrees(range timex: String, start: String, end: String) -> Bool {
        let inner = timex.dropFirst().dropLast().split(separator: ",").map(String.init)
        guard timex.hasPrefix("("), timex.hasSuffix(")"), inner.count == 3, inner[2].hasPrefix("P"), inner[2].hasSuffix("D"),
              let days = Int(inner[2].dropFirst().dropLast()),
              let from = parts(start), let to = parts(end),
              let a = Self.gregorian.date(from: DateComponents(year: from.year, month: from.month, day: from.day)),
              let b = Self.gregorian.date(from: DateComponents(year: to.year, month: to.month, day: to.day)) else { return false }
        return agrees(inner[0], start) && agrees(inner[1], end) && Self.gregorian.dateComponents([.day], from: a, to: b).day == days
    }

    private func resolved(_ text: String, at reference: String) throws -> BuiltinEntity? {
        let reference = try ReferenceTime(iso8601: reference)
        return BuiltinRecognizer(types: [.date, .daterange]).entities(in: text, reference: reference).first { $0.text == text }
    }

    @Test func everyHolidaysTimexAgreesWithItsDates() throws {
        // Each name with the rule of its (first) day: a holiday from a table of years (1950-2050 at most; Global Youth
        // Service Day only to 2018) is no date in a year the table lacks.
        let names = Holiday.names.map { ($0.0.joined(separator: " "), $0.1) } + Holiday.spanNames.map { ($0.0.joined(separator: " "), $0.1.first) }
        #expect(names.count > 300)
        var checked = 0, undated = 0
        for reference in Self.references {
            let year = try ReferenceTime(iso8601: reference).date.year
            for (name, holiday) in names {
                guard let entity = try resolved(name, at: reference), case .dateTimes(let values) = entity.resolution else {
                    if (year - 1...year + 1).allSatisfy({ holiday.date(in: $0) != nil }) {
                        Issue.record("'\(name)' at \(reference) is not found as a date")
                    }
                    undated += 1
                    continue
                }
                #expect(!values.isEmpty)
                for value in values {
                    checked += 1
                    if let day = value.value {
                        #expect(agrees(value.timex, day), "'\(name)' at \(reference): \(value.timex) beside \(day)")
                    } else if let start = value.start, let end = value.end {
                        #expect(agrees(range: value.timex, start: start, end: end), "'\(name)' at \(reference): \(value.timex) beside \(start)..<\(end)")
                    } else {
                        Issue.record("'\(name)' at \(reference): a value without a date \(value)")
                    }
                }
            }
        }
        #expect(undated < 10 && checked >= (names.count * Self.references.count - undated) * 2)
    }

    @Test func movingHolidaysWriteEachReadingsOwnDay() throws {
        // Diwali 2016 was October 30th, Diwali 2017 October 19th (Duckling's table).
        let diwali = try #require(try resolved("diwali", at: "2017-06-01T00:00:00"))
        #expect(diwali.resolution == .dateTimes([DateTimeValue(timex: "XXXX-10-30", type: "date", value: "2016-10-30"),
                                                 DateTimeValue(timex: "XXXX-10-19", type: "date", value: "2017-10-19")]))
        // Thanksgiving: the fourth Thursday of November, one TIMEX for both years, as Recognizers-Text writes it.
        let thanksgiving = try #require(try resolved("thanksgiving", at: "2017-06-01T00:00:00"))
        #expect(thanksgiving.resolution == .dateTimes([DateTimeValue(timex: "XXXX-11-WXX-4-4", type: "date", value: "2016-11-24"),
                                                       DateTimeValue(timex: "XXXX-11-WXX-4-4", type: "date", value: "2017-11-23")]))
        // Memorial Day, the last Monday of May: 2021's was the fifth (May 31st).
        let memorial = try #require(try resolved("memorial day", at: "2021-01-15T00:00:00"))
        #expect(memorial.resolution == .dateTimes([DateTimeValue(timex: "XXXX-05-WXX-1-#5", type: "date", value: "2020-05-25"),
                                                   DateTimeValue(timex: "XXXX-05-WXX-1-#5", type: "date", value: "2021-05-31")]))
    }
}

import Foundation
@testable import NLUBuiltins
import Testing

/// Date-times resolved at the ends of the calendar: a reference on 9999-12-31 or 0001-01-01 must not make a
/// value with a year outside 1…9999 ("10000-01-01", "0000-12-31" are not ISO 8601 dates), must not clamp to a
/// wrong date ("next year" in 9999 as 9998), and must not trap.
@Suite struct SupportedYearsTests {
    private static let dateKinds: Set<BuiltinEntityType> = [.date, .datetime, .daterange, .datetimerange]

    /// Phrases of every date kind: relative days, periods, counted periods, offsets, weekdays, open years,
    /// holidays, parts of periods, dates with times and parts of the day.
    private static let phrases = [
        "tomorrow", "yesterday", "the day after tomorrow", "the day before yesterday", "next week", "last week",
        "this week", "this weekend", "next weekend", "next month", "last month", "this month", "next year", "last year",
        "this year", "next quarter", "last quarter", "next 3 days", "last 3 days", "next 2 weeks", "past 2 months",
        "next 2 years", "tomorrow at 7pm", "yesterday at 7pm", "tomorrow morning", "yesterday evening", "tonight",
        "in 2 hours", "2 hours ago", "in 3 days", "3 days ago", "in 1 year", "a year ago", "next friday", "last monday",
        "friday", "saturday", "dec 30", "jan 2", "the 4th", "christmas", "new year's day", "easter", "may 4th at 5pm",
        "end of the day", "end of this year", "early next week", "later this month", "next may", "last april",
        "2 weeks from tomorrow", "3 days before yesterday", "from dec 30 for 5 days", "now", "the end of next month",
        "since last week", "after next month", "before tomorrow",
    ]

    private static let references = ["0001-01-01T00:00:00", "0001-01-03T12:00:00", "9999-12-27T08:00:00", "9999-12-31T23:00:00"]

    private func entities(_ text: String, at reference: String) throws -> [(BuiltinEntityType, [DateTimeValue])] {
        BuiltinRecognizer(types: BuiltinEntityType.dateTimeTypes).entities(in: text, reference: try ReferenceTime(iso8601: reference))
            .compactMap { entity in
                guard case .dateTimes(let values) = entity.resolution else { return nil }
                return (entity.type, values)
            }
    }

    /// A value, start or end of a date kind begins with "YYYY-MM-DD": four digits from 0001 to 9999.
    private func isISODate(_ field: String) -> Bool {
        let date = Array(field.prefix(while: { $0 != " " }))
        guard date.count == 10, date[4] == "-", date[7] == "-", let year = Int(String(date[0..<4])),
              date[0..<4].allSatisfy(\.isASCII) else { return false }
        return (1...9999).contains(year)
    }

    @Test func noResolutionWritesAYearOutsideOneToNineThousandNineHundredNinetyNine() throws {
        for reference in Self.references {
            for phrase in Self.phrases {
                for (type, values) in try entities(phrase, at: reference) where Self.dateKinds.contains(type) {
                    for value in values {
                        for field in [value.value, value.start, value.end].compactMap({ $0 }) where field != "not resolved" {
                            #expect(isISODate(field), "\(phrase) at \(reference): \(type) \(field) (timex \(value.timex))")
                        }
                        #expect(!value.timex.contains("10000") && !value.timex.contains("0000-"), "\(phrase) at \(reference): timex \(value.timex)")
                    }
                }
            }
        }
    }

    @Test func aReadingPastTheLastYearIsDroppedAndTheOthersKept() throws {
        let end = "9999-12-31T23:00:00"
        // "tomorrow" would be 10000-01-01: no date at all (it was resolved to "10000-01-01").
        #expect(try entities("tomorrow", at: end).isEmpty)
        // "this year" would end (exclusive) on 10000-01-01; "next year" was clamped to 9998.
        #expect(try entities("this year", at: end).isEmpty)
        #expect(try entities("next year", at: end).allSatisfy { $0.0 != .daterange })
        // An open year keeps its past reading where the future one leaves the years.
        #expect(try entities("dec 30", at: end).map(\.1) == [[DateTimeValue(timex: "XXXX-12-30", type: "date", value: "9999-12-30")]])
        #expect(try entities("friday", at: end).first?.1.map(\.value) == ["9999-12-24", "9999-12-31"])
        #expect(try entities("saturday", at: end).first?.1.map(\.value) == ["9999-12-25"])
        #expect(try entities("now", at: end).first?.1.first?.value == "9999-12-31 23:00:00")
    }

    @Test func aReadingBeforeTheFirstYearIsDroppedAndTheOthersKept() throws {
        let start = "0001-01-01T00:00:00"
        #expect(try entities("yesterday", at: start).isEmpty)
        // "last month" was clamped into year 1 as 0001-12.
        #expect(try entities("last month", at: start).allSatisfy { $0.0 != .daterange })
        #expect(try entities("this year", at: start).first?.1 == [DateTimeValue(timex: "0001", type: "daterange", start: "0001-01-01", end: "0002-01-01")])
        #expect(try entities("jan 2", at: start).first?.1.map(\.value) == ["0001-01-02"])
        #expect(try entities("monday", at: "0001-01-03T12:00:00").first?.1.map(\.value) == ["0001-01-01", "0001-01-08"])
        #expect(try entities("wednesday", at: start).first?.1.map(\.value) == ["0001-01-03"])
    }

    @Test func calendarArithmeticIsExactPastTheSupportedYears() throws {
        let last = try #require(CivilDate(year: 9999, month: 12, day: 31))
        #expect(last.isInSupportedYears)
        let next = last.adding(days: 1)
        #expect((next.year, next.month, next.day) == (10000, 1, 1))
        #expect(!next.isInSupportedYears)
        // A month on is January 10000, not (as the year used to be clamped) January 9999.
        let month = try #require(CivilDate(year: 9999, month: 12, day: 15)).adding(months: 1)
        #expect((month.year, month.month, month.day) == (10000, 1, 15))
        let before = try #require(CivilDate(year: 1, month: 1, day: 31)).adding(months: -2)
        #expect((before.year, before.month, before.day) == (0, 11, 30))
        // The ISO week of the last days (it used to trap making January 1st, 10000).
        #expect(last.isoWeek == (9999, 52))
        #expect(try #require(CivilDate(year: 1, month: 1, day: 1)).isoWeek == (1, 1))
    }
}

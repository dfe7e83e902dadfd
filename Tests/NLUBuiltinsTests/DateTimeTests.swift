import Foundation
import NLUBuiltins
import Testing

/// Date-times against a fixed reference, Monday 2016-11-07 16:12 (the LUIS documentation's), values
/// worked out by hand on a calendar.
@Suite struct DateTimeTests {
    let reference = try! ReferenceTime(iso8601: "2016-11-07T16:12:00")

    func values(_ text: String) -> [(BuiltinEntityType, String, [DateTimeValue])] {
        BuiltinRecognizer(types: BuiltinEntityType.dateTimeTypes).entities(in: text, reference: reference).map { entity in
            guard case .dateTimes(let values) = entity.resolution else { return (entity.type, entity.text, []) }
            return (entity.type, entity.text, values)
        }
    }

    @Test func tomorrowAtSevenPMIsOneDateTime() throws {
        let found = values("Remind me tomorrow at 7pm")
        #expect(found.map(\.0) == [.datetime])
        #expect(found.first?.2 == [DateTimeValue(timex: "2016-11-08T19", type: "datetime", value: "2016-11-08 19:00:00")])
    }

    @Test func aWeekdayAloneHasAPastAndAFutureReading() {
        let found = values("see you Friday")
        #expect(found.first?.2.map(\.value) == ["2016-11-04", "2016-11-11"])
        #expect(found.first?.2.first?.timex == "XXXX-WXX-5")
        #expect(values("see you next Friday").first?.2.map(\.value) == ["2016-11-18"])
    }

    @Test func monthAndDayWithoutYearResolvesBothWays() {
        let found = values("on May 4th")
        #expect(found.first?.1 == "May 4th")
        #expect(found.first?.2.map(\.value) == ["2016-05-04", "2017-05-04"])
    }

    @Test func weekdayWithADayOfMonthIsThePastAndNextMonthWhereItFalls() {
        // 2016: the 21st is a Monday in March (past) and in November (future).
        let found = values("on Monday 21")
        #expect(found.first?.2.map(\.timex) == ["XXXX-WXX-1", "XXXX-WXX-1"])
        #expect(found.first?.2.map(\.value) == ["2016-03-21", "2016-11-21"])
    }

    @Test func monthToMonthWithoutYearReadsEachEndAlone() {
        // November is this month: the future range starts now-ish, the past one a year before.
        let found = values("from Nov to March")
        #expect(found.first?.2.map(\.timex) == ["(XXXX-11-01,XXXX-03-01,P4M)", "(XXXX-11-01,XXXX-03-01,P4M)"])
        #expect(found.first?.2.map(\.start) == ["2015-11-01", "2016-11-01"])
        #expect(found.first?.2.map(\.end) == ["2016-03-01", "2017-03-01"])
        // The reference inside the range: one reading, the range around it.
        #expect(values("from Oct to Dec").first?.2.map(\.start) == ["2016-10-01"])
    }

    @Test func partsOfPeriodsNarrowTheSpan() {
        let endOfYear = values("at the end of 2000").first
        #expect(endOfYear?.1 == "end of 2000")
        #expect(endOfYear?.2 == [DateTimeValue(timex: "2000", type: "daterange", start: "2000-09-01", end: "2001-01-01", mod: "end")])
        #expect(values("mid-November 2015").first?.2.map(\.start) == ["2015-11-10"])
        // "later this month" is cut at the reference, with no Mod.
        #expect(values("later this month").first?.2 == [DateTimeValue(timex: "2016-11", type: "daterange", start: "2016-11-16", end: "2016-12-01")])
        #expect(values("since late July").first?.2.first?.mod == "since-end")
    }

    @Test func weeksNamedByTheirPlaceFollowISOWeeks() {
        // ISO week 1 of 2015 starts on Monday 2014-12-29; a month's weeks are those whose Thursday is in it.
        #expect(values("the first week of 2015").first?.2 == [DateTimeValue(timex: "2015-W01", type: "daterange", start: "2014-12-29", end: "2015-01-05")])
        #expect(values("the last week of Dec 2016").first?.2 == [DateTimeValue(timex: "2016-12-W05", type: "daterange", start: "2016-12-26", end: "2017-01-02")])
        #expect(values("the week of April 10th").first?.2.map(\.start) == ["2016-04-04", "2017-04-10"])
    }

    @Test func countedQuartersAndYearsInWords() {
        // The reference is in Q4 2016: the last two quarters are Q2 and Q3.
        #expect(values("sales for the last 2 quarters").first?.2 == [DateTimeValue(timex: "(2016-04-01,2016-10-01,P6M)", type: "daterange", start: "2016-04-01", end: "2016-10-01")])
        #expect(values("2019 H2").first?.2.map(\.start) == ["2019-07-01"])
        #expect(values("they left in nineteen ninety six").first?.2.first?.timex == "1996")
        #expect(values("born on January twenty five nineteen eighty six").first?.2.first?.value == "1986-01-25")
    }

    @Test func modifiersAfterADateTime() {
        #expect(values("today before 4pm").first?.2 == [DateTimeValue(timex: "2016-11-07T16", type: "datetimerange", end: "2016-11-07 16:00:00", mod: "before")])
        #expect(values("in 2018 or later").first?.2 == [DateTimeValue(timex: "2018", type: "daterange", start: "2018-01-01", mod: "since")])
        // "and after" followed by another phrase is not a modifier of the date.
        #expect(values("on 1/1/2016 and after my work is done").first?.0 == .date)
        #expect(values("go to bed end of the day").first?.2.first?.value == "2016-11-07 23:59:59")
    }

    @Test func holidaysByName() {
        // Easter 2017 is April 16th; Thanksgiving 2016 the fourth Thursday of November, the 24th.
        #expect(values("easter 2017").first?.2.first?.value == "2017-04-16")
        #expect(values("on thanksgiving").first?.2.map(\.value) == ["2015-11-26", "2016-11-24"])
        #expect(values("christmas eve").first?.2.first?.timex == "XXXX-12-24")
        #expect(values("last easter").first?.2.first?.value == "2016-03-27")
        #expect(values("2 weeks before Christmas").first?.2.first?.value == "2016-12-11")
        #expect(values("black friday of this year").first?.2.first?.value == "2016-11-25")
    }

    @Test func ducklingsPhrasingsOfClockTimesAndDays() {
        func only(_ text: String) -> [String] {
            let found = values(text)
            guard found.count == 1, found[0].1 == text else { return ["\(found.map(\.1))"] }
            return found[0].2.map { [$0.value, $0.start, $0.end].compactMap { $0 }.joined(separator: "/") }
        }
        #expect(only("a quarter past 3pm") == ["15:15:00"])
        #expect(only("20 minutes to noon") == ["11:40:00"])
        #expect(only("half past 3 pm") == ["15:30:00"])
        #expect(only("15h30") == ["15:30:00"])
        #expect(only("3:30 p m") == ["15:30:00"])
        #expect(only("3 oclock pm") == ["15:00:00"])
        // Monday 2016-11-07: Fridays 11th, 18th, 25th; Thursdays before it 3rd, 27 October.
        #expect(only("3 fridays from now") == ["2016-11-25"])
        #expect(only("2 thursdays ago") == ["2016-10-27"])
        #expect(only("a week hence") == ["2016-11-14"])
        #expect(only("from 13th to 15th July") == ["2016-07-13/2016-07-15", "2017-07-13/2017-07-15"])
        #expect(only("tomorrow afternoon at 5") == ["2016-11-08 17:00:00"])
        #expect(only("at 5 tomorrow afternoon") == ["2016-11-08 17:00:00"])
        #expect(only("8 tonight") == ["2016-11-07 20:00:00"])
        #expect(only("this morning @ 10") == ["2016-11-07 10:00:00"])
        // October 2016 began on a Saturday; its last Friday was the 28th, October 2017's the 27th.
        #expect(only("first monday of last month") == ["2016-10-03"])
        #expect(only("last friday of october") == ["2016-10-28", "2017-10-27"])
        #expect(only("friday after next") == ["2016-11-18"])
        #expect(only("at 1030") == ["10:30:00", "22:30:00"])
        #expect(only("2014-10") == ["2014-10-01/2014-11-01"])
        #expect(only("in a quarter of an hour") == ["2016-11-07 16:27:00"])
        #expect(only("last 2 minutes") == ["2016-11-07 16:10:00/2016-11-07 16:12:00"])
        // "last" as a verb leaves the duration alone.
        #expect(values("it shouldn't last two hours").map(\.0) == [.duration])
    }

    @Test func holidaysOfLunarCalendarsComeFromTheTables() {
        // Published dates: Eid al-Fitr 2018 was Friday June 15th (Jumu'atul-Wida the Friday before), Diwali
        // 2019 October 27th, Chinese New Year 2017 January 28th; Boss's Day 2016 moved off Sunday the 16th.
        #expect(values("Eid al-Fitr 2018").first?.2.map(\.value) == ["2018-06-15"])
        #expect(values("Jumu'atul-Wida 2018").first?.2.map(\.value) == ["2018-06-08"])
        #expect(values("diwali 2019").first?.2.map(\.value) == ["2019-10-27"])
        #expect(values("chinese new year").first?.2.map(\.value) == ["2016-02-08", "2017-01-28"])
        #expect(values("boss's day 2016").first?.2.map(\.value) == ["2016-10-17"])
        // A name that begins with a weekday is the holiday (Whit Monday 2017: Easter April 16th + 50 days).
        #expect(values("Monday of the Holy Spirit 2017").first?.2.map(\.value) == ["2017-06-05"])
        // Holidays of several days are ranges, end exclusive: Passover 2018 ran March 30th to April 7th,
        // Ramadan 2018 May 16th to June 14th.
        #expect(values("passover 2018").first?.2.map { "\($0.start ?? "")/\($0.end ?? "")" } == ["2018-03-30/2018-04-08"])
        #expect(values("ramadan 2018").first?.2.map { "\($0.start ?? "")/\($0.end ?? "")" } == ["2018-05-16/2018-06-15"])
        // Outside the tables' years there is no such holiday, and no crash.
        #expect(values("Eid al-Fitr 2300").allSatisfy { $0.0 != .date || $0.1 != "Eid al-Fitr 2300" })
    }

    @Test func offsetsBeyondTheCalendarAreNoDates() {
        // Years 1…9999 only: a huge offset is no date (and never traps), a large valid one still is.
        for text in ["3000000 weeks ago", "in 9000 years", "in 999999999 years", "in 99999999999 hours", "5000000 days from now"] {
            #expect(values(text).allSatisfy { $0.0 != .date && $0.0 != .datetime }, "\(text)")
        }
        #expect(values("in 100 years").first?.2.first?.value == "2116-11-07")
    }

    @Test func nthWeekdaysDaysOfRelativeMonthsAndHoursWithinAPartOfTheDay() {
        // October 2014 starts on a Wednesday: its second Wednesday is the 8th.
        #expect(values("second wednesday of october 2014").first?.2.first?.value == "2014-10-08")
        #expect(values("the 20th of next month").first?.2.first?.value == "2016-12-20")
        #expect(values("tonight from 7 to 7:30").first?.2 == [DateTimeValue(
            timex: "(2016-11-07T19,2016-11-07T19:30,PT30M)", type: "datetimerange", start: "2016-11-07 19:00:00", end: "2016-11-07 19:30:00")])
        #expect(values("next Monday morning 6-8").first?.2.map(\.start) == ["2016-11-14 06:00:00"])
        #expect(values("the 3rd qtr of 2018").first?.2.first?.start == "2018-07-01")
    }

    @Test func dayThatDoesNotExistIsNoDate() {
        #expect(values("February 30th").allSatisfy { $0.0 != .date })
        #expect(values("2019-02-29").allSatisfy { $0.0 != .date })
        #expect(values("2020-02-29").first?.2.map(\.value) == ["2020-02-29"])
    }

    @Test func rangesOfDaysAndHours() {
        let week = values("next week").first?.2.first
        #expect(week == DateTimeValue(timex: "2016-W46", type: "daterange", start: "2016-11-14", end: "2016-11-21"))
        let hours = values("from 9am to 5pm").first?.2
        #expect(hours == [DateTimeValue(timex: "(T09,T17,PT8H)", type: "timerange", start: "09:00:00", end: "17:00:00")])
        let weekend = values("this weekend").first?.2.first
        #expect(weekend?.start == "2016-11-12" && weekend?.end == "2016-11-14")
    }

    @Test func durationsInSecondsAndRelativeMoments() {
        #expect(values("for 3 days").first?.2 == [DateTimeValue(timex: "P3D", type: "duration", value: "259200")])
        #expect(values("half an hour").first?.2.first?.timex == "PT30M")
        #expect(values("in 3 days").first?.2.map(\.value) == ["2016-11-10"])
        #expect(values("in 2 hours").first?.2.map(\.value) == ["2016-11-07 18:12:00"])
    }

    /// Duckling's phrasings: minutes after hours without their unit, quarters of an hour, "more"/"extra".
    @Test func durationsWithBareMinutesQuartersAndComparatives() {
        func duration(_ text: String) -> [String] { values(text).filter { $0.0 == .duration }.flatMap { $0.2.map { "\($0.timex) \($0.value ?? "")" } } }
        #expect(duration("1 hour thirty") == ["PT1H30M 5400"])               // 3600 + 30·60
        #expect(duration("2 hours and 10") == ["PT2H10M 7800"])              // 7200 + 600
        #expect(duration("2 hours and 10 people") == ["PT2H 7200"])          // a word after: not minutes
        #expect(duration("one and a quarter of hour") == ["PT1.25H 4500"])   // 1.25 · 3600
        #expect(duration("two and three quarters hours") == ["PT2.75H 9900"])
        #expect(duration("five and half min") == ["PT5.5M 330"])
        #expect(duration("2 extra minutes") == ["PT2M 120"])
        #expect(values("in 2 more minutes").map(\.2) == [[DateTimeValue(timex: "2016-11-07T16:14:00", type: "datetime", value: "2016-11-07 16:14:00")]])
    }

    /// A decade is 10 years, a century 100, a fortnight 2 weeks, in the TIMEX letter's unit as Recognizers-Text
    /// writes them ("a decade" P10Y); LUIS's seconds: a year 365 · 86400 = 31536000, a week 604800.
    @Test func decadesCenturiesAndFortnightsAreMultiplesOfYearsAndWeeks() {
        func duration(_ text: String) -> [String] { values(text).filter { $0.0 == .duration }.flatMap { $0.2.map { "\($0.timex) \($0.value ?? "")" } } }
        #expect(duration("for a decade") == ["P10Y 315360000"])               // 10 · 31536000
        #expect(duration("2 centuries") == ["P200Y 6307200000"])              // 200 · 31536000
        #expect(duration("2 fortnights") == ["P4W 2419200"])                  // 4 · 604800
        #expect(duration("half a decade") == ["P5Y 157680000"])
        // Amounts of one letter add up: 10 + 2 years; 100 + 20 years; a fortnight then days keeps both letters.
        #expect(duration("1 decade 2 years") == ["P12Y 378432000"])           // 12 · 31536000
        #expect(duration("1 century 2 decades") == ["P120Y 3784320000"])      // 120 · 31536000
        #expect(duration("1 fortnight 3 days") == ["P2W3D 1468800"])          // 1209600 + 259200
        // Offsets from Monday 2016-11-07: 14 days earlier is 2016-10-24, 28 days later 2016-12-05.
        #expect(values("a fortnight ago").map(\.2) == [[DateTimeValue(timex: "2016-10-24", type: "date", value: "2016-10-24")]])
        #expect(values("in 2 fortnights").first?.2.map(\.value) == ["2016-12-05"])
        #expect(values("a decade ago").first?.2.map(\.value) == ["2006-11-07"])
        #expect(values("2 centuries ago").first?.2.map(\.value) == ["1816-11-07"])
        #expect(values("in 100 centuries").allSatisfy { $0.0 != .date })      // year 12016: beyond the calendar
        // "the next two decades" counts 20 years from tomorrow, as "the next 20 years" does (Recognizers-Text
        // aligns decades to the calendar, 2020-2040: not done); "every fortnight" repeats every 2 weeks.
        #expect(values("the next two decades").first?.2.first == DateTimeValue(
            timex: "(2016-11-08,2036-11-08,P20Y)", type: "daterange", start: "2016-11-08", end: "2036-11-08"))
        #expect(values("every fortnight").first?.2.first?.timex == "P2W")
        #expect(values("once a fortnight").first?.2.first?.timex == "P2W")
    }

    /// Offsets of several units move the calendar as dateparser and LUIS do: whole months first (a year is 12),
    /// then days (a week is 7), then the clock; from Monday 2016-11-07 16:12.
    @Test func offsetsOfSeveralUnitsMoveMonthsThenDaysThenTheClock() {
        func only(_ text: String) -> [String] { values(text).filter { $0.1 == text }.flatMap { $0.2.compactMap(\.value) } }
        #expect(only("in 1 year 2 months") == ["2018-01-07"])                 // 2016-11 + 14 months
        #expect(only("1 year, 1 month ago") == ["2015-10-07"])                // 2016-11 - 13 months
        #expect(only("in 1 decade 2 months") == ["2027-01-07"])               // + 122 months
        #expect(only("2 weeks 3 days ago") == ["2016-10-21"])                 // - 17 days
        // + 13 months = 2017-12-07, + 8 days = 2017-12-15, 16:12 + 1:01 = 17:13.
        #expect(only("in 1 year, 1 month, 1 week, 1 day, 1 hour and 1 minute") == ["2017-12-15 17:13:00"])
        // - 13 months = 2015-10-07, - 8 days = 2015-09-29, 16:12 - 1:01 = 15:11.
        #expect(only("1 year, 1 month, 1 week, 1 day, 1 hour and 1 minute ago") == ["2015-09-29 15:11:00"])
    }

    @Test func setsAreNotResolved() {
        #expect(values("every Monday").first?.2 == [DateTimeValue(timex: "XXXX-WXX-1", type: "set", value: "not resolved")])
        #expect(values("weekly").first?.2.first?.timex == "P1W")
    }

    @Test func invalidReferenceTimeNamesTheFormat() {
        #expect(throws: ReferenceTimeError.self) { try ReferenceTime(iso8601: "tomorrow") }
        #expect(throws: ReferenceTimeError.self) { try ReferenceTime(iso8601: "2016-13-01") }
        #expect((try? ReferenceTime(iso8601: "2016-11-07T16:12:00Z")) != nil)
    }
}

/// A reference time's offset is a real one: from −14:00 to +14:00, `±HH:MM` or `±HHMM`.
@Suite struct ReferenceTimeOffsetTests {
    @Test(arguments: ["2016-11-07T10:00:00Z", "2016-11-07T10:00:00+14:00", "2016-11-07T10:00:00-1400",
                      "2016-11-07T10:00:00+05:30", "2016-11-07T10:00-09:00"])
    func realOffsetsAreAccepted(text: String) throws {
        let reference = try ReferenceTime(iso8601: text)
        #expect(reference == ReferenceTime(date: try #require(CivilDate(year: 2016, month: 11, day: 7)), hour: 10))
    }

    @Test(arguments: ["2016-11-07T10:00:00+99:00", "2016-11-07T10:00:00+14:01", "2016-11-07T10:00:00-15:00",
                      "2016-11-07T10:00:00+05:60", "2016-11-07T10:00:00+5:300", "2016-11-07T10:00:00+05-30"])
    func offsetsNoClockUsesAreRefused(text: String) {
        #expect(throws: ReferenceTimeError(text: text)) { try ReferenceTime(iso8601: text) }
    }
}

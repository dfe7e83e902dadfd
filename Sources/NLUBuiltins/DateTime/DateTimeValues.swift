/// A start and an end time said together ("from 9 to 5", "entre 14h et 16h"), before they are resolved.
struct SaidTimeRange: Sendable {
    var start: SpokenTime
    var end: SpokenTime

    /// The range said with a part of the day: its open hours take the part's half ("7 to 7:30" in the evening).
    func within(_ part: DateTimeWords.PartOfDay) -> SaidTimeRange {
        SaidTimeRange(start: start.within(part), end: end.within(part))
    }
}

/// Turns dates, times, parts of the day and time ranges, as read in any language, into LUIS datetimeV2 values
/// resolved against the reference time: the one place that writes a TIMEX and its values, so that English
/// (``DateTimeCandidates``) and the other languages (``LexiconDateTimeRecognizer``) give the same shape.
struct DateTimeValues: Sendable {
    let reference: ReferenceTime

    private var today: CivilDate { reference.date }

    func timeValues(_ time: SpokenTime) -> [DateTimeValue] {
        time.readings.map { DateTimeValue(timex: time.timex($0), type: "time", value: Timex.clock($0.0, $0.1, $0.2)) }
    }

    func dateTimeValues(_ date: SpokenDate, _ time: SpokenTime) -> [DateTimeValue] {
        var values: [DateTimeValue] = []
        for reading in time.readings {
            for day in date.readings(today) {
                values.append(DateTimeValue(timex: date.timex(of: day) + time.timex(reading), type: "datetime",
                                            value: day.text + " " + Timex.clock(reading.0, reading.1, reading.2)))
            }
        }
        return values
    }

    func partOfDayValues(_ date: SpokenDate, _ part: DateTimeWords.PartOfDay, mod: String? = nil) -> [DateTimeValue] {
        date.readings(today).map { day in
            DateTimeValue(timex: date.timex(of: day) + "T" + part.code, type: "datetimerange",
                          start: day.text + " " + Timex.clock(part.start.0, part.start.1, part.start.2),
                          end: day.text + " " + Timex.clock(part.end.0, part.end.1, part.end.2), mod: mod)
        }
    }

    /// The readings of a time range: as said, and also twelve hours later when both ends are open.
    func rangeReadings(_ range: SaidTimeRange) -> [((Int, Int, Int), (Int, Int, Int), String, String)] {
        var pairs: [(SpokenTime, SpokenTime)] = [(range.start, range.end)]
        if range.start.ambiguous && range.end.ambiguous && range.start.hour >= 1 && range.start.hour <= 11 && range.end.hour <= 11 {
            if range.end.hour < range.start.hour || (range.end.hour == range.start.hour && range.end.minute <= range.start.minute) {
                pairs = [(range.start, range.end.afternoon())]
            } else {
                pairs.append((range.start.afternoon(), range.end.afternoon()))
            }
        } else if range.start.ambiguous && range.end.ambiguous && range.start.hour == 12 {
            pairs = [(range.start.morning(), range.end)]
            // "de las 12 a las 4": also noon to four (French and Spanish read an open 12 both ways).
            if range.start.twelveIsMidnightToo, range.end.hour < 12 { pairs.append((range.start, range.end.afternoon())) }
        }
        return pairs.compactMap { start, end in
            let a = (start.hour, start.minute, start.second), b = (end.hour, end.minute, end.second)
            guard end.seconds > start.seconds else { return nil }
            return (a, b, start.timex(a), end.timex(b))
        }
    }

    func timeRangeValues(_ range: SaidTimeRange) -> [DateTimeValue] {
        rangeReadings(range).map { a, b, timexA, timexB in
            let duration = Timex.duration(seconds: Double((b.0 - a.0) * 3600 + (b.1 - a.1) * 60 + b.2 - a.2))
            return DateTimeValue(timex: "(" + timexA + "," + timexB + "," + duration + ")", type: "timerange",
                                 start: Timex.clock(a.0, a.1, a.2), end: Timex.clock(b.0, b.1, b.2))
        }
    }

    func dateTimeRangeValues(_ date: SpokenDate, _ range: SaidTimeRange) -> [DateTimeValue] {
        var values: [DateTimeValue] = []
        for (a, b, timexA, timexB) in rangeReadings(range) {
            let duration = Timex.duration(seconds: Double((b.0 - a.0) * 3600 + (b.1 - a.1) * 60 + b.2 - a.2))
            for day in date.readings(today) {
                values.append(DateTimeValue(timex: "(" + date.timex(of: day) + timexA + "," + date.timex(of: day) + timexB + "," + duration + ")",
                                            type: "datetimerange", start: day.text + " " + Timex.clock(a.0, a.1, a.2),
                                            end: day.text + " " + Timex.clock(b.0, b.1, b.2)))
            }
        }
        return values
    }

    /// The reference moved by `seconds` ("in 2 minutes" is a datetime), or nil when that leaves the years 1…9999.
    func moment(after seconds: Double, from day: CivilDate? = nil) -> DateTimeValue? {
        guard abs(seconds) < 3e11 else { return nil }
        let total = Int(seconds.rounded()) + reference.hour * 3600 + reference.minute * 60 + reference.second
        let days = Int((Double(total) / 86400).rounded(.down))
        let rest = total - days * 86400
        let date = (day ?? today).adding(days: days)
        guard date.year >= 1, date.year <= 9999 else { return nil }
        let (h, m, s) = (rest / 3600, rest % 3600 / 60, rest % 60)
        return DateTimeValue(timex: date.text + "T" + Timex.clock(h, m, s), type: "datetime", value: date.text + " " + Timex.clock(h, m, s))
    }

    /// The moment a duration away from now: "in 1 year, 1 month, 1 day and 1 hour" moves the calendar by whole
    /// months and days, then the clock (dateparser's and LUIS's reading); a duration with a fraction of a
    /// calendar unit moves by its seconds.
    func moment(after duration: DurationParser.Duration, sign: Int) -> DateTimeValue? {
        guard let shift = duration.calendarShift, shift.months != 0 || shift.days != 0 else {
            return moment(after: Double(sign) * duration.seconds)
        }
        guard abs(duration.seconds) < 3e11,
              let day = shift.months == 0 ? today : today.addingIfInRange(months: sign * shift.months) else { return nil }
        return moment(after: Double(sign) * shift.seconds, from: day.adding(days: sign * shift.days))
    }
}

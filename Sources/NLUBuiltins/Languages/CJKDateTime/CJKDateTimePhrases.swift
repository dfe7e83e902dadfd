/// The Chinese and Japanese date-time readings that start at one position, built from ``CJKDateTimeReader``'s pieces
/// and ``CJKDurations``, and their LUIS values: a piece alone, with a modifier before or after it, a range between
/// two pieces, a duration and what it measures from now, and repetitions.
struct CJKDateTimePhrases {
    let read: CJKDateTimeReader
    let durations: CJKDurations
    let reference: ReferenceTime

    typealias Emit = (BuiltinEntityType, Int, [DateTimeValue]) -> Void

    private var text: CJKDateTimeText { read.text }
    private var words: CJKDateTimeWords { read.words }
    private var today: CivilDate { read.today }
    private var resolve: DateTimeValues { DateTimeValues(reference: reference) }

    /// Calls `emit(kind, end, values)` for each reading at `index`, the preferred one first (the first of two
    /// readings of the same length wins).
    func candidates(at index: Int, emit: Emit) {
        if text.match(any: words.names, at: index) != nil { return }
        if let end = text.match(any: words.nowWords, at: index), !text.isNumeral(end), text.match(any: words.notNowAfter, at: end) == nil {
            emit(.datetime, end, [DateTimeValue(timex: "PRESENT_REF", type: "datetime", value: reference.text)])
        }
        repetitions(at: index, emit: emit)
        let start = text.match(any: words.rangeStarts, at: index) ?? index
        if let (modifier, afterPrefix) = text.match(words.modifierPrefixes, at: index),
           let (piece, end) = read.point(at: text.skipSpaces(afterPrefix)) {
            let (type, values) = self.values(of: piece)
            if let (modified, modifiedValues) = apply(modifier, type, values) { emit(modified, end, modifiedValues) }
        }
        if let (piece, end) = read.point(at: start) {
            if start == index, case .day(let day) = piece, case .exact(let date) = day.kind, let (moved, movedEnd) = counted(from: date, at: end) {
                emit(.date, movedEnd, [DateTimeValue(timex: moved.text, type: "date", value: moved.text)])
            }
            if let (type, values, rangeEnd) = range(from: piece, at: end) { emit(type, rangeEnd, values) }
            let (type, values) = self.values(of: piece)
            let afterSpaces = text.skipSpaces(end)
            if let (modifier, afterModifier) = text.match(words.modifierSuffixes, at: afterSpaces),
               start == index || modifier == .since, let (modified, modifiedValues) = apply(modifier, type, values) {
                emit(modified, afterModifier, modifiedValues)
            }
            if let afterApprox = text.match(any: words.approximateSuffixes, at: end),
               let (modified, modifiedValues) = DateTimeModifier.apply(.approx, type: type, values: values) {
                emit(modified, afterApprox, modifiedValues)
            }
            if start == index { emit(type, end, values) }
        }
        yearsRange(at: index, emit: emit)
        measured(at: index, emit: emit)
    }

    /// "1995-1997年", "1995 – 1997年": two years, the mark after the second only.
    private func yearsRange(at index: Int, emit: Emit) {
        guard let first = text.integer(at: index), first.isDigits, first.length == 4,
              let afterJoiner = text.match(any: words.rangeJoiners, at: text.skipSpaces(first.end)),
              let (last, end) = read.year(at: text.skipSpaces(afterJoiner)),
              let from = CivilDate(year: first.value, month: 1, day: 1), let to = CivilDate(year: last, month: 1, day: 1),
              let span = CJKDaySpan.between(from, to, startTimex: from.text, endTimex: to.text, unit: .year) else { return }
        emit(.daterange, end, span.values())
    }

    /// "今日から2日後", "明日から3週間", "昨日の2日前": days counted from a day, forward after "から" (since), either way
    /// after a linker when "前" or "後" says which.
    private func counted(from date: CivilDate, at index: Int) -> (CivilDate, Int)? {
        var afterSince: Int?
        if let (modifier, end) = text.match(words.modifierSuffixes, at: index), modifier == .since { afterSince = end }
        guard let start = afterSince ?? text.match(any: words.linkers, at: index),
              let (duration, end) = durations.duration(at: start), duration.isCalendar else { return nil }
        if let afterAgo = text.match(any: words.agoWords, at: end) { return duration.day(from: date, sign: -1).map { ($0, afterAgo) } }
        let afterLater = text.match(any: words.laterWords, at: end)
        guard afterLater != nil || afterSince != nil else { return nil }
        return duration.day(from: date, sign: 1).map { ($0, afterLater ?? end) }
    }

    /// A piece's kind and values.
    func values(of piece: CJKDatePiece) -> (BuiltinEntityType, [DateTimeValue]) {
        switch piece {
        case .day(let day):
            return (.date, day.readings(today).map { DateTimeValue(timex: day.timex(of: $0), type: "date", value: $0.text) })
        case .span(let span):
            return (.daterange, span.values())
        case .clock(let time):
            return (.time, resolve.timeValues(time))
        case .dayClock(let day, let time):
            return (.datetime, resolve.dateTimeValues(day, time))
        case .dayPart(let day, let part):
            return (.datetimerange, resolve.partOfDayValues(day, part))
        case .season(let timex):
            return (.daterange, [DateTimeValue(timex: timex, type: "daterange", value: "not resolved")])
        case .dayEnd(let day):
            return (.datetime, day.readings(today).map {
                DateTimeValue(timex: day.timex(of: $0) + "T23:59:59", type: "datetime", value: $0.text + " 23:59:59")
            })
        case .part(let part):
            return (.timerange, [DateTimeValue(timex: "T" + part.code, type: "timerange", start: Timex.clock(part.start.0, part.start.1, part.start.2),
                                               end: Timex.clock(part.end.0, part.end.1, part.end.2))])
        }
    }

    /// What a modifier makes of a reading; a day's "after" starts on that day where the language says so.
    private func apply(_ modifier: DateTimeModifier, _ type: BuiltinEntityType, _ values: [DateTimeValue]) -> (BuiltinEntityType, [DateTimeValue])? {
        if modifier == .after, type == .date, words.afterDateStartsThatDay {
            return DateTimeModifier.apply(.since, type: type, values: values).map { kind, values in
                (kind, values.map { var value = $0; value.mod = "after"; return value })
            }
        }
        return DateTimeModifier.apply(modifier, type: type, values: values)
    }

    // MARK: - Ranges

    /// "X到Y", "XからYまで", "X和Y之间": a range from the piece read to the one after the joiner.
    private func range(from first: CJKDatePiece, at index: Int) -> (BuiltinEntityType, [DateTimeValue], Int)? {
        guard let afterJoiner = text.match(any: words.rangeJoiners, at: text.skipSpaces(index)) else { return nil }
        let needsEnd = text.match(any: words.joinersNeedingEnd, at: text.skipSpaces(index)) != nil
        let secondStart = text.skipSpaces(afterJoiner)
        let second: (CJKDatePiece, Int)?
        if case .dayClock = first, let clock = read.time(at: secondStart) {
            second = read.point(at: secondStart).flatMap { $0.1 > clock.1 ? $0 : nil } ?? clock
        } else {
            second = read.point(at: secondStart)
        }
        guard let (last, lastEnd) = second, let (type, values) = range(first, last), !values.isEmpty else { return nil }
        let end = text.match(any: words.rangeEnds, at: lastEnd)
        if needsEnd, end == nil { return nil }
        return (type, values, end ?? lastEnd)
    }

    private func range(_ first: CJKDatePiece, _ last: CJKDatePiece) -> (BuiltinEntityType, [DateTimeValue])? {
        switch (first, last) {
        case (.clock(let start), .clock(let end)):
            return (.timerange, clockRanges(start, end).map { a, b in
                DateTimeValue(timex: "(" + start.timex(a) + "," + end.timex(b) + "," + Self.hours(from: a, to: b) + ")", type: "timerange",
                              start: Timex.clock(a.0, a.1, a.2), end: Timex.clock(b.0, b.1, b.2))
            })
        case (.dayClock(let day, let start), .clock(let end)):
            var values: [DateTimeValue] = []
            for (a, b) in clockRanges(start, end) {
                for date in day.readings(today) {
                    let prefix = day.timex(of: date)
                    values.append(DateTimeValue(timex: "(" + prefix + start.timex(a) + "," + prefix + end.timex(b) + "," + Self.hours(from: a, to: b) + ")",
                                                type: "datetimerange", start: date.text + " " + Timex.clock(a.0, a.1, a.2),
                                                end: date.text + " " + Timex.clock(b.0, b.1, b.2)))
                }
            }
            return (.datetimerange, values)
        case (.dayClock(let firstDay, let start), .dayClock(let lastDay, let end)):
            guard let from = firstDay.readings(today).first, let to = lastDay.readings(today).first else { return nil }
            let a = start.readings[0], b = end.readings[0]
            let seconds = from.days(until: to) * 86400 + (b.0 - a.0) * 3600 + (b.1 - a.1) * 60 + b.2 - a.2
            guard seconds > 0 else { return nil }
            return (.datetimerange, [DateTimeValue(
                timex: "(" + firstDay.timex(of: from) + start.timex(a) + "," + lastDay.timex(of: to) + end.timex(b) + "," + Self.hours(seconds) + ")",
                type: "datetimerange", start: from.text + " " + Timex.clock(a.0, a.1, a.2), end: to.text + " " + Timex.clock(b.0, b.1, b.2))])
        default:
            guard let from = daySpan(first), let to = daySpan(last) else { return nil }
            return dayRange(from, to).map { (.daterange, $0) }
        }
    }

    /// A day or a span as the span of days it covers, for ranges between them.
    private func daySpan(_ piece: CJKDatePiece) -> (span: CJKDaySpan, day: SpokenDate?)? {
        switch piece {
        case .span(let span): return (span, nil)
        case .day(let day):
            let readings = day.readings(today).map { (start: $0, end: $0.adding(days: 1)) }
            guard !readings.isEmpty else { return nil }
            return (CJKDaySpan(timex: day.timex, readings: readings, unit: .other, openYear: day.timex.hasPrefix("X")), day)
        default: return nil
        }
    }

    /// From the start of one to the start of the other ("2014年から2018年" ends on 2018-01-01), in years, months or days;
    /// an end without its year is in the start's year or the next, a start without its year in the end's or the one before.
    private func dayRange(_ from: (span: CJKDaySpan, day: SpokenDate?), _ to: (span: CJKDaySpan, day: SpokenDate?)) -> [DateTimeValue]? {
        let unit: CJKDaySpan.Unit = from.span.unit == .year && to.span.unit == .year ? .year
            : (from.span.unit == .year || from.span.unit == .month) && (to.span.unit == .year || to.span.unit == .month) ? .month : .other
        func endDate(after start: CivilDate) -> CivilDate? {
            guard let toStart = to.span.readings.first?.start else { return nil }
            if case .dayOfMonth(let day)? = to.day?.kind { return CivilDate(year: start.year, month: start.month, day: day) }
            guard to.span.openYear else { return toStart }
            guard let sameYear = CivilDate(year: start.year, month: toStart.month, day: toStart.day) else { return nil }
            return sameYear > start ? sameYear : CivilDate(year: start.year + 1, month: toStart.month, day: toStart.day)
        }
        if from.span.openYear, let first = from.span.readings.first?.start, to.span.openYear || to.day.map({
            if case .dayOfMonth = $0.kind { return true } else { return false }
        }) ?? false, let values = openYearRange(from: first, to: to, unit: unit) {
            return values
        }
        var starts = from.span.readings.map(\.start)
        if from.span.openYear, !to.span.openYear, let toStart = to.span.readings.first?.start, let first = starts.first,
           let sameYear = CivilDate(year: toStart.year, month: first.month, day: first.day) {
            starts = [sameYear < toStart ? sameYear : CivilDate(year: toStart.year - 1, month: first.month, day: first.day)].compactMap { $0 }
        }
        let openTimex = from.span.openYear && to.span.openYear
        let values = starts.compactMap { start -> DateTimeValue? in
            guard let end = endDate(after: start) else { return nil }
            let startTimex = openTimex ? "XXXX" + start.text.dropFirst(4) : start.text
            let endTimex = openTimex || (to.span.openYear && from.span.openYear) ? "XXXX" + end.text.dropFirst(4) : end.text
            return CJKDaySpan.between(start, end, startTimex: startTimex, endTimex: endTimex, unit: unit)?.values().first
        }
        return values.isEmpty ? nil : values
    }

    /// A range whose year is not said ("3月到5月", "1月10日から20日まで"), read as the specs read it: a start still ahead
    /// this year (or in this month, for months) means last year's and this year's; a range already over this year
    /// this year's and next year's; one under way (or running into next year) this year's only.
    private func openYearRange(from first: CivilDate, to: (span: CJKDaySpan, day: SpokenDate?), unit: CJKDaySpan.Unit) -> [DateTimeValue]? {
        // February 29th is read in the leap years before and after, as a day alone is.
        guard let toStart = to.span.readings.first?.start, !(first.month == 2 && first.day == 29) else { return nil }
        var endMonth = toStart.month, endDay = toStart.day
        if case .dayOfMonth(let day)? = to.day?.kind { endMonth = first.month; endDay = day }
        func key(_ month: Int, _ day: Int) -> Int { unit == .month ? month * 100 : month * 100 + day }
        let startKey = key(first.month, first.day), endKey = key(endMonth, endDay), now = key(today.month, today.day)
        let wraps = endKey <= startKey
        let years: [Int]
        if startKey >= now { years = [today.year - 1, today.year] }
        else if !wraps, endKey < now { years = [today.year, today.year + 1] }
        else { years = [today.year] }
        let values = years.compactMap { year -> DateTimeValue? in
            guard let start = CivilDate(year: year, month: first.month, day: first.day),
                  let end = CivilDate(year: wraps ? year + 1 : year, month: endMonth, day: endDay) else { return nil }
            return CJKDaySpan.between(start, end, startTimex: "XXXX" + start.text.dropFirst(4), endTimex: "XXXX" + end.text.dropFirst(4),
                                      unit: unit)?.values().first
        }
        return values.isEmpty ? nil : values
    }

    /// The readings of a clock range: an open end takes the start's half of the day ("下午5:00到6:00"); both open are
    /// read as said (and twelve hours later where the language reads both), an end before the start in the afternoon.
    private func clockRanges(_ start: SpokenTime, _ end: SpokenTime) -> [((Int, Int, Int), (Int, Int, Int))] {
        var from = start, to = end
        if from.ambiguous, from.hour == 12 { from = from.morning() }
        if from.ambiguous, to.ambiguous {
            let a = (from.hour, from.minute, from.second), b = (to.hour, to.minute, to.second)
            if to.seconds <= from.seconds {
                // "9時30分から7時30分": into the evening, or from the evening into the next morning.
                return words.clockRangeReadsBothHalves && from.hour >= 1 && to.hour < 12
                    ? [(a, (to.hour + 12, b.1, b.2)), ((a.0 + 12, a.1, a.2), b)] : [(a, (to.hour + 12, b.1, b.2))]
            }
            if words.clockRangeReadsBothHalves, from.hour >= 1, to.hour < 12 { return [(a, b), ((a.0 + 12, a.1, a.2), (b.0 + 12, b.1, b.2))] }
            return [(a, b)]
        }
        if !from.ambiguous, to.ambiguous, to.hour < 12, to.hour + 12 > from.hour, to.seconds <= from.seconds { to = to.afternoon() }
        return [((from.hour, from.minute, from.second), (to.hour, to.minute, to.second))]
    }

    private static func hours(from a: (Int, Int, Int), to b: (Int, Int, Int)) -> String {
        let seconds = (b.0 - a.0) * 3600 + (b.1 - a.1) * 60 + b.2 - a.2
        return hours(seconds < 0 ? seconds + 86400 : seconds)
    }

    /// "PT38H", "PT2H30M", "PT37M39S": a span of the clock in hours, never in days.
    private static func hours(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
        return "PT" + (h > 0 ? "\(h)H" : "") + (m > 0 ? "\(m)M" : "") + (s > 0 ? "\(s)S" : "")
    }

    // MARK: - Durations and what they measure

    /// A duration alone or with what makes it a moment ("5年前", "2小时后", "5分で"), a span ("过去十年", "今後5日間",
    /// "9か月以内に"), a bound ("4日以上") or a repetition ("2日ごとに").
    private func measured(at index: Int, emit: Emit) {
        // "过去十年", "今後5日間": one unit ("还剩8天20时" is a duration).
        if let (prefixEnd, isPast) = spanPrefix(at: index), let (duration, end) = durations.duration(at: text.skipSpaces(prefixEnd)),
           duration.amounts.count == 1 {
            if let (type, values) = span(duration, past: isPast) { emit(type, end, values) }
        }
        guard let (duration, end) = durations.duration(at: index) else { return }
        if let afterAgo = text.match(any: words.agoWords, at: end), let (type, values) = moment(duration, sign: -1) {
            emit(type, afterAgo, values)
        }
        if let afterLater = text.match(any: words.laterWords, at: end) ?? text.match(any: words.inTimeWords, at: end),
           let (type, values) = moment(duration, sign: 1) {
            emit(type, afterLater, values)
        }
        if let afterWithin = text.match(any: words.withinWords, at: end), duration.isCalendar, let stop = duration.day(from: today, sign: 1) {
            emit(.daterange, afterWithin, [DateTimeValue(timex: "(" + today.text + "," + stop.text + "," + duration.timex + ")", type: "daterange",
                                                         start: today.text, end: stop.text)])
        }
        if let (mod, afterMod) = text.match(words.durationModifiers, at: end) {
            emit(.duration, afterMod, duration.values.map { var value = $0; value.mod = mod; return value })
        }
        if let afterEvery = text.match(any: words.everySuffixes, at: end) {
            emit(.set, afterEvery, [DateTimeValue(timex: duration.timex, type: "set", value: "not resolved")])
        }
        emit(.duration, end, duration.values)
    }

    private func spanPrefix(at index: Int) -> (Int, Bool)? {
        if let end = text.match(any: words.pastSpanPrefixes, at: index) { return (end, true) }
        if let end = text.match(any: words.nextSpanPrefixes, at: index) { return (end, false) }
        return nil
    }

    /// A moment `duration` before (`sign` −1) or after now: a date for days and longer, else a date and time.
    private func moment(_ duration: CJKDuration, sign: Int) -> (BuiltinEntityType, [DateTimeValue])? {
        if duration.isCalendar {
            guard let day = duration.day(from: today, sign: sign) else { return nil }
            return (.date, [DateTimeValue(timex: day.text, type: "date", value: day.text)])
        }
        guard var value = resolve.moment(after: Double(sign) * duration.seconds) else { return nil }
        if words.momentTimexKeepsOnlyDate, let day = value.value?.prefix(10) { value.timex = String(day) }
        return (.datetime, [value])
    }

    /// The span `duration` long up to now (`past`) or from now: whole days from tomorrow, or the clock from now.
    private func span(_ duration: CJKDuration, past: Bool) -> (BuiltinEntityType, [DateTimeValue])? {
        if duration.isCalendar {
            let first = past ? duration.day(from: today, sign: -1) : today.adding(days: 1)
            guard let first, let last = past ? today : duration.day(from: first, sign: 1) else { return nil }
            return (.daterange, [DateTimeValue(timex: "(" + first.text + "," + last.text + "," + duration.timex + ")", type: "daterange",
                                               start: first.text, end: last.text)])
        }
        guard let now = resolve.moment(after: 0), let other = resolve.moment(after: (past ? -1 : 1) * duration.seconds),
              let nowText = now.value, let otherText = other.value else { return nil }
        let (from, to) = past ? (other, now) : (now, other)
        let (fromText, toText) = past ? (otherText, nowText) : (nowText, otherText)
        return (.datetimerange, [DateTimeValue(timex: "(" + from.timex + "," + to.timex + "," + duration.timex + ")", type: "datetimerange",
                                               start: fromText, end: toText)])
    }

    // MARK: - Repetitions

    /// "每天", "每周一下午八点", "毎週月曜日", "毎日午後3時": every unit, or every weekday with a time.
    private func repetitions(at index: Int, emit: Emit) {
        guard let afterEvery = text.match(any: words.everyWords, at: index) else { return }
        func set(_ timex: String, _ end: Int) {
            var position = text.match(any: words.linkers, at: end) ?? end
            if text.isSpace(position) { position = text.skipSpaces(position) }
            if let (piece, timeEnd) = read.time(at: position), case .clock(let clock) = piece, let reading = clock.readings.last {
                let timeTimex = clock.timex(reading)
                emit(.set, timeEnd, [DateTimeValue(timex: (timex.hasPrefix("P") ? "" : timex) + timeTimex, type: "set", value: "not resolved")])
            }
            emit(.set, end, [DateTimeValue(timex: timex, type: "set", value: "not resolved")])
        }
        if let (weekday, end) = text.match(words.weekdays, at: afterEvery) { return set("XXXX-WXX-\(weekday)", end) }
        if let afterWeek = text.match(any: words.weekWords, at: afterEvery) {
            let afterLinker = text.match(any: words.linkers, at: afterWeek) ?? afterWeek
            if let (weekday, end) = text.match(words.weekdays, at: afterLinker) { return set("XXXX-WXX-\(weekday)", end) }
        }
        if let end = text.match(any: words.monthWords, at: afterEvery) { return set("P1M", end) }
        if let end = text.match(any: words.weekWords, at: afterEvery) { return set("P1W", end) }
        if let end = text.match(CJKDateTimeWords.word("日"), at: afterEvery) { return set("P1D", end) }
        if let (unit, end) = text.match(words.durationUnits, at: afterEvery) {
            return set(CJKDuration(amounts: [(1, unit)]).timex, end)
        }
    }
}

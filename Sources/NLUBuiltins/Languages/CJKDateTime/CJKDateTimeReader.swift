/// Reads the pieces of a Chinese or Japanese date-time at a position (``CJKDatePiece``): dates written with marks
/// ("2016年11月3日", "十月初一", "平成元年"), with slashes or dashes ("2010/01/29"), counted from today ("明天",
/// "下周一", "来週の月曜日", "今月の21日"), years, months, weeks and halves, and clock times with a part of the day
/// ("下午3点半", "午後7時56分30秒", "晚上9:30"). Each read looks a bounded distance ahead.
struct CJKDateTimeReader {
    let text: CJKDateTimeText
    let words: CJKDateTimeWords
    let today: CivilDate

    typealias Part = DateTimeWords.PartOfDay

    // MARK: - Dates

    /// A year: four digits, two digits when a month follows or they begin with zero ("18年10月", "07年"), or an era
    /// year ("平成30年", "康熙二十年", "明治元年"); with the mark "年" and spaces before it.
    func year(at index: Int) -> (Int, Int)? {
        if let (base, afterEra) = text.match(words.eras, at: index) {
            let count: Int
            var after: Int
            if let end = text.match(words.firstYearWord, at: afterEra) {
                count = 1
                after = end
            } else if let number = text.integer(at: afterEra), number.value >= 1, number.value <= 200 {
                count = number.value
                after = number.end
            } else { return nil }
            guard let end = text.match(any: words.yearMarks, at: after) else { return nil }
            after = end
            return (base + count, after)
        }
        guard let number = text.integer(at: index), let end = text.match(any: words.yearMarks, at: text.skipSpaces(number.end)) else { return nil }
        if number.length == 4 { return (number.value, end) }
        if number.length == 2, number.leadingZero || month(at: text.skipSpaces(end)) != nil {
            return (number.value < 50 ? 2000 + number.value : 1900 + number.value, end)
        }
        return nil
    }

    /// A month: 1 to 12 with its mark ("3月", "十二月"), or the first month's own word ("正月").
    func month(at index: Int) -> (Int, Int)? {
        if let end = text.match(any: words.firstMonthWords, at: index) { return (1, end) }
        guard let number = text.integer(at: index), (1...12).contains(number.value),
              let end = text.match(any: words.monthMarks, at: number.end) else { return nil }
        return (number.value, end)
    }

    /// A day of the month with its mark ("3日", "十五号"); after a month also "初一" and, in Chinese, a bare numeral
    /// ("八月十五"). A day said alone needs "日" ("12号" alone is no date in the specs).
    func dayOfMonth(at index: Int, afterMonth: Bool) -> (Int, Int)? {
        if afterMonth, let prefix = words.earlyDayPrefix, let start = text.match(prefix, at: index),
           let number = text.integer(at: start), (1...10).contains(number.value), !number.isDigits {
            return (number.value, number.end)
        }
        guard let number = text.integer(at: index), (1...31).contains(number.value) else { return nil }
        if let end = text.match(any: words.dayMarks, at: number.end) {
            if !afterMonth, text.match(CJKDateTimeWords.word("日"), at: number.end) == nil { return nil }
            // "一日": one day (a duration), not the first of a month.
            if !afterMonth, number.value == 1, !number.isDigits { return nil }
            // "3日後", "5日前": days from today, a duration's moment.
            if !afterMonth, text.match(any: words.agoWords, at: end) != nil || text.match(any: words.laterWords, at: end) != nil { return nil }
            // "5日間": a duration, not a day of the month.
            if !afterMonth, end < text.count, text.scalars[end] == "間" { return nil }
            return (number.value, end)
        }
        if afterMonth, words.bareDayAfterMonth, !number.isDigits { return (number.value, number.end) }
        return nil
    }

    /// A date written with marks: year, month and day, any of them left out but not in between ("2016年1月",
    /// "11月3日", "3日"), a lunar prefix kept in the text. Returns a day or a span (a year, a month).
    func markedDate(at index: Int) -> (CJKDatePiece, Int)? {
        var position = index
        if let end = text.match(any: words.lunarPrefixes, at: position) { position = end }
        var year: Int?
        if let (value, end) = self.year(at: position) {
            year = value
            position = end
        }
        let afterYear = position
        var month: Int?
        if let (value, end) = self.month(at: text.skipSpaces(position)) {
            month = value
            position = end
        }
        var dayRead = month == nil ? nil : dayOfMonth(at: position, afterMonth: true)
        if month != nil, dayRead == nil, let afterLinker = text.match(any: words.linkers, at: position),
           let (day, end) = dayOfMonth(at: afterLinker, afterMonth: true), text.match(any: words.dayMarks, at: end - 1) != nil {
            // "正月の３０日": a linker before a day written with its mark.
            dayRead = (day, end)
        }
        if let month, let (day, end) = dayRead {
            if let year {
                guard let date = CivilDate(year: year, month: month, day: day) else { return nil }
                return (.day(SpokenDate(kind: .exact(date))), end)
            }
            guard CivilDate(year: 2000, month: month, day: day) != nil else { return nil }
            return (.day(SpokenDate(kind: .monthDay(month: month, day: day))), end)
        }
        if let month {
            if let year { return CJKDaySpan.month(month, of: year).map { (.span($0), position) } }
            return CJKDaySpan.openMonth(month, today: today).map { (.span($0), position) }
        }
        if let year { return CJKDaySpan.year(year).map { (.span($0), afterYear) } }
        // A day right after a month that is no month ("13月5日") or with a day it does not have ("2月30日") is no date.
        if position == index, index == 0 || text.scalars[index - 1] != "月", let (day, end) = dayOfMonth(at: index, afterMonth: false) {
            return (.day(SpokenDate(kind: .dayOfMonth(day))), end)
        }
        return nil
    }

    /// "2010/01/29", "2010-01-29", "2010.01.29", "12/1" (month and day), "1/2/2020" and "29/2" (day first), "12-11-10"
    /// (a year of the century first).
    func numericDate(at index: Int) -> (SpokenDate, Int)? {
        guard let first = text.integer(at: index), first.isDigits, first.end < text.count else { return nil }
        let separator = text.scalars[first.end]
        guard separator == "/" || separator == "-" || separator == "." || separator == "／",
              let second = text.integer(at: first.end + 1), second.isDigits else { return nil }
        if second.end < text.count, text.scalars[second.end] == separator, let third = text.integer(at: second.end + 1), third.isDigits {
            guard !text.isNumeral(third.end) else { return nil }
            if first.length == 4, let date = CivilDate(year: first.value, month: second.value, day: third.value) {
                return (SpokenDate(kind: .exact(date)), third.end)
            }
            if third.length == 4, separator == "/", let date = CivilDate(year: third.value, month: second.value, day: first.value) {
                return (SpokenDate(kind: .exact(date)), third.end)
            }
            if first.length == 2, second.length == 2, third.length == 2, separator == "-",
               let date = CivilDate(year: 2000 + first.value, month: second.value, day: third.value) {
                return (SpokenDate(kind: .exact(date)), third.end)
            }
            return nil
        }
        guard separator == "/", first.length <= 2, second.length <= 2, !text.isNumeral(second.end) else { return nil }
        let (month, day) = first.value <= 12 ? (first.value, second.value) : (second.value, first.value)
        guard CivilDate(year: 2000, month: month, day: day) != nil else { return nil }
        return (SpokenDate(kind: .monthDay(month: month, day: day)), second.end)
    }

    /// A shift ("下", "来", "次の") with its classifier, and where it ends.
    private func shift(at index: Int) -> (Int, Int)? {
        guard let (count, end) = text.match(words.shifts, at: index) else { return nil }
        return (count, text.match(any: words.classifiers, at: end) ?? end)
    }

    /// Days counted from today, weekdays, weekdays of a week counted from this one, and weeks, weekends and months
    /// counted so ("明天", "周三", "下周一", "来週の月曜日", "下下周末", "下个月", "今月の21日").
    func relativeDate(at index: Int) -> (CJKDatePiece, Int)? {
        if let (offset, end) = text.match(words.relativeDays, at: index) {
            return (.day(SpokenDate(kind: .exact(today.adding(days: offset)))), end)
        }
        if let (weekday, end) = text.match(words.weekdays, at: index) {
            return (.day(SpokenDate(kind: .weekday(weekday))), end)
        }
        if let (half, end) = text.match(words.halves, at: index), words.halves.first.map({ $0.0.count >= 3 }) ?? false, end - index >= 3,
           let start = CivilDate(year: today.year, month: half == 1 ? 1 : 7, day: 1),
           let span = CJKDaySpan.between(start, start.adding(months: 6), startTimex: start.text, endTimex: start.adding(months: 6).text, unit: .month) {
            // "上半年" said alone: this year's half.
            return (.span(span), end)
        }
        for (word, month, day) in words.namedDays {
            if let end = text.match(word, at: index) { return (.day(SpokenDate(kind: .monthDay(month: month, day: day))), end) }
        }
        if let (unit, end) = text.match(words.periodEnds, at: index) {
            let first = unit == .year ? CivilDate.first(ofMonth: 7, year: today.year) : CivilDate.first(ofMonth: today.month, year: today.year).adding(days: 15)
            let stop = unit == .year ? CivilDate.first(ofMonth: 1, year: today.year + 1) : CivilDate.first(ofMonth: today.month, year: today.year).adding(months: 1)
            let timex = unit == .year ? Timex.pad(today.year, 4) : Timex.pad(today.year, 4) + "-" + Timex.pad(today.month, 2)
            return (.span(CJKDaySpan(timex: timex, readings: [(first, stop)], unit: .other, mod: "end")), end)
        }
        if let end = text.match(any: words.todayEnds, at: index) { return (.dayEnd(SpokenDate(kind: .exact(today))), end) }
        if let (code, end) = text.match(words.thisYearSeasons, at: index) { return (.season(Timex.pad(today.year, 4) + "-" + code), end) }
        if let (years, end) = text.match(words.relativeYears, at: index) {
            guard var span = CJKDaySpan.year(today.year + years) else { return nil }
            // "今年" said alone in the specs runs from New Year to today ("我今年18周岁了").
            let afterLinker = text.match(any: words.linkers, at: end) ?? end
            if let (code, seasonEnd) = text.match(words.seasons, at: afterLinker) {
                return (.season(Timex.pad(today.year + years, 4) + "-" + code), seasonEnd)
            }
            if years == 0, text.scalars[index] == "今", month(at: afterLinker) == nil, text.match(words.halves, at: afterLinker) == nil, let first = span.readings.first, first.start < today {
                span.readings = [(first.start, today)]
            }
            return (.span(span), end)
        }
        guard let (count, afterShift) = shift(at: index) else { return nil }
        let monday = today.weekStart.adding(days: 7 * count)
        if let (weekday, end) = text.match(words.weekdays, at: afterShift) {
            return (.day(SpokenDate(kind: .exact(monday.adding(days: weekday - 1)))), end)
        }
        if let end = text.match(any: words.weekendWords, at: afterShift) {
            return (.span(CJKDaySpan.weekend(of: monday)), end)
        }
        if let afterWeek = text.match(any: words.weekWords, at: afterShift) {
            let afterLinker = text.match(any: words.linkers, at: afterWeek) ?? afterWeek
            if let (weekday, end) = text.match(words.weekdays, at: afterLinker) {
                return (.day(SpokenDate(kind: .exact(monday.adding(days: weekday - 1)))), end)
            }
            if let end = text.match(any: words.weekendWords.map { Array($0.dropFirst()) }, at: afterWeek) {
                return (.span(CJKDaySpan.weekend(of: monday)), end)
            }
            return (.span(CJKDaySpan.week(of: monday)), afterWeek)
        }
        if let afterMonth = text.match(any: words.monthWords, at: afterShift) {
            let first = CivilDate.first(ofMonth: today.month, year: today.year).adding(months: count)
            let afterLinker = text.match(any: words.linkers, at: afterMonth) ?? afterMonth
            if let (day, end) = dayOfMonth(at: afterLinker, afterMonth: true), let date = CivilDate(year: first.year, month: first.month, day: day) {
                return (.day(SpokenDate(kind: .exact(date))), end)
            }
            return CJKDaySpan.month(first.month, of: first.year).map { (.span($0), afterMonth) }
        }
        return nil
    }

    /// A year counted from this one followed by a month or a day of it ("今年の9月", "明年十月一日").
    func monthOfRelativeYear(at index: Int) -> (CJKDatePiece, Int)? {
        guard let (years, afterYear) = text.match(words.relativeYears, at: index) else { return nil }
        let afterLinker = text.match(any: words.linkers, at: afterYear) ?? afterYear
        guard let (month, afterMonth) = month(at: afterLinker) else { return nil }
        let year = today.year + years
        if let (day, end) = dayOfMonth(at: afterMonth, afterMonth: true), let date = CivilDate(year: year, month: month, day: day) {
            return (.day(SpokenDate(kind: .exact(date))), end)
        }
        return CJKDaySpan.month(month, of: year).map { (.span($0), afterMonth) }
    }

    /// What follows a year, a month or a week and narrows it: its start or end ("今月初め", "今週の終わりごろ"), a third of
    /// a month ("5月中旬", "11月半ば"), or a week counted in it ("2015年の最初の週", "1月の第3週", "十月的第一周").
    func partOfSpan(_ span: CJKDaySpan, at index: Int) -> (CJKDatePiece, Int)? {
        let after = text.match(any: words.linkers, at: index) ?? index
        if span.unit == .month, let (mod, end) = text.match(words.monthThirds, at: after) {
            var narrowed = span
            narrowed.readings = span.readings.map { reading in
                let first = reading.start
                switch mod {
                case "start": return (first, first.adding(days: 9))
                case "mid": return (first.adding(days: 9), first.adding(days: 20))
                default: return (first.adding(days: 20), reading.end)
                }
            }
            narrowed.mod = mod
            return (.span(narrowed), end)
        }
        if span.unit != .other, let (mod, end) = text.match(words.periodParts, at: after) {
            var narrowed = span
            narrowed.readings = span.readings.map { reading in
                let middle: CivilDate
                switch span.unit {
                case .year: middle = reading.start.adding(months: 6)
                case .month: middle = reading.start.adding(days: 15)
                default: middle = reading.start.adding(days: 3)
                }
                return mod == "start" ? (reading.start, middle) : (middle, reading.end)
            }
            narrowed.mod = mod
            return (.span(narrowed), end)
        }
        guard span.unit == .year || span.unit == .month else { return nil }
        // The week counted: first, last, or "第N".
        var ordinal: Int?, position = after
        if let end = text.match(any: words.firstWords, at: after) {
            ordinal = 1
            position = end
        } else if let end = text.match(any: words.lastWords, at: after) {
            ordinal = 0
            position = end
        } else if let start = text.match(words.ordinalPrefix, at: after), let number = text.integer(at: start), (1...53).contains(number.value) {
            ordinal = number.value
            position = number.end
        }
        guard let ordinal, let end = text.match(any: words.weekWords, at: position) else { return nil }
        let readings = span.readings.compactMap { reading -> (start: CivilDate, end: CivilDate, week: Int)? in
            // A period's weeks start with the one holding its first Thursday, as ISO 8601 counts a year's.
            let firstThursday = reading.start.adding(days: (4 - reading.start.weekday + 7) % 7)
            let firstMonday = firstThursday.adding(days: -3)
            let lastDay = reading.end.adding(days: -1)
            let lastThursday = lastDay.adding(days: -((lastDay.weekday - 4 + 7) % 7))
            let count = (lastThursday.dayNumber - firstMonday.dayNumber) / 7 + 1
            let week = ordinal == 0 ? count : ordinal
            guard week <= count else { return nil }
            let monday = firstMonday.adding(days: 7 * (week - 1))
            return (monday, monday.adding(days: 7), week)
        }
        guard let first = readings.first else { return nil }
        // "2015-W01" for a year's week, "XXXX-10-W01" for a month's.
        let timex = span.timex + "-W" + Timex.pad(first.week, 2)
        return (.span(CJKDaySpan(timex: timex, readings: readings.map { ($0.start, $0.end) }, unit: .other)), end)
    }

    /// "1990年代" (a decade), "九十年代" (a decade of an open century), "15世紀" (a century).
    func decadeOrCentury(at index: Int) -> (CJKDatePiece, Int)? {
        guard let number = text.integer(at: index) else { return nil }
        if let afterYear = text.match(any: words.yearMarks, at: number.end), let end = text.match(any: words.decadeMarks.map { Array($0.dropFirst()) }, at: afterYear) {
            if number.length == 4, number.value % 10 == 0, let start = CivilDate(year: number.value, month: 1, day: 1) {
                let stop = start.adding(months: 120)
                return CJKDaySpan.between(start, stop, startTimex: start.text, endTimex: stop.text, unit: .year).map { (.span($0), end) }
            }
            if number.value % 10 == 0, number.value < 100, !number.isDigits {
                let decade = number.value
                let readings = [1900, 2000].compactMap { century -> (start: CivilDate, end: CivilDate)? in
                    guard let start = CivilDate(year: century + decade, month: 1, day: 1) else { return nil }
                    return (start, start.adding(months: 120))
                }
                let timex = "(XX" + Timex.pad(decade, 2) + "-01-01,XX" + Timex.pad((decade + 10) % 100, 2) + "-01-01,P10Y)"
                return (.span(CJKDaySpan(timex: timex, readings: readings, unit: .other)), end)
            }
        }
        if let end = text.match(any: words.centuryMarks, at: number.end), (1...99).contains(number.value),
           let start = CivilDate(year: max(1, (number.value - 1) * 100), month: 1, day: 1) {
            let stop = CivilDate.first(ofMonth: 1, year: number.value * 100)
            guard number.value > 1 else { return nil }
            return CJKDaySpan.between(start, stop, startTimex: start.text, endTimex: stop.text, unit: .year).map { (.span($0), end) }
        }
        return nil
    }

    /// Every date piece at `index`: written dates, relative ones, a half of a year after a year ("2017年上半年",
    /// "去年の前半"), and a weekday said after a date, kept in its text ("10月12号，星期一", "5月9日火曜日").
    func date(at index: Int) -> (CJKDatePiece, Int)? {
        var best: (CJKDatePiece, Int)?
        func consider(_ found: (CJKDatePiece, Int)?) {
            if let found, found.1 > (best?.1 ?? index) { best = found }
        }
        consider(markedDate(at: index))
        consider(numericDate(at: index).map { (.day($0.0), $0.1) })
        consider(relativeDate(at: index))
        consider(monthOfRelativeYear(at: index))
        consider(decadeOrCentury(at: index))
        guard let (piece, found) = best else { return nil }
        var end = found
        if case .span(let span) = piece, let part = partOfSpan(span, at: found) { return part }
        if case .span(let span) = piece, span.unit == .year, let year = span.readings.first?.start.year {
            let afterLinker = text.match(any: words.linkers, at: end) ?? end
            if let (half, afterHalf) = text.match(words.halves, at: afterLinker),
               let start = CivilDate(year: year, month: half == 1 ? 1 : 7, day: 1) {
                let stop = start.adding(months: 6)
                if let halfSpan = CJKDaySpan.between(start, stop, startTimex: start.text, endTimex: stop.text, unit: .month) {
                    return (.span(halfSpan), afterHalf)
                }
            }
        }
        if case .day(let day) = piece, let afterEnd = text.match(any: words.dayEnds, at: end) { return (.dayEnd(day), afterEnd) }
        if case .day = piece {
            var after = end
            if after < text.count, ["，", "、", ",", " "].contains(text.scalars[after]) { after += 1 }
            if let (_, weekdayEnd) = text.match(words.weekdays, at: after) { end = weekdayEnd }
        }
        return (piece, end)
    }

    // MARK: - Times

    /// A part of the day ("下午", "夜の"): the part, whether it stands alone, and where it ends (after a linker).
    func partOfDay(at index: Int) -> (Part, Bool, Int)? {
        for (word, part, standsAlone) in words.partsOfDay {
            if let end = text.match(word, at: index) { return (part, standsAlone, end) }
        }
        return nil
    }

    /// A clock time: "3点", "三点半", "5点一刻", "15时20分", "16時40分50秒", "7时整", "15:30", "11:30:10 p.m.", "正午".
    func clock(at index: Int) -> (SpokenTime, Int)? {
        if let (hour, end) = text.match(words.namedTimes, at: index) {
            return (SpokenTime(hour: hour, minute: 0, second: 0, precision: 1, ambiguous: false), end)
        }
        guard let hours = text.integer(at: index), hours.value <= 24 else { return nil }
        if hours.isDigits, hours.end < text.count, text.scalars[hours.end] == ":" || text.scalars[hours.end] == "：" {
            guard let minutes = text.integer(at: hours.end + 1), minutes.isDigits, minutes.length == 2, minutes.value < 60 else { return nil }
            var end = minutes.end, second = 0, precision = 2
            if end < text.count, text.scalars[end] == ":" || text.scalars[end] == "：",
               let seconds = text.integer(at: end + 1), seconds.isDigits, seconds.length == 2, seconds.value < 60 {
                second = seconds.value
                precision = 3
                end = seconds.end
            }
            var time = SpokenTime(hour: hours.value % 24, minute: minutes.value, second: second, precision: precision,
                                  ambiguous: hours.value <= 12, twelveIsMidnightToo: true)
            if let (afternoon, after) = meridiem(at: end) {
                time = afternoon ? time.afternoon() : time.morning()
                end = after
            }
            return (time, end)
        }
        guard let afterHour = text.match(any: words.hourMarks, at: hours.end) else { return nil }
        var time = SpokenTime(hour: hours.value % 24, minute: 0, second: 0, precision: 1, ambiguous: hours.value <= 12,
                              twelveIsMidnightToo: true)
        var end = afterHour
        if let afterHalf = text.match(words.halfHour, at: end) {
            time.minute = 30
            time.precision = 2
            end = afterHalf
        } else if let quarter = words.quarterMark, let quarters = text.integer(at: end), (1...3).contains(quarters.value),
                  let afterQuarter = text.match(quarter, at: quarters.end) {
            time.minute = 15 * quarters.value
            time.precision = 2
            end = afterQuarter
        } else if let minutes = text.integer(at: end), minutes.value < 60 {
            if let afterMinute = text.match(any: words.minuteMarks, at: minutes.end) {
                time.minute = minutes.value
                time.precision = 2
                end = afterMinute
            } else if !text.isNumeral(minutes.end), text.match(any: words.secondMarks, at: minutes.end) == nil,
                      text.match(any: words.hourMarks, at: minutes.end) == nil, minutes.length >= 1, !words.clockRangeReadsBothHalves || minutes.length <= 2 {
                // "九点二十": the minutes without their mark.
                time.minute = minutes.value
                time.precision = 2
                end = minutes.end
            }
        }
        if let seconds = text.integer(at: end), seconds.value < 60, let afterSecond = text.match(any: words.secondMarks, at: seconds.end) {
            time.second = seconds.value
            time.precision = 3
            end = afterSecond
        } else if time.minute == 30, let seconds = text.integer(at: end), seconds.value < 60,
                  let afterSecond = text.match(any: words.secondMarks, at: seconds.end) {
            time.second = seconds.value
            time.precision = 3
            end = afterSecond
        }
        if let afterExact = text.match(any: words.exactHourWords, at: end) { end = afterExact }
        return (time, end)
    }

    /// "am", "pm", "a.m.", "p.m." after a clock written with digits (spaces allowed before).
    private func meridiem(at index: Int) -> (Bool, Int)? {
        let start = text.skipSpaces(index)
        for (written, afternoon) in [("a.m.", false), ("p.m.", true), ("am", false), ("pm", true)] {
            if let end = text.match(Array(written.unicodeScalars), at: start) { return (afternoon, end) }
        }
        return nil
    }

    /// A time with the part of the day before it ("下午5:00", "夜の8時20分"), "about" before it ("大约十点", kept without
    /// a Mod); or a part of the day that stands alone ("上午").
    func time(at index: Int) -> (CJKDatePiece, Int)? {
        var position = text.match(any: words.approximatePrefixes, at: index) ?? index
        var part: Part?, standsAlone = false
        if let (found, alone, end) = partOfDay(at: position) {
            part = found
            standsAlone = alone
            position = text.match(any: words.linkers, at: end) ?? end
            if let (clock, clockEnd) = clock(at: position) {
                return (.clock(clock.within(found)), clockEnd)
            }
            position = end
        }
        if let part {
            return standsAlone && position > index ? (.part(part), position) : nil
        }
        return clock(at: position).map { (.clock($0.0), $0.1) }
    }

    /// Today's part of the day said in one word, with a clock time or alone ("今晚6点", "昨夜", "今朝8時").
    func relativePartOfDay(at index: Int) -> (CJKDatePiece, Int)? {
        for (word, offset, part) in words.relativePartsOfDay {
            guard let end = text.match(word, at: index) else { continue }
            let day = SpokenDate(kind: .exact(today.adding(days: offset)))
            if let (clock, clockEnd) = clock(at: end) { return (.dayClock(day, clock.within(part)), clockEnd) }
            return (.dayPart(day, part), end)
        }
        return nil
    }

    /// A date with a time or a part of the day after it ("明天下午5:00", "2015年1月1日の10時", "明日の夜"), or either alone.
    func point(at index: Int) -> (CJKDatePiece, Int)? {
        if let found = relativePartOfDay(at: index) { return found }
        guard let (piece, end) = date(at: index) else { return time(at: index) }
        guard case .day(let day) = piece else { return (piece, end) }
        var after = text.match(any: words.linkers, at: end) ?? end
        if text.isSpace(after) { after = text.skipSpaces(after) }
        if let (timePiece, timeEnd) = time(at: after) {
            switch timePiece {
            case .clock(let clock): return (.dayClock(day, clock), timeEnd)
            case .part(let part): return (.dayPart(day, part), timeEnd)
            default: break
            }
        }
        return (piece, end)
    }
}

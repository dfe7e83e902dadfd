/// Reads dates from tokens: "today", "next Friday", "May 4th", "the 4th of May, 2017", "5/17/2018",
/// "2018-05-17", "in 3 days", "two days ago". Each function returns the date and the index one past
/// its last token, or nil; none looks more than a few tokens ahead.
struct DateParser {
    let text: TokenizedText
    let numbers: NumberParser
    let durations: DurationParser
    let reference: CivilDate

    init(_ text: TokenizedText, numbers: NumberParser, reference: CivilDate) {
        self.text = text
        self.numbers = numbers
        self.durations = DurationParser(text, numbers: numbers)
        self.reference = reference
    }

    /// Any date starting at `index`.
    func date(at index: Int) -> (SpokenDate, Int)? {
        // Before the weekdays: "last Monday of March" is not "last Monday".
        if let found = nthWeekdayOfMonth(at: index) { return found }
        // Holidays named after a weekday: "Monday of the Holy Spirit", "Thu of Mysteries".
        if let word = text.word(index), DateTimeWords.weekdays[word] != nil, let found = holidayDate(at: index) { return found }
        if let found = relativeDay(at: index) { return found }
        if let found = weekdayDate(at: index) { return found }
        if let found = monthDay(at: index) { return found }
        if let found = dayMonth(at: index) { return found }
        if let found = numericDate(at: index) { return found }
        if let found = offsetDate(at: index) { return found }
        if let found = holidayDate(at: index) { return found }
        if let found = dayOfRelativeMonth(at: index) { return found }
        if let found = dayOfMonth(at: index) { return found }
        if let found = countedWeekday(at: index) { return found }
        return nil
    }

    /// "3 fridays from now", "two sundays hence", "2 thursdays ago", "2 thursdays back": the nth such
    /// weekday after (or before) today, today not counted.
    func countedWeekday(at index: Int) -> (SpokenDate, Int)? {
        guard let number = numbers.parse(at: index), number.kind == .cardinal, number.value.isInteger,
              number.value.double >= 1, number.value.double <= 520, let plural = text.word(number.endToken),
              plural.hasSuffix("s"), let weekday = DateTimeWords.weekdays[plural], let relation = text.word(number.endToken + 1) else { return nil }
        let count = Int(number.value.double)
        let end: Int
        let forward: Bool
        if relation == "from", text.word(number.endToken + 2) == "now" {
            (end, forward) = (number.endToken + 3, true)
        } else if relation == "hence" || relation == "ago" || relation == "back" {
            (end, forward) = (number.endToken + 2, relation == "hence")
        } else {
            return nil
        }
        let first = forward ? reference.adding(days: (weekday - reference.weekday + 6) % 7 + 1)
            : reference.adding(days: -((reference.weekday - weekday + 6) % 7 + 1))
        let date = first.adding(days: (forward ? 7 : -7) * (count - 1))
        guard date.year >= 1, date.year <= 9999 else { return nil }
        return (SpokenDate(kind: .exact(date)), end)
    }

    /// "the 4th", "the eleventh": a day of this or another month.
    func dayOfMonth(at index: Int) -> (SpokenDate, Int)? {
        guard text.word(index) == "the", let token = text.token(index + 1) else { return nil }
        let isOrdinal = token.isDigits ? text.token(index + 2).map { $0.isWord && !$0.spaceBefore && NumberWords.ordinalSuffixes.contains($0.text) } == true
            : NumberWords.ordinal(token.text) != nil
        guard isOrdinal, let (day, end) = dayNumber(at: index + 1) else { return nil }
        if let next = text.word(end), next == "of" || DateTimeWords.months[next] != nil || next == "day" || next == "week" || next == "century" { return nil }
        return (SpokenDate(kind: .dayOfMonth(day)), end)
    }

    // MARK: words

    /// "today", "tomorrow", "yesterday", "the day after tomorrow", "the day before yesterday", "the day after".
    func relativeDay(at index: Int) -> (SpokenDate, Int)? {
        guard let word = text.word(index) else { return nil }
        func day(_ offset: Int, _ end: Int) -> (SpokenDate, Int) { (SpokenDate(kind: .exact(reference.adding(days: offset))), end) }
        switch word {
        case "today": return day(0, index + 1)
        case "tomorrow", "tmr", "tomorow", "tommorow": return day(1, index + 1)
        case "yesterday": return day(-1, index + 1)
        case "the", "day":
            let start = word == "the" ? index + 1 : index
            guard text.word(start) == "day" else { return nil }
            if text.word(start + 1) == "after" {
                if text.word(start + 2) == "tomorrow" { return day(2, start + 3) }
                if word == "the", text.word(start + 2) == nil || text.token(start + 2)?.kind == .symbol { return day(1, start + 2) }
            }
            if text.word(start + 1) == "before", text.word(start + 2) == "yesterday" { return day(-2, start + 3) }
            return nil
        default: return nil
        }
    }

    /// "Monday", "this/next/last/past/previous/coming Monday", "next week Monday", "Tuesday of next week",
    /// "Tuesday, Jan 15" (the written date wins), "Monday 21" (the day of the month that is a Monday).
    func weekdayDate(at index: Int) -> (SpokenDate, Int)? {
        var position = index
        var modifier: String?
        if let word = text.word(position), ["this", "next", "last", "past", "previous", "coming", "upcoming", "following"].contains(word) {
            modifier = word == "following" ? "next" : word
            position += 1
            // "this upcoming Friday", "this past Wednesday".
            if word == "this", let second = text.word(position), second == "upcoming" || second == "coming" || second == "past" {
                modifier = second
                position += 1
            }
        }
        // "next week Monday", "next week on Tuesday".
        if let modifier, modifier != "past", text.word(position) == "week" {
            var dayIndex = position + 1
            if text.word(dayIndex) == "on" { dayIndex += 1 }
            guard let weekdayWord = text.word(dayIndex), let weekday = DateTimeWords.weekdays[weekdayWord] else { return nil }
            let weeks = modifier == "next" || modifier == "coming" || modifier == "upcoming" ? 1 : modifier == "this" ? 0 : -1
            return (SpokenDate(kind: .exact(reference.weekStart.adding(days: 7 * weeks + weekday - 1))), dayIndex + 1)
        }
        guard let word = text.word(position), let weekday = DateTimeWords.weekdays[word], !word.hasSuffix("s") || word.count <= 4 else {
            return nil
        }
        if word == "sun" || word == "sat" || word == "wed" || word == "mon", !text[position].capitalized, modifier == nil {
            return nil
        }
        var end = position + 1
        let week = reference.weekStart
        switch modifier {
        case "this": return (SpokenDate(kind: .exact(week.adding(days: weekday - 1))), end)
        case "next", "coming", "upcoming":
            if modifier != "next" {
                return (SpokenDate(kind: .exact(reference.adding(days: (weekday - reference.weekday + 7) % 7 == 0 ? 7 : (weekday - reference.weekday + 7) % 7))), end)
            }
            return (SpokenDate(kind: .exact(week.adding(days: 7 + weekday - 1))), end)
        case "last", "previous": return (SpokenDate(kind: .exact(week.adding(days: -7 + weekday - 1))), end)
        case "past":
            let back = (reference.weekday - weekday + 7) % 7
            return (SpokenDate(kind: .exact(reference.adding(days: back == 0 ? -7 : -back))), end)
        default: break
        }
        // "friday after next": the one after the coming one.
        if text.word(end) == "after", text.word(end + 1) == "next" {
            let ahead = (weekday - reference.weekday + 6) % 7 + 1
            return (SpokenDate(kind: .exact(reference.adding(days: ahead + 7))), end + 2)
        }
        // "Tuesday of next week", "monday of the following week", "Wednesday next week".
        var after = end
        if text.word(after) == "of" { after += 1 }
        if text.word(after) == "the" { after += 1 }
        if let relation = text.word(after), text.word(after + 1) == "week" {
            let weeks: Int? = ["next", "following", "coming"].contains(relation) ? 1 : relation == "this" ? 0
                : ["last", "previous"].contains(relation) ? -1 : nil
            if let weeks { return (SpokenDate(kind: .exact(week.adding(days: 7 * weeks + weekday - 1))), after + 2) }
        }
        // "Tuesday, Jan 15", "friday 5/12", "Thursday 29/03": the written date.
        var written = end
        if let comma = text.token(written), comma.isSymbol(",") { written += 1 }
        if text.word(written) == "the" || text.token(written)?.isDigits == true || text.word(written).map({ DateTimeWords.months[$0] != nil }) == true {
            if let (date, dateEnd) = monthDay(at: written) ?? dayMonth(at: written) ?? numericDate(at: written) {
                return (date, dateEnd)
            }
            // "Monday 21": the past and the future 21st that fall on a Monday; "tuesday the eleventh": the nearest.
            var dayIndex = written
            if text.word(dayIndex) == "the" { dayIndex += 1 }
            if let (day, dayEnd) = dayNumber(at: dayIndex), !(text.token(dayEnd).map { $0.isSymbol(":") || $0.isSymbol("-") } ?? false),
               !(text.word(dayEnd).map { ["am", "pm", "a", "p", "oclock"].contains($0) } ?? false) {
                let open = SpokenDate(kind: .weekdayAndDay(weekday: weekday, day: day))
                guard dayIndex > written else { return open.readings(reference).isEmpty ? nil : (open, dayEnd) }
                for offset in 0...12 {
                    for sign in [1, -1] {
                        let month = CivilDate(year: reference.year, month: reference.month, day: 1)!.adding(months: sign * offset)
                        if let date = CivilDate(year: month.year, month: month.month, day: day), date.weekday == weekday {
                            return (SpokenDate(kind: .exact(date)), dayEnd)
                        }
                    }
                }
            }
        }
        end = position + 1
        return (SpokenDate(kind: .weekday(weekday)), end)
    }

    /// "May 4th", "May the 4th", "May twenty nine", "Dec. 31 , 1994", "Jan/3", "May 4, 2017".
    func monthDay(at index: Int) -> (SpokenDate, Int)? {
        guard let (month, afterMonth) = monthName(at: index) else { return nil }
        var position = afterMonth
        if let separator = text.token(position), separator.isSymbol("/") || separator.isSymbol("-"), !separator.spaceBefore {
            position += 1
        }
        if text.word(position) == "the" { position += 1 }
        guard let (day, dayEnd) = dayNumber(at: position) else { return nil }
        // "May 4:30" is a time, "May 2017" a month.
        if let next = text.token(dayEnd), next.isSymbol(":") { return nil }
        return withYear(month: month, day: day, after: dayEnd)
    }

    /// "4th May", "the 4th of May", "01st Jan 2019", "18 June", "the 09th of May".
    func dayMonth(at index: Int) -> (SpokenDate, Int)? {
        var position = index
        if text.word(position) == "the" { position += 1 }
        guard let (day, dayEnd) = dayNumber(at: position) else { return nil }
        var monthIndex = dayEnd
        if text.word(monthIndex) == "of" { monthIndex += 1 }
        if let separator = text.token(monthIndex), separator.isSymbol("-") || separator.isSymbol("/"), !separator.spaceBefore {
            monthIndex += 1
        }
        guard let (month, afterMonth) = monthName(at: monthIndex) else { return nil }
        return withYear(month: month, day: day, after: afterMonth)
    }

    /// A month name with an optional abbreviation dot: (month, next index).
    func monthName(at index: Int) -> (Int, Int)? {
        guard let word = text.word(index), let month = DateTimeWords.months[word] else { return nil }
        // "may" and "march" are also words: as a month they are capitalised or lead a date.
        if word == "may" || word == "march", !text[index].capitalized,
           !(text.word(index - 1).map { DateTimeWords.monthLeads.contains($0) } ?? false) {
            guard text.token(index + 1)?.isDigits == true else { return nil }
        }
        var end = index + 1
        // "Dec. 31": the abbreviation's dot, when a day follows (at the end of a sentence it is the full stop).
        if word.count == 3 || word == "sept", let dot = text.token(end), dot.isSymbol("."), !dot.spaceBefore,
           text.token(end + 1)?.isDigits == true {
            end += 1
        }
        return (month, end)
    }

    /// A day of the month, 1…31: "4", "04", "4th", "fourth", "twenty-ninth", "twenty nine".
    func dayNumber(at index: Int) -> (Int, Int)? {
        guard let token = text.token(index) else { return nil }
        if token.isDigits {
            guard token.text.count <= 2, let day = Int(token.text), day >= 1, day <= 31 else { return nil }
            if let suffix = text.token(index + 1), suffix.isWord, !suffix.spaceBefore {
                guard NumberWords.ordinalSuffixes.contains(suffix.text) else { return nil }
                return (day, index + 2)
            }
            return (day, index + 1)
        }
        guard token.isWord, let number = numbers.parse(at: index), number.spelled, let value = number.value.integer,
              number.endToken - index <= 4 else { return nil }
        guard value >= 1, value <= 31 else { return nil }
        return (value, number.endToken)
    }

    /// A year after a month and day: ", 2017", " 2017", " in 2017".
    private func withYear(month: Int, day: Int, after index: Int) -> (SpokenDate, Int)? {
        var position = index
        if let comma = text.token(position), comma.isSymbol(",") { position += 1 }
        if text.word(position) == "in" || text.word(position) == "of" { position += 1 }
        if let (year, yearEnd) = year(at: position) {
            guard let date = CivilDate(year: year, month: month, day: day) else { return nil }
            return (SpokenDate(kind: .exact(date)), yearEnd)
        }
        // February 30th does not exist in any year; February 29th does, in leap years.
        guard CivilDate(year: 2000, month: month, day: day) != nil else { return nil }
        return (SpokenDate(kind: .monthDay(month: month, day: day)), index)
    }

    /// A four-digit year 1000…2999 (or "'19"): (year, next index).
    func year(at index: Int) -> (Int, Int)? {
        guard let token = text.token(index) else { return nil }
        if token.isWord { return spokenYear(at: index) }
        guard token.isDigits, token.text.count == 4, let year = Int(token.text),
              year >= 1000, year <= 2999 else { return nil }
        if let next = text.token(index + 1), !next.spaceBefore, next.isWord || next.isDigits { return nil }
        return (year, index + 1)
    }

    /// A year in words: "two thousand and fifteen", "nineteen hundred ninety three", "nineteen ninety six",
    /// "twenty twenty".
    private func spokenYear(at index: Int) -> (Int, Int)? {
        guard let number = numbers.parse(at: index), number.spelled, number.kind == .cardinal, let value = number.value.integer else { return nil }
        if value >= 1000, value <= 2999 { return (value, number.endToken) }
        // Two pairs of digits said apart: the century, then the year in it.
        guard value >= 11, value <= 29, number.endToken == index + 1,
              let rest = numbers.parse(at: number.endToken), rest.spelled, rest.kind == .cardinal, rest.value.isInteger,
              rest.value.double >= 10, rest.value.double <= 99, text.word(number.endToken) != "and" else { return nil }
        return (value * 100 + Int(rest.value.double), rest.endToken)
    }

    /// "first tuesday of october", "the last Sunday of March 2014", "second wednesday in october 2014".
    func nthWeekdayOfMonth(at index: Int) -> (SpokenDate, Int)? {
        var position = index
        if text.word(position) == "the" { position += 1 }
        let nth: Int
        if text.word(position) == "last" {
            nth = -1
            position += 1
        } else if let number = numbers.parse(at: position), number.kind == .ordinal, number.value.isInteger,
                  number.value.double >= 1, number.value.double <= 5 {
            nth = Int(number.value.double)
            position = number.endToken
        } else {
            return nil
        }
        guard let weekdayWord = text.word(position), let weekday = DateTimeWords.weekdays[weekdayWord],
              let of = text.word(position + 1), of == "of" || of == "in" else { return nil }
        // "first monday of last month", "the first Monday of this month", "first Monday in the month".
        var monthStart = position + 2
        if text.word(monthStart) == "the" { monthStart += 1 }
        if let offset = ["this": 0, "current": 0, "next": 1, "following": 1, "last": -1, "previous": -1, "month": 0][text.word(monthStart) ?? ""],
           text.word(monthStart) == "month" || text.word(monthStart + 1) == "month",
           text.word(monthStart) != "month" || monthStart > position + 2 {
            let first = CivilDate(year: reference.year, month: reference.month, day: 1)!.adding(months: offset)
            let end = text.word(monthStart) == "month" ? monthStart + 1 : monthStart + 2
            return Holiday.nthWeekday(month: first.month, weekday: weekday, nth: nth).date(in: first.year)
                .flatMap { $0.month == first.month ? (SpokenDate(kind: .exact($0)), end) : nil }
        }
        guard let (month, afterMonth) = monthName(at: position + 2) else { return nil }
        let rule = Holiday.nthWeekday(month: month, weekday: weekday, nth: nth)
        var yearIndex = afterMonth
        if let comma = text.token(yearIndex), comma.isSymbol(",") { yearIndex += 1 }
        if let (year, end) = self.year(at: yearIndex) {
            return rule.date(in: year).flatMap { $0.month == month ? (SpokenDate(kind: .exact($0)), end) : nil }
        }
        let timex = "XXXX-" + Timex.pad(month, 2) + "-WXX-" + String(weekday) + "-#" + String(nth > 0 ? nth : 5)
        let open = SpokenDate(kind: .holiday(rule, timex: timex))
        guard open.readings(reference).allSatisfy({ $0.month == month }), !open.readings(reference).isEmpty else { return nil }
        return (open, afterMonth)
    }

    /// "20th of next month", "the 15th day of next month", "20 of this month", "the 26th day of the month".
    func dayOfRelativeMonth(at index: Int) -> (SpokenDate, Int)? {
        var position = index
        if text.word(position) == "the" { position += 1 }
        guard let (day, afterDay) = dayNumber(at: position) else { return nil }
        position = afterDay
        if text.word(position) == "day" { position += 1 }
        guard text.word(position) == "of" else { return nil }
        position += 1
        if text.word(position) == "the" { position += 1 }
        let offsets = ["this": 0, "current": 0, "next": 1, "following": 1, "last": -1, "previous": -1]
        var offset = 0
        if let word = text.word(position), let value = offsets[word] {
            offset = value
            position += 1
        } else if text.word(position - 1) != "the" {
            return nil
        }
        guard text.word(position) == "month" else { return nil }
        let first = CivilDate(year: reference.year, month: reference.month, day: 1)!.adding(months: offset)
        return CivilDate(year: first.year, month: first.month, day: day).map { (SpokenDate(kind: .exact($0)), position + 1) }
    }

    /// "christmas", "easter 2018", "next thanksgiving", "last easter", "black friday of this year",
    /// "MLK day of last year".
    func holidayDate(at index: Int) -> (SpokenDate, Int)? {
        var position = index
        let relation = text.word(position).flatMap { ["this", "next", "last", "previous", "following", "upcoming", "coming"].contains($0) ? $0 : nil }
        if relation != nil { position += 1 }
        guard let (holiday, afterName) = Holiday.read(text, at: position) else { return nil }
        // A year: "easter 2018", "christmas of 2013", "black friday of this year", "in 2014".
        var yearIndex = afterName
        if let word = text.word(yearIndex), word == "of" || word == "in" { yearIndex += 1 }
        if let (year, end) = self.year(at: yearIndex) {
            return holiday.date(in: year).map { (SpokenDate(kind: .exact($0)), end) }
        }
        if text.word(afterName) == "of", let which = text.word(afterName + 1), text.word(afterName + 2) == "year",
           let offset = ["this": 0, "next": 1, "last": -1, "previous": -1][which] {
            return holiday.date(in: reference.year + offset).map { (SpokenDate(kind: .exact($0)), afterName + 3) }
        }
        let open = SpokenDate(kind: .holiday(holiday, timex: "XXXX"))
        let readings = open.readings(reference)
        guard let past = readings.first, let future = readings.last else { return nil }
        switch relation {
        case "last", "previous":
            let before = past < reference ? past : (holiday.date(in: past.year - 1) ?? past)
            return (SpokenDate(kind: .exact(before)), afterName)
        case .some:
            let after = future > reference || relation == "this" ? future : (holiday.date(in: future.year + 1) ?? future)
            return (SpokenDate(kind: .exact(after)), afterName)
        case nil:
            // A holiday that moves has no shared TIMEX: its readings' own are written (`timex(of:)`); the past one's
            // stands for it where no reading is at hand.
            return (SpokenDate(kind: .holiday(holiday, timex: holiday.openYearTimex ?? "XXXX" + String(past.text.dropFirst(4)))), afterName)
        }
    }

    // MARK: digits

    /// "5/17/2018", "5/17", "17/5/2018", "2018-05-17", "2019/aug/01", "1.1.2019" (day first when the
    /// first number cannot be a month).
    func numericDate(at index: Int) -> (SpokenDate, Int)? {
        guard let first = text.token(index), first.isDigits, let a = Int(first.text),
              let separator = text.token(index + 1), !separator.spaceBefore,
              separator.isSymbol("/") || separator.isSymbol("-") || separator.isSymbol("."),
              !(index > 0 && !first.spaceBefore && (text[index - 1].isDigits || text[index - 1].isSymbol("/"))) else { return nil }
        let mark = separator.text
        // ISO "2018-05-17" or "2019/aug/01".
        if first.text.count == 4 {
            guard let monthToken = text.token(index + 2), !monthToken.spaceBefore else { return nil }
            let month: Int?
            if monthToken.isDigits { month = Int(monthToken.text) } else { month = DateTimeWords.months[monthToken.text] }
            guard let month, let second = text.token(index + 3), second.isSymbol(mark), !second.spaceBefore,
                  let dayToken = text.token(index + 4), dayToken.isDigits, !dayToken.spaceBefore, let day = Int(dayToken.text),
                  let date = CivilDate(year: a, month: month, day: day) else { return nil }
            return (SpokenDate(kind: .exact(date)), index + 5)
        }
        guard first.text.count <= 2, let secondToken = text.token(index + 2), secondToken.isDigits, !secondToken.spaceBefore,
              secondToken.text.count <= 2, let b = Int(secondToken.text) else { return nil }
        let (month, day) = a > 12 && b <= 12 ? (b, a) : (a, b)
        if let next = text.token(index + 3), next.isSymbol(mark), !next.spaceBefore,
           let yearToken = text.token(index + 4), yearToken.isDigits, !yearToken.spaceBefore {
            guard var year = Int(yearToken.text), yearToken.text.count == 4 || yearToken.text.count == 2 else { return nil }
            // Two digits: 00-29 this century, 30-99 the last; LUIS leaves 30-39 open to the century.
            let openCentury = yearToken.text.count == 2 && year >= 30 && year < 40
            if yearToken.text.count == 2 { year += year < 30 ? 2000 : 1900 }
            guard let date = CivilDate(year: year, month: month, day: day) else { return nil }
            return (SpokenDate(kind: openCentury ? .openCentury(date) : .exact(date)), index + 5)
        }
        // Without a year only "/" makes a date ("5/17"); "7.6" and "3-8" are more often other things.
        guard mark == "/", CivilDate(year: 2000, month: month, day: day) != nil else { return nil }
        if let next = text.token(index + 3), !next.spaceBefore, next.isDigits || next.isSymbol("/") { return nil }
        return (SpokenDate(kind: .monthDay(month: month, day: day)), index + 3)
    }

    // MARK: offsets

    /// "in 3 days", "in two weeks", "3 days ago", "two days from today", "2 weeks from now", "a week later".
    func offsetDate(at index: Int) -> (SpokenDate, Int)? {
        guard let (offset, end) = dayOffset(at: index) else { return nil }
        return (SpokenDate(kind: .exact(offset)), end)
    }

    /// The date moved by an amount, or nil when it leaves the years 1…9999 ("3000000 weeks ago").
    private func dayOffset(at index: Int) -> (CivilDate, Int)? {
        guard let (date, end) = unboundedDayOffset(at: index), date.year >= 1, date.year <= 9999 else { return nil }
        return (date, end)
    }

    private func unboundedDayOffset(at index: Int) -> (CivilDate, Int)? {
        var position = index
        let leadingIn = text.word(position) == "in"
        if leadingIn { position += 1 }
        // "in 2 weeks", "1 year, 1 month ago", "in 1 decade 2 months": whole months, then whole days.
        guard let duration = durations.duration(at: position), duration.seconds < 3e11,  // within 9999 years
              let shift = duration.calendarShift, shift.seconds == 0 else { return nil }
        let afterUnit = duration.end
        func moved(_ date: CivilDate, _ sign: Int) -> CivilDate? {
            (shift.months == 0 ? date : date.addingIfInRange(months: sign * shift.months))?.adding(days: sign * shift.days)
        }
        func shifted(_ sign: Int) -> CivilDate? { moved(reference, sign) }
        // "three weeks from tomorrow", "3 days from Tuesday", "two days before yesterday".
        if !leadingIn, let word = text.word(afterUnit), word == "from" || word == "after" || word == "before",
           let (anchor, anchorEnd) = relativeDay(at: afterUnit + 1) ?? weekdayDate(at: afterUnit + 1) ?? monthDay(at: afterUnit + 1)
               ?? holidayDate(at: afterUnit + 1),
           let base = anchor.readings(reference).last {
            return moved(base, word == "before" ? -1 : 1).map { ($0, anchorEnd) }
        }
        if leadingIn, let word = text.word(afterUnit), ["ago", "before", "from", "after", "later"].contains(word) {
            return nil  // "in two days from today": the date is "two days from today", read from the next token
        }
        if let word = text.word(afterUnit) {
            if word == "ago" || word == "before", word == "ago" || text.word(afterUnit + 1) == "today" {
                let end = word == "ago" ? afterUnit + 1 : afterUnit + 2
                return shifted(-1).map { ($0, end) }
            }
            if word == "from" || word == "after", let what = text.word(afterUnit + 1), what == "now" || what == "today" {
                return shifted(1).map { ($0, afterUnit + 2) }
            }
            if word == "later" || word == "hence", !leadingIn { return shifted(1).map { ($0, afterUnit + 1) } }
        }
        guard leadingIn else { return nil }
        return shifted(1).map { ($0, afterUnit) }
    }
}

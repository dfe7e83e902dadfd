/// Reads the pieces of a date-time in a language other than English from its ``DateTimeLexicon``: clock times
/// ("15h30", "sept heures moins dix", "a las 3 de la tarde"), dates ("3 mars 2024", "el 3 de marzo", "23/06/18",
/// "lundi prochain", "pasado mañana"), periods ("la semaine prochaine", "los últimos 3 meses", "du 3 au 5 mars")
/// and amounts of time ("3 heures", "quelques jours"). Each reader takes a token index and returns what it read
/// with the index after it; every one looks a bounded number of tokens ahead, numbers come from the language's
/// (cached) number reader, so recognition stays linear in the length of the text.
///
/// A class: the candidates, the range readers and their closures hold it many times over for each token; a reference
/// is one retain, where each copy of a struct would retain its text's arrays, its number reader and its lexicon.
final class LexiconDateTimeReader {
    let text: DateTimeText
    let numbers: any NumberReader
    let reference: ReferenceTime
    let words: DateTimeLexicon

    init(text: DateTimeText, words: DateTimeLexicon, numbers: any NumberReader, reference: ReferenceTime) {
        self.text = text
        self.numbers = numbers
        self.reference = reference
        self.words = words
    }

    var today: CivilDate { reference.date }

    // MARK: numbers

    /// A whole number from 0 to `max`: digits (with an ordinal ending "1er", "2º"), or words.
    func integer(at index: Int, max: Int = 9999) -> (Int, Int)? {
        if let value = text.digits(index) {
            // "3.5", "123,45": a decimal is no whole number.
            if text.isSymbol(index + 1, ".") || text.isSymbol(index + 1, ","), text.touches(index + 1), text.touches(index + 2),
               text.digits(index + 2, maxDigits: 9) != nil { return nil }
            var end = index + 1
            // "1er", "2e", "1ro", "9º", "1.º".
            if text.isSymbol(end, "."), text.touches(end), text.touches(end + 1), text.folded(end + 1) == "º" { end += 1 }
            if let suffix = text.folded(end), text.touches(end), ["er", "re", "e", "eme", "o", "a", "ro", "do", "º", "ª", "°"].contains(suffix) { end += 1 }
            // "2. Oktober": a German ordinal day.
            if words.dayDot, end == index + 1, text.isSymbol(end, "."), text.touches(end) { end += 1 }
            return value <= max ? (value, end) : nil
        }
        guard text.word(index) != nil, let match = numbers.parse(at: index), match.firstToken == index,
              let value = match.value.integer, value >= 0, value <= max else { return nil }
        return (value, match.endToken)
    }

    /// Exactly two digits touching the token before ("15h30", "7:56").
    private func twoDigits(_ index: Int) -> Int? {
        guard let token = text.tokens.token(index), token.isDigits, token.text.count == 2, text.touches(index) else { return nil }
        return Int(token.text)
    }

    /// An amount of units: digits with a decimal point or comma ("3.5", "123,45"), words, or "a few" (3).
    func amount(at index: Int) -> (Double, Int)? {
        if let (_, end) = words.few.match(text, at: index) { return (3, end) }
        if let (_, end) = words.couple.match(text, at: index) { return (2, end) }
        if let (_, end) = words.articleOne.match(text, at: index) { return (1, end) }
        if let whole = text.digits(index, maxDigits: 9) {
            if text.isSymbol(index + 1, ".") || text.isSymbol(index + 1, ","), text.touches(index + 1), text.touches(index + 2),
               let fraction = text.tokens.token(index + 2), fraction.isDigits, fraction.text.count <= 6,
               let value = Double("\(whole).\(fraction.text)") {
                return (value, index + 3)
            }
            return (Double(whole), index + 1)
        }
        // "primera semana" is no amount of weeks.
        guard text.word(index) != nil, let match = numbers.parse(at: index), match.firstToken == index, match.kind != .ordinal else { return nil }
        let value = match.value.double
        guard value.isFinite, value > 0, value < 1e7 else { return nil }
        return (value, match.endToken)
    }

    /// Four digits from 1000 to 2999.
    func fourDigitYear(at index: Int) -> (Int, Int)? {
        guard let token = text.tokens.token(index), token.isDigits, token.text.count == 4, let year = Int(token.text),
              (1000...2999).contains(year) else { return nil }
        return (year, index + 1)
    }

    /// A year: four digits from 1000 to 2999, two digits (19xx from 50, 20xx below), or words ("dos mil dieciocho").
    func year(at index: Int) -> (Int, Int)? {
        if let token = text.tokens.token(index), token.isDigits {
            guard let value = Int(token.text) else { return nil }
            if token.text.count == 4, (1000...2999).contains(value) { return (value, index + 1) }
            if token.text.count == 2 { return (value < 50 ? 2000 + value : 1900 + value, index + 1) }
            return nil
        }
        guard let (value, end) = integer(at: index), (1000...2999).contains(value) else { return nil }
        return (value, end)
    }

    // MARK: clock times

    /// A clock time: "15h30", "4h45", "7:56:30 pm", "1140 a.m.", "huit heures", "sept heures moins dix",
    /// "las 3 y media", "midi"; then "du matin" / "de la tarde" when said. A bare hour ("à 23", "a las 5") only
    /// when `bare` (a word before said it is a time); so is "N heures" without minutes, which is otherwise an
    /// amount of hours.
    func time(at index: Int, bare: Bool) -> (SpokenTime, Int)? {
        if let (hour, end) = words.namedHours.match(text, at: index) {
            return (SpokenTime(hour: hour, minute: 0, second: 0, precision: 1, ambiguous: false), end)
        }
        guard let (found, end) = clock(at: index, bare: bare) else { return nil }
        var time = found, after = end
        if words.hourWordIsClock, let (_, afterHours) = words.hourWords.match(text, at: after) { after = afterHours }  // "11:00 Uhr"
        if let (part, afterPart) = words.timeSuffixes.match(text, at: after) {
            // "12 Uhr nachts", "12 abends": midnight.
            let midnight = time.hour == 12 && time.minute == 0 && (part.code == "NI" || part.code == "EV")
            time = time.within(part)
            if !part.afternoon || midnight, time.hour == 12 { time.hour = 0 }
            after = afterPart
        }
        return (time, after)
    }

    private func clock(at index: Int, bare: Bool) -> (SpokenTime, Int)? {
        // "halb 8", "Viertel nach 8", "dreiviertel 8": minutes from the hour that follows.
        if let (minutes, afterFraction) = words.hourFractionsBefore.match(text, at: index),
           let (hour, end) = hourNumber(at: afterFraction), hour >= 1, hour <= 24 {
            let time = SpokenTime(hour: hour, minute: 0, second: 0, precision: 1, ambiguous: hour <= 12)
            var moved = adding(minutes, to: time)
            if moved.hour > 12 || moved.hour == 0 { moved.ambiguous = false }
            moved.twelveIsMidnightToo = true
            return (moved, end)
        }
        // "5 minuti alle 4", "dieci minuti alle otto": minutes before the hour that follows.
        if let (minutes, afterAmount) = integer(at: index, max: 59), minutes >= 1,
           let (_, afterMinutes) = words.minuteWords.match(text, at: afterAmount),
           let (_, afterLead) = words.minutesBeforeHour.match(text, at: afterMinutes),
           let (hour, end) = hourNumber(at: afterLead), hour >= 1, hour <= 24 {
            let time = SpokenTime(hour: hour, minute: 0, second: 0, precision: 1, ambiguous: hour <= 12)
            var moved = adding(-minutes, to: time)
            if moved.hour > 12 || moved.hour == 0 { moved.ambiguous = false }
            moved.twelveIsMidnightToo = true
            return (moved, end)
        }
        // "1140 a.m.": hours and minutes in four digits, only with the half of the day.
        if let token = text.tokens.token(index), token.isDigits, token.text.count == 4, let value = Int(token.text),
           value / 100 <= 12, value % 100 < 60, let (pm, end) = meridiem(at: index + 1) {
            let time = SpokenTime(hour: value / 100, minute: value % 100, second: 0, precision: 2, ambiguous: true)
            return (pm ? time.afternoon() : time.morning(), end)
        }
        guard let (hour, afterHour) = hourNumber(at: index) else { return nil }
        var time = SpokenTime(hour: hour, minute: 0, second: 0, precision: 1, ambiguous: hour >= 1 && hour <= 12)
        var end = afterHour
        var clear = false, hourWord = false
        let isDigits = text.digits(index) != nil
        if isDigits, text.isSymbol(end, ":"), let minute = twoDigits(end + 1), minute < 60, text.touches(end) {
            time.minute = minute
            time.precision = 2
            end += 2
            clear = true
            if text.isSymbol(end, ":"), text.touches(end), let second = twoDigits(end + 1), second < 60 {
                time.second = second
                time.precision = 3
                end += 2
            }
        } else if isDigits, text.isSymbol(end, "."), text.touches(end), let minute = twoDigits(end + 1), minute < 60,
                  bare || words.dotClockTimes || meridiem(at: end + 2) != nil, words.notTimes.match(text, at: end + 2) == nil {
            // "3.30 p.m.", "a las 11.00", "12.23:59".
            time.minute = minute
            time.precision = 2
            end += 2
            clear = true
            if words.dotClockTimes, text.isSymbol(end, ":"), text.touches(end), let second = twoDigits(end + 1), second < 60 {
                time.second = second
                time.precision = 3
                end += 2
            }
        } else if isDigits, text.word(end) == "h" {
            // "16h", "4h45", "12h00", "8 h et vingt minute".
            end += 1
            clear = true
            if let minute = twoDigits(end), minute < 60 {
                time.minute = minute
                time.precision = 2
                end += 1
            } else if let (minute, after) = minutes(at: end) {
                time = adding(minute, to: time)
                end = after
            }
        } else if let (_, after) = words.hourWords.match(text, at: end) {
            end = after
            hourWord = true
            if let (minute, afterMinutes) = minutes(at: end) {
                time = adding(minute, to: time)
                end = afterMinutes
                clear = true
            }
        } else if let (minute, after) = fraction(at: end) {
            // "sept et demie", "las 8 menos cuarto".
            time = adding(minute, to: time)
            end = after
            clear = true
            if let (_, afterHours) = words.hourWords.match(text, at: end) { end = afterHours }
        } else if bare, !isDigits, words.spelledHoursAfterLeads, let (minute, after) = minutes(at: end),
                  abs(minute) > 12 || words.minuteWords.match(text, at: after - 1) != nil {
            // "las ocho y veinte", "las seis menos cinco"; "entre 3 y 5" is no 3:05.
            time = adding(minute, to: time)
            end = after
            clear = true
        }
        if let (pm, after) = meridiem(at: end) {
            guard time.hour <= 12 else { return nil }
            time = pm ? time.afternoon() : time.morning()
            end = after
            clear = true
        }
        // "1 uur 's middags", "3 heures du matin": an hour word and a part of the day say a clock time.
        guard clear || bare || (hourWord && (words.hourWordIsClock && words.hourWordClockHours.contains(hour) || hour > 12 && hour < 24
                                             || words.timeSuffixes.match(text, at: end) != nil))
        else { return nil }
        // "um 15%" is a percentage.
        if text.isSymbol(end, "%") { return nil }
        // "12:75", "3/4": digits going on past what was read are no hour.
        if !clear, text.touches(end), text.isSymbol(end, ":") || text.isSymbol(end, "/") || text.isSymbol(end, "."),
           text.touches(end + 1), text.digits(end + 1, maxDigits: 9) != nil { return nil }
        // "à sept heures", but not "il y a une fête": a bare hour in words needs "heures".
        if !clear, !hourWord, !isDigits, !words.spelledHoursAfterLeads, words.timeSuffixes.match(text, at: end) == nil { return nil }
        // "à 3 jours" is no time.
        if !clear, !hourWord, words.units.match(text, at: end) != nil { return nil }
        if time.hour == 24, time.minute == 0 { time.hour = 0 }
        if time.hour > 12 || time.hour == 0 { time.ambiguous = false }
        time.twelveIsMidnightToo = true
        return (time, end)
    }

    /// An hour, 0 to 24: one or two digits not part of a decimal or a date, or words.
    private func hourNumber(at index: Int) -> (Int, Int)? {
        if let token = text.tokens.token(index), token.isDigits {
            guard token.text.count <= 2, let value = Int(token.text), value <= 24 else { return nil }
            if text.isSymbol(index + 1, "/") || text.isSymbol(index + 1, ","), text.touches(index + 1), text.digits(index + 2, maxDigits: 9) != nil,
               text.touches(index + 2) { return nil }
            return (value, index + 1)
        }
        // "tussen vijf en zeven": where an hour is one word, the words after it are no part of it.
        if let (value, end) = integer(at: index, max: 24), end == index + 1 || !words.spelledHourIsOneWord { return (value, end) }
        // "siete y media", "sept et demie": the hour is the first word alone.
        guard let value = numbers.wordValue(at: index)?.integer, value <= 24 else { return nil }
        return (value, index + 1)
    }

    /// Minutes after "heures" or "h": "dix", "et vingt-sept minutes", "moins dix", "et demie", "y cuarto".
    private func minutes(at index: Int) -> (Int, Int)? {
        if let found = fraction(at: index) { return found }
        var position = index, sign = 1
        if let (_, after) = words.minus.match(text, at: position) {
            sign = -1
            position = after
        } else if let (_, after) = words.plus.match(text, at: position) {
            position = after
        }
        guard let (minute, afterMinute) = integer(at: position, max: 59), minute > 0 else { return nil }
        // "9h le 13 décembre", "10h 22 avril": a number that is a day is no minute.
        if monthWord(at: afterMinute) != nil || words.units.match(text, at: afterMinute) != nil && words.minuteWords.match(text, at: afterMinute) == nil {
            return nil
        }
        var end = afterMinute
        if let (_, after) = words.minuteWords.match(text, at: end) { end = after }
        return (sign * minute, end)
    }

    private func fraction(at index: Int) -> (Int, Int)? { words.minuteFractions.match(text, at: index) }

    /// The time moved by `minutes` (negative: before the hour, "moins dix" from the next hour).
    private func adding(_ minutes: Int, to time: SpokenTime) -> SpokenTime {
        var moved = time
        let total = ((time.hour * 60 + minutes) % 1440 + 1440) % 1440
        moved.hour = total / 60
        moved.minute = total % 60
        moved.precision = max(moved.precision, 2)
        if time.ambiguous, moved.hour == 0 { moved.hour = 12 }
        return moved
    }

    /// "am", "pm", "a.m.", "p. m.": whether afternoon, and the index after.
    private func meridiem(at index: Int) -> (Bool, Int)? {
        guard let word = text.word(index) else { return nil }
        if word == "am" || word == "pm" {
            var end = index + 1
            if text.isSymbol(end, "."), text.touches(end) { end += 1 }
            // "3am3io" in a URL goes on as one run of letters and digits.
            if end == index + 1, text.touches(end), text.tokens.token(end)?.kind != .symbol { return nil }
            return (word == "pm", end)
        }
        guard word == "a" || word == "p", text.isSymbol(index + 1, "."), text.word(index + 2) == "m" else { return nil }
        var end = index + 3
        if text.isSymbol(end, "."), text.touches(end) { end += 1 }
        return (word == "p", end)
    }

    // MARK: dates

    /// A month name or abbreviation ("mars", "sept.", "ene"), with the index after a touching period.
    func monthWord(at index: Int) -> (month: Int, full: Bool, end: Int)? {
        if let (month, end) = words.months.match(text, at: index) { return (month, true, end) }
        guard let (month, end) = words.monthAbbreviations.match(text, at: index) else { return nil }
        return (month, false, text.isSymbol(end, ".") && text.touches(end) ? end + 1 : end)
    }

    /// A weekday ("lundi", "miércoles"), or a short one ("mer.", "miérc.") when `abbreviated` allows it.
    func weekday(at index: Int, abbreviated: Bool = false) -> (Int, Int)? {
        if let found = words.weekdays.match(text, at: index) { return found }
        guard let (weekday, end) = words.weekdayAbbreviations.match(text, at: index) else { return nil }
        let dotted = text.isSymbol(end, ".") && text.touches(end)
        // "sáb. a las 5": a short weekday with its period, followed by more of the sentence ("à la mer." ends one).
        guard abbreviated || dotted && text.tokens.token(end + 1).map({ !$0.capitalized && $0.kind != .symbol }) == true else { return nil }
        return (weekday, dotted ? end + 1 : end)
    }

    /// A day: "demain", "pasado mañana", "vendredi", "lundi prochain", "el próximo martes", "cette dimanche",
    /// "mercredi 10 juin 2020", "samedi 23/06/18", "lunes 21", "le 25 Mardi", "3 mars", "novembre 23 de 1987",
    /// "22/04", "15.05.99", "Sep-23-2020", "02 04 2009".
    func date(at index: Int) -> (SpokenDate, Int)? {
        if let (offset, end) = words.relativeDays.match(text, at: index) {
            return (SpokenDate(kind: .exact(today.adding(days: offset))), end)
        }
        if let (weekday, afterWeekday) = weekday(at: index, abbreviated: true) {
            var position = afterWeekday
            if text.isSymbol(position, ",") { position += 1 }
            if let found = calendarDate(at: position) { return found }
            // "vrijdag de vijftiende maart": an article between the weekday and its date.
            if let (_, afterArticle) = words.dayArticles.match(text, at: position), let found = calendarDate(at: afterArticle) { return found }
            // "mer" is also the sea: a short weekday only before its date, or with its period.
            guard words.weekdays.match(text, at: index) != nil || self.weekday(at: index) != nil else { return nil }
            if let (day, end) = integer(at: position, max: 31), day >= 1, !startsTime(at: end) {
                return (SpokenDate(kind: .weekdayAndDay(weekday: weekday, day: day)), end)
            }
            // "martes el día 25", "martes el veinticinco": as "le 25 Mardi", the last such day; "dinsdag de elfde": the
            // nearest one.
            if let (_, afterArticle) = words.dayArticles.match(text, at: position), let (day, end) = integer(at: afterArticle, max: 31), day >= 1,
               !startsTime(at: end) {
                let readings = SpokenDate(kind: .weekdayAndDay(weekday: weekday, day: day)).readings(today)
                let chosen = words.articledWeekdayDayIsNearest
                    ? readings.min { abs(today.days(until: $0)) < abs(today.days(until: $1)) } : readings.first
                if let chosen { return (SpokenDate(kind: .exact(chosen)), end) }
            }
            if let (relation, end) = words.relativeAfter.match(text, at: afterWeekday) {
                return (SpokenDate(kind: .exact(relativeWeekday(weekday, relation))), end)
            }
            // "lunes de la semana siguiente", "martes de semana pasada", "lunes esta semana".
            var weekAt = afterWeekday
            if let (_, after) = words.dateJoiners.match(text, at: weekAt) { weekAt = after }
            if let (weeks, end) = weekRelation(at: weekAt) {
                return (SpokenDate(kind: .exact(relativeWeekday(weekday, weeks))), end)
            }
            return (SpokenDate(kind: .weekday(weekday)), afterWeekday)
        }
        // "próxima semana el martes", "la semana anterior - lunes", "volgende week op dinsdag".
        if let (weeks, afterWeek) = weekRelation(at: index) {
            var position = afterWeek
            if text.isSymbol(position, "-") || text.isSymbol(position, ",") { position += 1 }
            if let after = words.weekDateLeads.end(text, at: position) { position = after }
            if let (_, after) = words.articles.match(text, at: position) { position = after }
            if let (weekday, end) = weekday(at: position) { return (SpokenDate(kind: .exact(relativeWeekday(weekday, weeks))), end) }
        }
        // "este 12/05", "este viernes 15 de junio" (this year's), "próximo 6 de abril" (the next one).
        if let (relation, afterRelation) = words.this.match(text, at: index).map({ (0, $0.1) }) ?? words.relativeBefore.match(text, at: index) {
            var position = afterRelation
            var saidWeekday = false
            if let (_, after) = weekday(at: position) {
                saidWeekday = true
                position = after
                if text.isSymbol(position, ",") { position += 1 }
            }
            if let (date, end) = calendarDate(at: position), case .monthDay(let month, let day) = date.kind {
                let readings = date.readings(today)
                let chosen = relation == 0 || saidWeekday ? CivilDate(year: today.year, month: month, day: day) : relation > 0 ? readings.last : readings.first
                if let chosen { return (SpokenDate(kind: .yearChosen(chosen)), end) }
            }
        }
        // "aanstaande vrijdag", "afgelopen woensdag": the nearest one after or before today.
        if let (relation, after) = words.nearest.match(text, at: index), let (weekday, end) = weekday(at: after),
           let day = nearestWeekday(weekday, relation) {
            return (SpokenDate(kind: .exact(day)), end)
        }
        if let (relation, after) = words.relativeBefore.match(text, at: index), let (weekday, end) = weekday(at: after) {
            return (SpokenDate(kind: .exact(relativeWeekday(weekday, relation))), end)
        }
        if let (_, after) = words.this.match(text, at: index) {
            // "ce lundi", "este pasado miércoles".
            if let (relation, afterRelation) = words.relativeBefore.match(text, at: after), let (weekday, end) = weekday(at: afterRelation) {
                // "este pasado miércoles": the most recent one; "este próximo lunes": the coming one.
                guard let day = nearestWeekday(weekday, relation) else { return nil }
                return (SpokenDate(kind: .exact(day)), end)
            }
            if let (weekday, end) = weekday(at: after) { return (SpokenDate(kind: .exact(relativeWeekday(weekday, 0))), end) }
        }
        if let found = calendarDate(at: index) { return found }
        // "le 25 Mardi": an article, a day then its weekday, the last such day.
        if let (_, afterArticle) = words.articles.match(text, at: index), let (day, afterDay) = integer(at: afterArticle, max: 31), day >= 1,
           let (weekday, end) = weekday(at: afterDay), let past = SpokenDate(kind: .weekdayAndDay(weekday: weekday, day: day)).readings(today).first {
            return (SpokenDate(kind: .exact(past)), end)
        }
        return nil
    }

    /// "la semana siguiente", "esta semana", "semana pasada", "la próxima semana": the week that many weeks from this one.
    func weekRelation(at index: Int) -> (Int, Int)? {
        guard let (unit, relation, end) = periodRelation(at: index), unit.letter == "W" else { return nil }
        return (relation, end)
    }

    /// A week, month or year named from this one: "la semaine prochaine", "el año pasado", "este mes", "la semana que
    /// viene"; the unit, how many from this one, and the index after.
    func periodRelation(at index: Int) -> (DateTimeWords.Unit, Int, Int)? {
        var position = index
        var articled = false
        if let (_, after) = words.articles.match(text, at: position) { (position, articled) = (after, true) }
        var relation: Int?
        if let (value, after) = relationBefore(at: position) { (relation, position) = (value, after) }
        guard let (unit, afterUnit) = words.periods.match(text, at: position) else { return nil }
        // Dutch "de komende week" is "komende week", read from "komende"; "de week", "het jaar" are the current one.
        if articled, words.periodArticleMeansThis { return relation == nil ? (unit, 0, afterUnit) : nil }
        if let relation { return (unit, relation, afterUnit) }
        return words.relativeAfter.match(text, at: afterUnit).map { (unit, $0.0, $0.1) }
    }

    /// "this" (0) or a relation said before what it qualifies ("next" 1, "last" -1), and the index after it.
    func relationBefore(at index: Int) -> (Int, Int)? {
        if let (_, after) = words.this.match(text, at: index) { return (0, after) }
        return words.relativeBefore.match(text, at: index)
    }

    /// The words a range starts with: "entre" (whether its ends are then joined by "et" / "y"), "de", "du", "desde";
    /// the index after them (`index` when there are none).
    func rangeStart(at index: Int) -> (between: Bool, end: Int) {
        if let (_, after) = words.betweenWords.match(text, at: index) { return (true, after) }
        return (false, words.rangeStarts.end(text, at: index) ?? index)
    }

    /// The last (`relation` below 0) or the next such weekday, as an open weekday resolves.
    func nearestWeekday(_ weekday: Int, _ relation: Int) -> CivilDate? {
        let readings = SpokenDate(kind: .weekday(weekday)).readings(today)
        return relation < 0 ? readings.first : readings.last
    }

    /// The weekday of this week (Monday to Sunday) moved by `weeks`.
    func relativeWeekday(_ weekday: Int, _ weeks: Int) -> CivilDate {
        today.weekStart.adding(days: weekday - 1 + 7 * weeks)
    }

    /// Whether a clock time or an amount of time starts at `index` ("le 17 de 14h", "17 pour trois heures" aside).
    private func startsTime(at index: Int) -> Bool {
        words.hourWords.match(text, at: index) != nil || words.units.match(text, at: index) != nil
            || (text.word(index) == "h" && text.touches(index)) || text.isSymbol(index, ":") || meridiem(at: index) != nil
            || (text.isSymbol(index, "-") && text.touches(index) && text.digits(index + 1) != nil)
    }

    /// A day of a month, with or without its year, in words or digits.
    func calendarDate(at index: Int) -> (SpokenDate, Int)? {
        if let found = numericDate(at: index) { return found }
        // "3 mars 2024", "23 novembre de 1987", "3 de Enero del 2019", "diez de octubre de dos mil dieciocho".
        if let (day, afterDay) = integer(at: index, max: 31), day >= 1 {
            var position = afterDay
            if let (_, after) = words.dateJoiners.match(text, at: position) { position = after }
            if let (month, _, afterMonth) = monthWord(at: position) {
                return dated(month: month, day: day, after: afterMonth)
            }
            // "17 del 11", "9 de 8 de 1971": the month in digits after a joiner.
            if position > afterDay, let month = text.digits(position, maxDigits: 2), (1...12).contains(month), !startsTime(at: position + 1) {
                return dated(month: month, day: day, after: position + 1)
            }
        }
        // "novembre 23 de 1987", "Mai vingt-neuf", "Oct/2", "Sep-23-2020".
        if let (month, _, afterMonth) = monthWord(at: index) {
            var position = afterMonth
            if text.isSymbol(position, "/") || text.isSymbol(position, "-"), text.touches(position) { position += 1 }
            if let (day, afterDay) = integer(at: position, max: 31), day >= 1, !startsTime(at: afterDay) {
                if text.isSymbol(afterDay, "-"), text.touches(afterDay), let (year, end) = fourDigitYear(at: afterDay + 1), text.touches(afterDay + 1) {
                    return CivilDate(year: year, month: month, day: day).map { (SpokenDate(kind: .exact($0)), end) }
                }
                // "novembre 19-20" is a range of days, read by the range reader.
                if text.isSymbol(afterDay, "-"), text.touches(afterDay) { return nil }
                return dated(month: month, day: day, after: afterDay)
            }
        }
        return nil
    }

    /// A day and month, then a year when one follows ("2024", "de 1987", "del 2019", ", 2020").
    private func dated(month: Int, day: Int, after: Int) -> (SpokenDate, Int)? {
        var position = after
        if let (_, joined) = words.dateJoiners.match(text, at: position) ?? words.yearJoiners.match(text, at: position) { position = joined }
        else if text.isSymbol(position, ",") { position += 1 }
        if let (year, end) = year(at: position), text.digits(position).map({ _ in text.tokens[position].text.count == 4 }) ?? true,
           !startsTime(at: end), !text.isSymbol(end, ":") {
            return CivilDate(year: year, month: month, day: day).map { (SpokenDate(kind: .exact($0)), end) }
        }
        guard CivilDate(year: 2000, month: month, day: day) != nil else { return nil }
        return (SpokenDate(kind: .monthDay(month: month, day: day)), after)
    }

    /// A day and month the calendar does not have ("30 feb", "31 april 2019", "29/2/2019"): its TIMEX ("XXXX-02-30",
    /// "2019-02-29") and the index after.
    func impossibleDate(at index: Int) -> (String, Int)? {
        let day: Int, month: Int
        var year: Int?, end: Int
        if let (said, afterDay) = integer(at: index, max: 31), let (saidMonth, _, afterMonth) = monthWord(at: afterDay) {
            day = said
            month = saidMonth
            end = afterMonth
            if let (saidYear, afterYear) = fourDigitYear(at: afterMonth) {
                year = saidYear
                end = afterYear
            }
        } else if let said = text.digits(index, maxDigits: 2), text.isSymbol(index + 1, "/"), let saidMonth = text.digits(index + 2, maxDigits: 2),
                  text.isSymbol(index + 3, "/"), (1...4).allSatisfy({ text.touches(index + $0) }), let (saidYear, afterYear) = fourDigitYear(at: index + 4) {
            day = said
            month = saidMonth
            year = saidYear
            end = afterYear
        } else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day), CivilDate(year: year ?? 2000, month: month, day: day) == nil else { return nil }
        return ((year.map { Timex.pad($0, 4) } ?? "XXXX") + "-" + Timex.pad(month, 2) + "-" + Timex.pad(day, 2), end)
    }

    /// Dates in digits, day first: "22/04", "23/06/18", "15.05.99", "29/2/2020", "2020-09-23", "23/Sep/2020",
    /// "31-dic-1994", "2020/Sep/23", "02 04 2009".
    private func numericDate(at index: Int) -> (SpokenDate, Int)? {
        guard let first = text.tokens.token(index), first.isDigits || monthWord(at: index) != nil else { return nil }
        // Up to three parts joined by one separator without spaces.
        var parts: [(value: Int, isMonthWord: Bool, digits: Int, index: Int)] = []
        var position = index
        var separator: String?
        while parts.count < 3 {
            if let token = text.tokens.token(position), token.isDigits, token.text.count <= 4, let value = Int(token.text) {
                parts.append((value, false, token.text.count, position))
                position += 1
            } else if let (month, end) = words.months.match(text, at: position) ?? words.monthAbbreviations.match(text, at: position) {
                parts.append((month, true, 0, position))
                position = end
            } else {
                break
            }
            guard parts.count < 3, let token = text.tokens.token(position), token.kind == .symbol, text.touches(position),
                  ["/", ".", "-"].contains(token.text), text.touches(position + 1), separator == nil || separator == token.text else { break }
            separator = token.text
            position += 1
        }
        if parts.count == 3 || parts.count == 2, position > index, text.isSymbol(position - 1, separator ?? "") { position -= 1 }
        if parts.count < 2 {
            return spacedDate(at: index)
        }
        guard separator != nil, parts.contains(where: { !$0.isMonthWord }) || parts.count == 3 else { return nil }
        // "20.10" is a time where hours and minutes are written with a period (Dutch).
        if words.dotClockTimes, separator == ".", parts.count == 2 { return nil }
        // "22.04." ends with the period of its ordinal month (German), kept in the entity.
        if words.dayDot, separator == ".", text.isSymbol(position, "."), text.touches(position), !text.touches(position + 1) { position += 1 }
        // Not the start of a range of dates written without spaces ("10/1-11/2/2017") or a decimal number, nor a
        // formula ("8/1.5", "30/4.85").
        if text.isSymbol(position, separator ?? ""), text.touches(position) { return nil }
        if text.isSymbol(position, ".") || text.isSymbol(position, ","), text.touches(position), text.touches(position + 1),
           text.digits(position + 1, maxDigits: 9) != nil { return nil }
        // "18.12 Uhr" is a time.
        if words.hourWordIsClock, words.hourWords.match(text, at: position) != nil { return nil }
        let namedMonth = parts.firstIndex { $0.isMonthWord }
        var day: Int, month: Int, year: Int?
        if parts.count == 3, let named = namedMonth, let yearIndex = parts.firstIndex(where: { $0.digits == 4 }) {
            // "septembre-2020-23", "23-2020-septembre", "2020/23/Sep", "Sep-23-2020".
            month = parts[named].value
            year = parts[yearIndex].value
            guard let dayPart = (0..<3).first(where: { $0 != named && $0 != yearIndex }) else { return nil }
            day = parts[dayPart].value
        } else if parts.count == 3 {
            if parts[0].digits == 4 {
                // "2020-09-23", "2020/Sep/23", "2020/23/Sep".
                year = parts[0].value
                if namedMonth == 2 { (day, month) = (parts[1].value, parts[2].value) } else { (month, day) = (parts[1].value, parts[2].value) }
            } else if namedMonth == 0 {
                // "Sep-23-2020".
                (month, day) = (parts[0].value, parts[1].value)
                guard let found = yearValue(parts[2]) else { return nil }
                year = found
            } else {
                (day, month) = (parts[0].value, parts[1].value)
                guard let found = yearValue(parts[2]) else { return nil }
                year = found
            }
        } else {
            if parts[0].digits == 4 {
                return nil  // "2015-3" is a month, read as a range.
            }
            if namedMonth == 0 { (month, day) = (parts[0].value, parts[1].value) } else { (day, month) = (parts[0].value, parts[1].value) }
            // "3.5" and "1.000" are numbers; a day and month with a period needs a two-digit month.
            if separator == ".", parts[1].digits != 2 { return nil }
            if separator == "-", namedMonth == nil { return nil }
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        if let year {
            return CivilDate(year: year, month: month, day: day).map { (SpokenDate(kind: .exact($0)), position) }
        }
        guard CivilDate(year: 2000, month: month, day: day) != nil else { return nil }
        return (SpokenDate(kind: .monthDay(month: month, day: day)), position)
    }

    private func yearValue(_ part: (value: Int, isMonthWord: Bool, digits: Int, index: Int)) -> Int? {
        guard !part.isMonthWord else { return nil }
        if part.digits == 4, (1000...2999).contains(part.value) { return part.value }
        if part.digits == 2 { return part.value < 50 ? 2000 + part.value : 1900 + part.value }
        return nil
    }

    /// "02 04 2009", "18 8 78": day, month and year in digits separated by single spaces.
    private func spacedDate(at index: Int) -> (SpokenDate, Int)? {
        guard let day = text.digits(index, maxDigits: 2), let month = text.digits(index + 1, maxDigits: 2),
              let yearToken = text.tokens.token(index + 2), yearToken.isDigits, yearToken.text.count == 4 || yearToken.text.count == 2,
              !text.touches(index + 1), !text.touches(index + 2), let (year, end) = year(at: index + 2),
              text.tokens.token(end)?.isDigits != true, (1...12).contains(month) else { return nil }
        return CivilDate(year: year, month: month, day: day).map { (SpokenDate(kind: .exact($0)), end) }
    }

    // MARK: amounts of time

    /// "3 heures", "3heures", "3.5ans", "123,45 sec", "quelques jours", "vingt-quatre heures", "toute la journée".
    func duration(at index: Int) -> DurationParser.Duration? {
        var amount: Double, position: Int
        if let (_, afterWhole) = words.whole.match(text, at: index) {
            (amount, position) = (1, afterWhole)
        } else {
            guard let (said, after) = self.amount(at: index) else { return nil }
            (amount, position) = (said, after)
        }
        guard let (unit, afterUnit) = words.units.match(text, at: position) else { return nil }
        var end = afterUnit
        // "tres años y medio", "une heure et demie".
        var halfHour = false
        if let (minutes, afterHalf) = words.minuteFractions.match(text, at: afterUnit), minutes == 30 {
            halfHour = unit.base.letter == "H" && amount == amount.rounded()
            amount += 0.5
            end = afterHalf
        }
        let total = amount * Double(unit.multiple)
        let base = unit.base
        // "1 hora y media" is PT1H30M, as the specs write it.
        let timex = halfHour ? "PT" + NumberValue.real(total - 0.5).text + "H30M" : (base.isTime ? "PT" : "P") + NumberValue.real(total).text + base.letter
        return DurationParser.Duration(timex: timex, seconds: total * base.seconds, end: end, parts: [(total, base)])
    }
}

/// Finds LUIS datetimeV2 entities — `date`, `time`, `datetime`, `daterange`, `timerange`,
/// `datetimerange`, `duration`, `set` — and resolves them against the reference time, with a TIMEX
/// for each and both the past and the future reading where the text leaves the year, month or week open.
///
/// At every token it tries each pattern (a date, a time, a date with a time or a part of the day, a time
/// range, a date range, a duration, a set) and offers all it finds; the longest wins in
/// ``BuiltinRecognizer``. Every pattern looks a bounded number of tokens ahead.
struct DateTimeRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { BuiltinEntityType.dateTimeTypes }

    /// Whether words that cannot begin a date-time are skipped (``DateTimeLeadWords``); off only in the
    /// test that checks the filter changes nothing.
    var skipsNonLeadWords = true

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let builder = DateTimeCandidates(text: text, reference: context.reference, numbers: context.numbers)
        for index in 0..<text.count {
            guard builder.mayStart(at: index) else { continue }
            if skipsNonLeadWords, text[index].isWord, !DateTimeLeadWords.mayLead(text, at: index, numbers: context.numbers) { continue }
            builder.candidates(at: index) { type, last, values in
                let values = values.filter(SupportedYearsCheck.writesOnlySupportedDates)
                guard context.wants(type), last >= index, !values.isEmpty else { return }
                matches.append(EntityMatch(type: type, tokens: text, first: index, last: last, resolution: .dateTimes(values)))
            }
        }
    }
}

/// The patterns tried at one token, and the LUIS values they resolve to.
struct DateTimeCandidates {
    let text: TokenizedText
    let reference: ReferenceTime
    let dates: DateParser
    let times: TimeParser
    let ranges: DateRangeParser
    let durations: DurationParser
    /// Turns what was read into LUIS values (shared with the other languages' ``LexiconDateTimeRecognizer``).
    let resolve: DateTimeValues

    init(text: TokenizedText, reference: ReferenceTime, numbers: NumberParser) {
        self.text = text
        self.reference = reference
        dates = DateParser(text, numbers: numbers, reference: reference.date)
        times = TimeParser(text, numbers: numbers)
        ranges = DateRangeParser(text, dates: dates, reference: reference.date,
                                 afterMidnight: reference.hour + reference.minute + reference.second > 0)
        durations = DurationParser(text, numbers: numbers)
        resolve = DateTimeValues(reference: reference)
    }

    private var today: CivilDate { reference.date }

    /// Whether a date-time can start at this token (a cheap filter: words, digits, a few symbols).
    func mayStart(at index: Int) -> Bool {
        let token = text[index]
        if token.kind == .symbol { return false }
        if index > 0, !token.spaceBefore, text[index - 1].isWord || text[index - 1].isDigits { return false }
        // Not the second half of "10/1", "2:30", "7-6": those are read from their first number.
        if index > 1, !token.spaceBefore, !text[index - 1].spaceBefore, text[index - 2].isDigits, token.isDigits { return false }
        return true
    }

    /// Calls `emit(type, lastToken, values)` for every pattern that matches at `index`, with what a
    /// modifier in front makes of it ("before May", "after 6pm", "since 2016", "around 1pm").
    func candidates(at index: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        plainCandidates(at: index) { type, last, values in
            emit(type, last, values)
            // "2018 or later", "3 pm or later on Monday".
            guard let (mod, after) = DateTimeModifier.readSuffix(text, at: last + 1),
                  let (modified, modifiedValues) = DateTimeModifier.apply(mod, type: type, values: values) else { return }
            emit(modified, after - 1, modifiedValues)
            if modified == .timerange, let joiner = text.word(after), joiner == "on", let (date, afterDate) = dates.date(at: after + 1),
               let readings = values.first.map({ _ in date.readings(today) }) {
                let dated = modifiedValues.flatMap { value in
                    readings.map { day in
                        DateTimeValue(timex: date.timex(of: day) + value.timex, type: "datetimerange", start: value.start.map { day.text + " " + $0 },
                                      end: value.end.map { day.text + " " + $0 }, mod: value.mod)
                    }
                }
                emit(.datetimerange, afterDate - 1, dated)
            }
        }
        guard let (mod, next) = DateTimeModifier.read(text, at: index) else { return }
        plainCandidates(at: next) { type, last, values in
            if let (modified, modifiedValues) = DateTimeModifier.apply(mod, type: type, values: values) {
                emit(modified, last, modifiedValues)
            }
        }
    }

    private func plainCandidates(at index: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        // "now", "right now", "at the moment".
        if let end = presentReference(at: index) {
            emit(.datetime, end - 1, [DateTimeValue(timex: "PRESENT_REF", type: "datetime", value: reference.text)])
        }
        // "end of the day", "eod", "end of tomorrow", "the end of today": the day's last second.
        if let (date, after) = endOfDay(at: index) {
            emit(.datetime, after - 1, date.readings(today).map {
                DateTimeValue(timex: date.timex(of: $0) + "T23:59:59", type: "datetime", value: $0.text + " 23:59:59")
            })
        }
        // A date, and what may follow it: a time, a part of the day, a time range.
        if let (date, afterDate) = dates.date(at: index) {
            let readings = date.readings(today)
            emit(.date, afterDate - 1, readings.map { DateTimeValue(timex: date.timex(of: $0), type: "date", value: $0.text) })
            var position = afterDate
            if let joiner = text.token(position), joiner.isSymbol(",") || joiner.text == "at" || joiner.text == "around" { position += 1 }
            let bare = text.word(position - 1) == "at" || position == afterDate
            if let (range, afterRange) = timeRange(at: position, bare: true) {
                emit(.datetimerange, afterRange - 1, resolve.dateTimeRangeValues(date, range))
            } else if let (time, afterTime) = times.time(at: position, bare: bare && text.word(position - 1) == "at") ?? times.time(at: position, bare: false) {
                emit(.datetime, afterTime - 1, resolve.dateTimeValues(date, time))
            }
            // "today before 4pm", "Feb 1st no later than 6:00", "Tuesday after 1pm".
            if let (mod, afterMod) = DateTimeModifier.read(text, at: afterDate), mod != .approx,
               let (time, afterTime) = times.time(at: afterMod, bare: true),
               let (_, modified) = DateTimeModifier.apply(mod, type: .datetime, values: resolve.dateTimeValues(date, time)) {
                emit(.datetimerange, afterTime - 1, modified)
            }
            if let (part, afterPart) = partOfDay(at: afterDate, allowBare: true) {
                emit(.datetimerange, afterPart - 1, resolve.partOfDayValues(date, part.part, mod: part.mod))
                // "tomorrow afternoon at 5", "Saturday morning at 9", "this morning @ 10": the hour in that part.
                if isAt(afterPart), let (time, afterTime) = times.time(at: afterPart + 1, bare: true) {
                    emit(.datetime, afterTime - 1, resolve.dateTimeValues(date, time.within(part.part)))
                }
                // "Monday morning from 10am to 12pm", "next Monday morning 6-8": the hours within the part.
                if let (range, afterRange) = timeRange(at: afterPart, bare: true) {
                    emit(.datetimerange, afterRange - 1, resolve.dateTimeRangeValues(date, range.within(part.part)))
                }
            }
        }
        // A time (with "at"), and a date after it.
        var timeStart = index
        if text.word(index) == "at" { timeStart += 1 }
        // "at 7" and "at 6.45" keep their "at" (it is what makes them times); "at 7pm" is "7pm".
        if let (time, afterTime) = times.time(at: timeStart, bare: timeStart > index) {
            if timeStart == index || times.time(at: timeStart, bare: false) == nil {
                emit(.time, afterTime - 1, resolve.timeValues(time))
            }
            var position = afterTime
            if let joiner = text.word(position), joiner == "on" || joiner == "of" { position += 1 }
            if let comma = text.token(position), comma.isSymbol(",") { position += 1 }
            if let (date, afterDate) = dates.date(at: position) {
                emit(.datetime, afterDate - 1, resolve.dateTimeValues(date, time))
                // "at 5 tomorrow afternoon": the part of the day after the date sets the half.
                if let (part, afterPart) = partOfDay(at: afterDate, allowBare: true), part.relativeDay == nil {
                    emit(.datetime, afterPart - 1, resolve.dateTimeValues(date, time.within(part.part)))
                }
            } else if let (part, afterPart) = partOfDay(at: position, allowBare: false), part.relativeDay != nil {
                let date = SpokenDate(kind: .exact(today.adding(days: part.relativeDay!)))
                let adjusted = part.part.afternoon ? time.afternoon() : time.morning()
                emit(.datetime, afterPart - 1, resolve.dateTimeValues(date, adjusted))
            }
        }
        // "8 tonight", "eight this evening", "9 tomorrow morning": a bare hour made a time by the part of
        // the day (and day) after it.
        if times.time(at: index, bare: false) == nil, let (time, afterTime) = times.time(at: index, bare: true) {
            if let (part, afterPart) = partOfDay(at: afterTime, allowBare: false), let offset = part.relativeDay {
                emit(.datetime, afterPart - 1, resolve.dateTimeValues(SpokenDate(kind: .exact(today.adding(days: offset))), time.within(part.part)))
            } else if let (date, afterDate) = dates.relativeDay(at: afterTime),
                      let (part, afterPart) = partOfDay(at: afterDate, allowBare: true), part.relativeDay == nil {
                emit(.datetime, afterPart - 1, resolve.dateTimeValues(date, time.within(part.part)))
            }
        }
        // "in the morning at 7": the part of the day first.
        if let (part, afterPart) = partOfDay(at: index, allowBare: false), part.relativeDay == nil,
           text.word(afterPart) == "at", let (time, afterTime) = times.time(at: afterPart + 1, bare: true) {
            emit(.time, afterTime - 1, resolve.timeValues(part.part.afternoon ? time.afternoon() : time.morning()))
        }
        // A time range, and a date after it.
        if let (range, afterRange) = timeRange(at: index, bare: false) {
            emit(.timerange, afterRange - 1, resolve.timeRangeValues(range))
            var position = afterRange
            if let joiner = text.word(position), joiner == "on" { position += 1 }
            if let (date, afterDate) = dates.date(at: position) {
                emit(.datetimerange, afterDate - 1, resolve.dateTimeRangeValues(date, range))
                // "from 3-8pm yesterday afternoon", "10am to 12pm Monday morning".
                if let (part, afterPart) = partOfDay(at: afterDate, allowBare: true), part.relativeDay == nil {
                    emit(.datetimerange, afterPart - 1, resolve.dateTimeRangeValues(date, range.within(part.part)))
                }
            } else if let (part, afterPart) = partOfDay(at: afterRange, allowBare: false), let offset = part.relativeDay {
                var adjusted = range
                if part.part.afternoon {
                    if adjusted.start.ambiguous { adjusted.start = adjusted.start.afternoon() }
                    if adjusted.end.ambiguous { adjusted.end = adjusted.end.afternoon() }
                }
                emit(.datetimerange, afterPart - 1, resolve.dateTimeRangeValues(SpokenDate(kind: .exact(today.adding(days: offset))), adjusted))
            }
        } else if let (range, afterRange) = timeRange(at: index, bare: true), let (date, afterDate) = dates.date(at: afterRange) {
            // "6-8 next Monday": bare hours become a range next to a date.
            emit(.datetimerange, afterDate - 1, resolve.dateTimeRangeValues(date, range))
        }
        // "from 2pm for 2 hours", "for 3 hours from 10 am": a start and a length.
        if let (start, length, after) = startAndLength(at: index) {
            let end = start.seconds + Int(length.seconds.rounded())
            if end < 86400 {
                let reading = start.readings[0]
                emit(.timerange, after - 1, [DateTimeValue(
                    timex: "(" + start.timex(reading) + ",T" + Timex.clock(end / 3600, end % 3600 / 60, end % 60) + "," + Timex.duration(seconds: length.seconds) + ")",
                    type: "timerange", start: Timex.clock(reading.0, reading.1, reading.2), end: Timex.clock(end / 3600, end % 3600 / 60, end % 60))])
            }
        }
        // A part of the day: "this evening", "tonight", "in the morning", "morning".
        if let (part, afterPart) = partOfDay(at: index, allowBare: false) {
            var position = afterPart
            if isAt(position) || text.word(position) == "around" { position += 1 }
            if let offset = part.relativeDay, position > afterPart, let (time, afterTime) = times.time(at: position, bare: true) {
                // "tonight at 2am", "last night at 8": the day from the phrase, the half from the part unless said.
                let adjusted = time.ambiguous ? (part.part.afternoon ? time.afternoon() : time.morning()) : time
                emit(.datetime, afterTime - 1, resolve.dateTimeValues(SpokenDate(kind: .exact(today.adding(days: offset))), adjusted))
            }
            // "tonight from 7 to 7:30", "this evening from 7 to 9".
            if let offset = part.relativeDay, let (range, afterRange) = timeRange(at: afterPart, bare: false) {
                emit(.datetimerange, afterRange - 1, resolve.dateTimeRangeValues(SpokenDate(kind: .exact(today.adding(days: offset))), range.within(part.part)))
            }
            if let offset = part.relativeDay {
                emit(.datetimerange, afterPart - 1, resolve.partOfDayValues(SpokenDate(kind: .exact(today.adding(days: offset))), part.part, mod: part.mod))
            } else {
                let p = part.part
                emit(.timerange, afterPart - 1, [DateTimeValue(timex: "T" + p.code, type: "timerange", start: Timex.clock(p.start.0, p.start.1, p.start.2),
                                                               end: Timex.clock(p.end.0, p.end.1, p.end.2), mod: part.mod)])
            }
        }
        // A span of days.
        if let (range, afterRange) = ranges.range(at: index) {
            emit(.daterange, afterRange - 1, range.spans.enumerated().map { index, span in
                DateTimeValue(timex: range.timex(ofSpan: index), type: "daterange", start: span.start.text, end: span.end.text, mod: range.mod)
            })
        }
        // "in 3 hours", "2 minutes ago": a moment; "3 hours": a duration.
        var durationStart = index
        if text.word(index) == "in" || text.word(index) == "within" {
            durationStart += 1
            // "in about half an hour": the moment as said (LUIS keeps no Mod on "in").
            if text.word(index) == "in", text.word(durationStart) == "about" { durationStart += 1 }
        }
        if let duration = durations.duration(at: durationStart), duration.seconds > 0 {
            if durationStart == index {
                emit(.duration, duration.end - 1, [DateTimeValue(timex: duration.timex, type: "duration", value: NumberValue.real(duration.seconds).text)])
            }
            let isTime = duration.timex.contains("T")
            if isTime, durationStart > index, text.word(index) == "in" {
                if let value = resolve.moment(after: duration, sign: 1) { emit(.datetime, duration.end - 1, [value]) }
            } else if isTime, durationStart == index, let word = text.word(duration.end), word == "ago" || word == "later" {
                if let value = resolve.moment(after: duration, sign: word == "ago" ? -1 : 1) { emit(.datetime, duration.end, [value]) }
            } else if isTime, durationStart == index, text.word(duration.end) == "from", text.word(duration.end + 1) == "now" {
                if let value = resolve.moment(after: duration, sign: 1) { emit(.datetime, duration.end + 1, [value]) }
            }
        }
        // "last 2 minutes", "next 3 hours": the span of clock time up to now, or from now.
        if let relation = text.word(index), let forward = ["last": false, "past": false, "previous": false, "next": true,
                                                           "coming": true, "upcoming": true][relation],
           relation != "last" || !Self.beforeVerbLast.contains(text.word(index - 1) ?? ""),
           let duration = durations.duration(at: index + 1), duration.timex.hasPrefix("PT"), duration.seconds >= 1,
           let start = resolve.moment(after: forward ? 0 : -duration.seconds), let end = resolve.moment(after: forward ? duration.seconds : 0),
           let startValue = start.value, let endValue = end.value {
            emit(.datetimerange, duration.end - 1, [DateTimeValue(timex: "(" + start.timex + "," + end.timex + "," + duration.timex + ")",
                                                                  type: "datetimerange", start: startValue, end: endValue)])
        }
        // "3pm each day", "7am daily": a time that repeats.
        if let (time, afterTime) = times.time(at: index, bare: false), !time.ambiguous || time.precision > 1 {
            var position = afterTime
            if let word = text.word(position), word == "each" || word == "every" { position += 1 }
            if let word = text.word(position), word == "day" && position > afterTime || word == "daily" || word == "everyday" {
                emit(.set, position, [DateTimeValue(timex: time.timex(time.readings[0]), type: "set", value: "not resolved")])
            }
        }
        // "every Monday", "daily", "each week", "Thursdays at 17.30".
        if let (timex, afterSet) = recurrence(at: index) {
            emit(.set, afterSet - 1, [DateTimeValue(timex: timex, type: "set", value: "not resolved")])
        }
    }

    // MARK: patterns

    private func presentReference(at index: Int) -> Int? {
        guard let word = text.word(index) else { return nil }
        if word == "now", text.word(index - 1) != "from" { return index + 1 }
        if word == "right", text.word(index + 1) == "now" { return index + 2 }
        if word == "at", text.word(index + 1) == "the" || text.word(index + 1) == "this",
           let what = text.word(index + 2), what == "moment" || (what == "time" && text.word(index + 1) == "this") {
            return index + 3
        }
        return nil
    }

    /// "end of the day", "end of day", "eod", "end of tomorrow", "end of the sunday", "the end of today".
    private func endOfDay(at index: Int) -> (SpokenDate, Int)? {
        var position = index
        if text.word(position) == "the" { position += 1 }
        if text.word(position) == "eod" { return (SpokenDate(kind: .exact(today)), position + 1) }
        guard text.word(position) == "end", text.word(position + 1) == "of" else { return nil }
        position += 2
        if text.word(position) == "day" { return (SpokenDate(kind: .exact(today)), position + 1) }
        if text.word(position) == "the" {
            if text.word(position + 1) == "day" { return (SpokenDate(kind: .exact(today)), position + 2) }
            guard text.word(position + 1).map({ DateTimeWords.weekdays[$0] != nil }) == true else { return nil }
            position += 1
        }
        return dates.relativeDay(at: position) ?? dates.weekdayDate(at: position)
    }

    /// Words after which "last" is the verb ("it shouldn't last two hours", "will last 3 days").
    private static let beforeVerbLast: Set<String> = [
        "to", "will", "would", "should", "shouldn't", "could", "can", "can't", "cannot", "won't", "might", "may", "must",
        "not", "does", "doesn't", "did", "didn't", "do", "don't", "it", "that", "which", "they", "we", "you", "i",
    ]

    /// "at", or its sign "@".
    private func isAt(_ index: Int) -> Bool {
        text.word(index) == "at" || text.token(index)?.isSymbol("@") == true
    }

    struct SaidPartOfDay {
        var part: DateTimeWords.PartOfDay
        /// Days from today when the phrase names the day too ("tonight", "this evening", "last night").
        var relativeDay: Int?
        /// "start" (early) or "end" (late).
        var mod: String? = nil
    }

    /// "in the morning", "this evening", "tonight", "last night", "at lunch", "early in the morning",
    /// "late this afternoon"; a bare "morning" after a date ("Monday morning") when `allowBare`, and on its
    /// own for the unmistakable ones ("one morning", "lunchtime"). "Early" keeps the first half of the
    /// part, "late" the second, marked with `Mod` start / end as LUIS does.
    private func partOfDay(at index: Int, allowBare: Bool) -> (SaidPartOfDay, Int)? {
        var position = index
        var mod: String?
        if let word = text.word(position), word == "early" || word == "earlier" || word == "late" || word == "later" {
            mod = word.hasPrefix("early") ? "start" : "end"
            position += 1
        }
        guard let (said, end) = plainPartOfDay(at: position, allowBare: allowBare || mod != nil) else { return nil }
        guard let mod else { return (said, end) }
        var adjusted = said
        let startSeconds = said.part.start.0 * 3600 + said.part.start.1 * 60
        let endSeconds = said.part.end.0 * 3600 + said.part.end.1 * 60 + said.part.end.2 + (said.part.end.2 == 59 ? 1 : 0)
        let middle = (startSeconds + endSeconds) / 2
        let split = (middle / 3600, middle % 3600 / 60, 0)
        if mod == "start" { adjusted.part.end = split } else { adjusted.part.start = split }
        adjusted.mod = mod
        return (adjusted, end)
    }

    private func plainPartOfDay(at index: Int, allowBare: Bool) -> (SaidPartOfDay, Int)? {
        guard let word = text.word(index) else { return nil }
        if word == "tonight" || word == "tonite" { return (SaidPartOfDay(part: DateTimeWords.partsOfDay["night"]!, relativeDay: 0), index + 1) }
        if word == "this" || word == "last", let partWord = text.word(index + 1), let part = DateTimeWords.partOfDay(partWord) {
            if word == "last" && partWord != "night" { return nil }
            return (SaidPartOfDay(part: part, relativeDay: word == "this" ? 0 : -1), index + 2)
        }
        var position = index
        if word == "in" || word == "on" || word == "at" || word == "during" {
            position += 1
            if text.word(position) == "the" { position += 1 }
        }
        guard let partWord = text.word(position), let part = DateTimeWords.partOfDay(partWord) else { return nil }
        if word == "at", !part.isMeal, partWord != "night" { return nil }
        if position == index, !allowBare {
            // Alone: meals and "morning"/"afternoon"/"evening", but not "good morning", "good night".
            guard part.isMeal || partWord != "night" && partWord != "nights", text.word(index - 1) != "good" else { return nil }
        }
        return (SaidPartOfDay(part: part, relativeDay: nil), position + 1)
    }

    /// "from 9 to 5", "between 3 and 5", "4:00 to 7 oclock", "8-9am", "10am-12pm", "0730-0930"; bare
    /// hours joined by a hyphen only when `bare`.
    private func timeRange(at index: Int, bare: Bool) -> (SaidTimeRange, Int)? {
        var position = index
        let lead = text.word(position)
        if lead == "from" || lead == "between" { position += 1 }
        let hasLead = position > index
        guard let (first, afterFirst) = times.time(at: position, bare: true), let joiner = text.token(afterFirst) else { return nil }
        let joins = (lead == "between" && joiner.text == "and")
            || ["to", "till", "until", "untill", "til", "through", "thru"].contains(joiner.text) || joiner.isSymbol("-") || joiner.isSymbol("~")
        guard joins, let (second, afterSecond) = times.time(at: afterFirst + 1, bare: true) else { return nil }
        // Without "from"/"between" at least one end must be clearly a time, unless bare ranges are allowed.
        let clearly = !first.ambiguous || !second.ambiguous || first.precision > 1 || second.precision > 1
        guard hasLead || clearly || bare else { return nil }
        var start = first, end = second
        // "8-9am": the half said once applies to both ends.
        if start.ambiguous, !end.ambiguous, end.hour >= 12, start.hour + 12 <= end.hour { start = start.afternoon() }
        if start.ambiguous, !end.ambiguous, end.hour < 12 { start = start.morning() }
        if !start.ambiguous, end.ambiguous, start.hour >= 12, end.hour + 12 > start.hour { end = end.afternoon() }
        return (SaidTimeRange(start: start, end: end), afterSecond)
    }

    /// "every Monday", "each week", "every 2 days", "every morning", "daily", "weekly", "once a week",
    /// "Mondays", "Thursdays at 17.30".
    private func recurrence(at index: Int) -> (String, Int)? {
        guard let word = text.word(index) else { return nil }
        let adverbs = Self.adverbs
        if let timex = adverbs[word] { return (timex, index + 1) }
        return recurrence(word, at: index, adverbs: adverbs)
    }

    /// Adverbs of repetition and their period.
    private static let adverbs: [String: String] = [
        "daily": "P1D", "everyday": "P1D", "weekly": "P1W", "monthly": "P1M", "yearly": "P1Y", "annually": "P1Y",
        "annual": "P1Y", "quarterly": "P3M", "hourly": "PT1H", "biweekly": "P2W", "fortnightly": "P2W",
        "bimonthly": "P2M", "semiannual": "P0.5Y", "semiannually": "P0.5Y", "nightly": "TNI",
    ]

    private func recurrence(_ word: String, at index: Int, adverbs: [String: String]) -> (String, Int)? {
        if (word == "bi" || word == "semi"), let hyphen = text.token(index + 1), hyphen.isSymbol("-"),
           let next = text.word(index + 2), let base = adverbs[next] {
            if word == "bi" { return (base.replacingFirstDigit(with: "2"), index + 3) }
            return (base == "P1Y" ? "P0.5Y" : base, index + 3)
        }
        if word == "once" || word == "one", text.word(index + 1) == "a", let unitWord = text.word(index + 2),
           let unit = DateTimeWords.units[unitWord] {
            return ((unit.isTime ? "PT" : "P") + String(unit.multiple) + unit.letter, index + 3)
        }
        // "Mondays", "Thursdays at 17.30": a plural weekday repeats.
        if word.hasSuffix("days"), let weekday = DateTimeWords.weekdays[word] {
            if text.word(index + 1) == "at", let (time, afterTime) = times.time(at: index + 2, bare: true) {
                return ("XXXX-WXX-" + String(weekday) + time.timex(time.readings[0]), afterTime)
            }
            return ("XXXX-WXX-" + String(weekday), index + 1)
        }
        guard word == "every" || word == "each" else { return nil }
        var position = index + 1
        if text.word(position) == "other" { position += 1 }
        let everyOther = position > index + 1
        guard let next = text.word(position) ?? text.token(position)?.text else { return nil }
        if let weekday = DateTimeWords.weekdays[next] {
            let day = "XXXX-WXX-" + String(weekday)
            if text.word(position + 1) == "at", let (time, afterTime) = times.time(at: position + 2, bare: true) {
                return (day + time.timex(time.readings[0]), afterTime)
            }
            if let partWord = text.word(position + 1), let part = DateTimeWords.partsOfDay[partWord] {
                return (day + "T" + part.code, position + 2)
            }
            return (day, position + 1)
        }
        if let part = DateTimeWords.partsOfDay[next] {
            if text.word(position + 1) == "at", let (time, afterTime) = times.time(at: position + 2, bare: true) {
                let adjusted = time.ambiguous ? (part.afternoon ? time.afternoon() : time.morning()) : time
                return (adjusted.timex(adjusted.readings[0]), afterTime)
            }
            return ("T" + part.code, position + 1)
        }
        if next == "weekend" { return ("XXXX-WXX-WE", position + 1) }
        if next == "weekday" { return ("P1WD", position + 1) }
        if next == "quarter" { return ("P3M", position + 1) }
        if let unit = DateTimeWords.units[next] {
            let count = (everyOther ? 2 : 1) * unit.multiple  // "every fortnight": P2W
            return ((unit.isTime ? "PT" : "P") + String(count) + unit.letter, position + 1)
        }
        if let (amount, unit, end) = durations.amount(at: position), amount >= 1 {
            return ((unit.isTime ? "PT" : "P") + NumberValue.real(amount).text + unit.letter, end)
        }
        return nil
    }

    /// "from 9 for 2.5 hrs" or "for 3 hours from 10 am": (start, duration, index after).
    private func startAndLength(at index: Int) -> (SpokenTime, DurationParser.Duration, Int)? {
        if text.word(index) == "from", let (time, afterTime) = times.time(at: index + 1, bare: true), text.word(afterTime) == "for",
           let length = durations.duration(at: afterTime + 1), length.timex.hasPrefix("PT") {
            return (time, length, length.end)
        }
        if text.word(index) == "for", let length = durations.duration(at: index + 1), length.timex.hasPrefix("PT"),
           text.word(length.end) == "from", let (time, afterTime) = times.time(at: length.end + 1, bare: true) {
            return (time, length, afterTime)
        }
        return nil
    }
}

private extension String {
    func replacingFirstDigit(with digit: String) -> String {
        guard let index = firstIndex(where: { $0.isNumber }) else { return self }
        return replacingCharacters(in: index...index, with: digit)
    }
}

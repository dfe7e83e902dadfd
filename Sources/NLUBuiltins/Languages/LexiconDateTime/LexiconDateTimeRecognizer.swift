/// LUIS datetimeV2 entities in a language other than English, read from the language's ``DateTimeLexicon``
/// by rules shared by every such language: dates, times, dates with a time or a part of the day, time and date
/// ranges, durations, moments from now ("dans 3 jours", "hace 2 semanas") and repetitions ("chaque lundi",
/// "cada dos semanas"). Values are written by ``DateTimeValues``, as English writes them, resolved against the
/// reference time.
///
/// Like ``DateTimeRecognizer`` it offers every reading that starts at each token and lets the longest win in
/// ``BuiltinRecognizer``; each reading looks a bounded number of tokens ahead.
struct LexiconDateTimeRecognizer: EntityRecognizer {
    let words: DateTimeLexicon
    var produces: Set<BuiltinEntityType> { BuiltinEntityType.dateTimeTypes }

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let reader = LexiconDateTimeReader(text: DateTimeText(text), words: words, numbers: context.reader, reference: context.reference)
        let candidates = LexiconDateTimeCandidates(read: reader)
        for index in 0..<text.count where candidates.mayStart(at: index) {
            candidates.candidates(at: index) { type, end, values in
                let values = values.filter(SupportedYearsCheck.writesOnlySupportedDates)
                guard context.wants(type), end > index, !values.isEmpty else { return }
                matches.append(EntityMatch(type: type, tokens: text, first: index, last: end - 1, resolution: .dateTimes(values)))
            }
        }
    }
}

/// The readings that start at one token, and their values.
struct LexiconDateTimeCandidates {
    let read: LexiconDateTimeReader
    let resolve: DateTimeValues

    init(read: LexiconDateTimeReader) {
        self.read = read
        resolve = DateTimeValues(reference: read.reference)
    }

    private var text: DateTimeText { read.text }
    private var words: DateTimeLexicon { read.words }
    private var today: CivilDate { read.today }

    /// A reading starts at a word or digits that do not continue the token before ("15h30" is read from "15"), or at
    /// an apostrophe before a word (Dutch "'s morgens").
    func mayStart(at index: Int) -> Bool {
        let token = text.tokens[index]
        if token.kind == .symbol { return text.folded(index) == "'" && text.word(index + 1) != nil && text.touches(index + 1) }
        if index > 0, !token.spaceBefore, text.tokens[index - 1].kind != .symbol { return false }
        if index > 1, !token.spaceBefore, !text.tokens[index - 1].spaceBefore, text.tokens[index - 2].isDigits, token.isDigits { return false }
        return true
    }

    /// Calls `emit(kind, index after, values)` for each reading at `index`, and for what a modifier before
    /// it ("avant", "después de") makes of it.
    func candidates(at index: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        if words.quartersTakeNoModifier { LexiconDateRanges(read: read, resolve: resolve).quartersAndWeeks(at: index, emit: emit) }
        plain(at: index) { type, end, values in
            emit(type, end, values)
            // "2018 o más tarde", "1/1/2016 y después", "3 pm o más tarde": since then.
            if let (_, afterLater) = words.orLater.match(text, at: end),
               let (modified, modifiedValues) = DateTimeModifier.apply(.since, type: type, values: values) {
                emit(modified, afterLater, modifiedValues)
            }
        }
        guard let (modifier, after) = words.modifiers.match(text, at: index) else { return }
        plain(at: after) { type, end, values in
            if let (modified, modifiedValues) = DateTimeModifier.apply(modifier, type: type, values: values) {
                emit(modified, end, modifiedValues)
            } else if type == .duration, modifier == .since {
                // "depuis trois semaines": the amount of time, since then.
                emit(.duration, end, values.map { DateTimeValue(timex: $0.timex, type: $0.type, value: $0.value, mod: "since") })
            }
        }
    }

    private func plain(at index: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        if let (_, end) = words.now.match(text, at: index) {
            emit(.datetime, end, [DateTimeValue(timex: "PRESENT_REF", type: "datetime", value: read.reference.text)])
        }
        if let (_, end) = words.soonest.match(text, at: index) {
            emit(.datetime, end, [DateTimeValue(timex: "FUTURE_REF", type: "datetime", value: read.reference.text)])
        }
        if let (_, end) = words.untilNow.match(text, at: index) {
            emit(.daterange, end, [DateTimeValue(timex: "PRESENT_REF", type: "daterange", end: today.text, mod: "before")])
        }
        // "fin de demain", "fin de dimanche": the day's last second.
        if let (_, afterEnd) = words.endOf.match(text, at: index),
           let (date, end) = read.date(at: afterEnd) ?? words.theDay.match(text, at: afterEnd).map({ (SpokenDate(kind: .exact(today)), $0.1) }) {
            emit(.datetime, end, date.readings(today).map {
                DateTimeValue(timex: date.timex(of: $0) + "T23:59:59", type: "datetime", value: $0.text + " 23:59:59")
            })
        }
        // "à 23", "a las 5": the word before makes a bare number a time (and is not part of it).
        let ledByTime = index > 0 && words.timeLeads.end(text, at: index - 1) == index
            || index > 1 && words.timeLeads.end(text, at: index - 2) == index
        dateCandidates(at: index, emit: emit)
        timeCandidates(at: index, bare: ledByTime, emit: emit)
        // "om 6.45", "om 20.15u", "om 14.00 - 14.30 op dinsdag": the spec keeps the lead with a time written with a period
        // (but not with the date after it: "om 20.30 vandaag" is "20.30 vandaag").
        if let after = words.dotTimeLeads.end(text, at: index), text.digits(after, maxDigits: 2) != nil, text.isSymbol(after + 1, "."),
           text.touches(after + 1) {
            let withoutDates: (BuiltinEntityType, Int, [DateTimeValue]) -> Void = { type, end, values in
                if type != .datetime { emit(type, end, values) }
            }
            timeCandidates(at: after, bare: true, emit: withoutDates)
            rangeCandidates(at: after, emit: withoutDates)
        }
        rangeCandidates(at: index, emit: emit)
        amountCandidates(at: index, ledByTime: ledByTime, emit: emit)
        repetitionCandidates(at: index, emit: emit)
    }

    // MARK: dates, with a time or a part of the day

    private func dateCandidates(at index: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        if let (values, end) = read.holiday(at: index) { emit(.date, end, values) }
        // "30 feb", "30 feb 2019 17.20": a day the calendar does not have, not resolved.
        if words.impossibleDatesUnresolved, let (timex, afterDate) = read.impossibleDate(at: index) {
            emit(.date, afterDate, [DateTimeValue(timex: timex, type: "date", value: "not resolved")])
            let lead = words.timeLeads.end(text, at: afterDate)
            if let (time, afterTime) = read.time(at: lead ?? afterDate, bare: lead != nil) {
                emit(.datetime, afterTime, [DateTimeValue(timex: timex + time.timex(time.readings[0]), type: "datetime", value: "not resolved")])
            }
        }
        var found = read.date(at: index)
        // "el día 9 Mayo", "den 28. Oktober": the words before the date are part of it.
        if found == nil, let (_, after) = words.dayArticles.match(text, at: index), after > index + 1 || words.dateArticles.end(text, at: index) == after,
           !words.dateArticlesBeforeDigitsOnly || text.digits(after) != nil, let (date, end) = read.date(at: after) {
            found = (date, end)
        }
        // "op volgende week maandag", "op dinsdag van volgende week": a weekday of next week keeps "op".
        if found == nil, let after = words.weekDateLeads.end(text, at: index), namesNextWeek(at: after), let date = read.date(at: after) {
            found = date
        }
        // "le 23", "el día 21": a day of the month alone after an article.
        var dayStart = index
        if let (_, after) = words.dayArticles.match(text, at: index), after > index + 1 || words.dayAloneArticles.end(text, at: index) == after {
            dayStart = after  // "el día 21", "dia 12"
        }
        let articled = dayStart > index || (1...2).contains { index >= $0 && words.dayArticles.end(text, at: index - $0) == index }
        // "le 1er" stays the ordinal.
        if found == nil, articled, let (day, end) = read.integer(at: dayStart, max: 31), day >= 1,
           end == dayStart + 1 || text.word(dayStart) != nil || words.ordinalDaysAlone,
           words.units.match(text, at: end) == nil, words.hourWords.match(text, at: end) == nil, text.word(end) != "h",
           !continuesAsDate(at: end) {
            found = (SpokenDate(kind: .dayOfMonth(day)), end)
        }
        guard let (date, afterDate) = found else { return }
        let readings = date.readings(today)
        emit(.date, afterDate, readings.map { DateTimeValue(timex: date.timex(of: $0), type: "date", value: $0.text) })
        // "mercredi 10 juin 2020, 18h", "demain à 15h30", "el 27/11 a las 23", "Mardi 11:00".
        var position = afterDate
        if text.isSymbol(position, ",") { position += 1 }
        let lead = words.timeLeads.end(text, at: position)
        if let (range, afterRange) = timeRange(at: lead ?? position) {
            emit(.datetimerange, afterRange, resolve.dateTimeRangeValues(date, range))
        } else if let (time, afterTime) = read.time(at: lead ?? position, bare: lead != nil) {
            emit(.datetime, afterTime, resolve.dateTimeValues(date, time))
        }
        // "Jeudi avant 17h", "demain avant 17h".
        if let (modifier, afterModifier) = words.modifiers.match(text, at: afterDate), modifier != .approx,
           let (time, afterTime) = read.time(at: words.timeLeads.end(text, at: afterModifier) ?? afterModifier, bare: true),
           let (_, modified) = DateTimeModifier.apply(modifier, type: .datetime, values: resolve.dateTimeValues(date, time)) {
            emit(.datetimerange, afterTime, modified)
        }
        // "demain nuit", "mardi dans le matin", "mercredi matin", then "à 7" within that part.
        if let (part, afterPart) = partOfDay(at: afterDate, bare: true) {
            emit(.datetimerange, afterPart, resolve.partOfDayValues(date, part))
            if let lead = words.timeLeads.end(text, at: afterPart), let (time, afterTime) = read.time(at: lead, bare: true) {
                emit(.datetime, afterTime, resolve.dateTimeValues(date, time.within(part)))
            }
            // "ayer por la tarde de 3 a 8", "lunes por la mañana de 10 a.m. a 12 p.m.": the hours within that part.
            if let (range, afterRange) = timeRange(at: afterPart) {
                emit(.datetimerange, afterRange, resolve.dateTimeRangeValues(date, range.within(part)))
            }
        }
    }

    // MARK: times

    private func timeCandidates(at index: Int, bare: Bool, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        // "Dix heures mercredi matin", "10, ce soir": an hour a date or a part of today after it makes a time.
        let alone = read.time(at: index, bare: bare)
        if let (time, afterTime) = alone ?? read.time(at: index, bare: true) {
            // "à 23" is the time "23": the word before is not kept.
            if alone != nil { emit(.time, afterTime, resolve.timeValues(time)) }
            var position = afterTime
            if text.isSymbol(position, ",") { position += 1 }
            if let (_, afterArticle) = words.articles.match(text, at: position) { position = afterArticle }
            else if let (_, afterJoiner) = words.dateJoiners.match(text, at: position) ?? words.timeDateJoiners.match(text, at: position) {
                position = afterJoiner
            }
            // "9h le Mardi", "Dix heures mercredi matin", "siete de la tarde del 15".
            // "une heure", "una hora" before a date is an amount of time.
            let saysHours = alone != nil || words.hourWords.match(text, at: afterTime - 1) != nil && time.hour != 1
            if saysHours, let (date, afterDate) = read.date(at: position) ?? dayAlone(at: position, after: position > afterTime) {
                emit(.datetime, afterDate, resolve.dateTimeValues(date, time))
                if let (part, afterPart) = partOfDay(at: afterDate, bare: true) {
                    emit(.datetime, afterPart, resolve.dateTimeValues(date, time.within(part)))
                }
            } else if let (part, offset, afterPart) = partOfTheDay(at: position)
                        ?? words.dayParts.match(text, at: position).map({ ($0.0.part, $0.0.days, $0.1) }) {
                // "10, ce soir", "8 vanmorgen", "half zes morgenavond": the hour in that part of the day.
                emit(.datetime, afterPart, resolve.dateTimeValues(SpokenDate(kind: .exact(today.adding(days: offset))), time.within(part)))
            }
            // "4pm chaque lundi", "15 heures tous les jours".
            if alone != nil, !time.ambiguous || time.precision > 1 || bare, let (timex, end) = repetition(at: afterTime), timex.hasPrefix("XXXX-WXX-") || timex == "P1D" {
                let said = time.timex(time.readings[0])
                emit(.set, end, [DateTimeValue(timex: timex == "P1D" ? said : timex + said, type: "set", value: "not resolved")])
            }
        }
        // "dans le matin a 7": the part of the day, then the hour in it.
        if let (part, afterPart) = partOfDay(at: index, bare: false), let lead = words.timeLeads.end(text, at: afterPart),
           let (time, afterTime) = read.time(at: lead, bare: true) {
            emit(.time, afterTime, resolve.timeValues(time.within(part)))
        }
    }

    /// Whether a weekday of next week starts at `index`: "volgende week maandag", "dinsdag van volgende week" (the Dutch
    /// spec keeps "op" before next week's days only: "op vorige week dinsdag" is "vorige week dinsdag").
    private func namesNextWeek(at index: Int) -> Bool {
        if let (weeks, _) = read.weekRelation(at: index) { return weeks > 0 }
        guard let (_, afterWeekday) = read.weekday(at: index),
              let (weeks, _) = read.weekRelation(at: words.dateJoiners.end(text, at: afterWeekday) ?? afterWeekday) else { return false }
        return weeks > 0
    }

    /// Whether a month or a date separator follows a day: "31 février" and "30/02/2019" that are no dates are no
    /// days of the month either.
    private func continuesAsDate(at index: Int) -> Bool {
        var position = index
        if let (_, after) = words.dateJoiners.match(text, at: position) { position = after }
        return read.monthWord(at: position) != nil || (text.touches(index) && (text.isSymbol(index, "/") || text.isSymbol(index, ".")))
    }

    /// "17" after "le" or a joiner: a day of the month.
    private func dayAlone(at index: Int, after joined: Bool) -> (SpokenDate, Int)? {
        guard joined, let (day, end) = read.integer(at: index, max: 31), day >= 1, !continuesAsDate(at: end) else { return nil }
        return (SpokenDate(kind: .dayOfMonth(day)), end)
    }

    /// A part of the day said on its own or after a date: "matin", "dans le matin", "la nuit", "por la tarde";
    /// a bare part word only when `bare`.
    private func partOfDay(at index: Int, bare: Bool) -> (DateTimeWords.PartOfDay, Int)? {
        if let (_, afterLead) = words.partOfDayLeads.match(text, at: index), let (part, end) = words.partsOfDay.match(text, at: afterLead) {
            return (part, end)
        }
        // Meals need no article: "après le déjeuner" reads "déjeuner" after the modifier's own "le"; Dutch "na het ontbijt"
        // needs it ("lunch eten" is none).
        guard let (part, end) = words.partsOfDay.match(text, at: index),
              bare || part.isMeal && (!words.mealsNeedArticle || words.articles.end(text, at: index - 1) == index) else { return nil }
        return (part, end)
    }

    /// "ce soir", "cette nuit", "esta noche": a part of today ("deze lunch" is none where meals need their article).
    private func partOfTheDay(at index: Int) -> (DateTimeWords.PartOfDay, Int, Int)? {
        guard let (_, after) = words.this.match(text, at: index), let (part, end) = words.partsOfDay.match(text, at: after),
              !(part.isMeal && words.mealsNeedArticle) else { return nil }
        return (part, 0, end)
    }

    /// "de 5 à 7", "entre 14h et 16h", "17 a 18", "16-17 heures", "de 3:00 au 4:00", "entre las 5 y las 6 de la
    /// tarde"; the half of the day said once applies to both ends.
    private func timeRange(at index: Int) -> (SaidTimeRange, Int)? {
        let (between, position) = read.rangeStart(at: index)
        let led = position > index
        guard let (first, afterFirst) = read.time(at: position, bare: true) else { return nil }
        var joinerEnd: Int?
        if between { joinerEnd = words.betweenJoiners.end(text, at: afterFirst) }
        if joinerEnd == nil { joinerEnd = words.rangeJoiners.end(text, at: afterFirst) }
        if joinerEnd == nil, text.isSymbol(afterFirst, "-") { joinerEnd = afterFirst + 1 }
        guard let afterJoiner = joinerEnd, let (second, afterSecond) = read.time(at: afterJoiner, bare: true) else { return nil }
        // Two bare numbers joined by "a" are a time range only when something says hours ("16-17" aside).
        guard led || !first.ambiguous || !second.ambiguous || first.precision > 1 || second.precision > 1
                || text.isSymbol(afterFirst, "-") || words.hourWords.match(text, at: afterSecond) != nil
                || words.timeSuffixes.match(text, at: afterSecond) != nil else { return nil }
        var start = first, end = second, after = afterSecond
        if let (_, afterHours) = words.hourWords.match(text, at: after) { after = afterHours }
        if let (part, afterPart) = words.timeSuffixes.match(text, at: after) {
            start = start.within(part)
            end = end.within(part)
            after = afterPart
        }
        if start.ambiguous, !end.ambiguous, end.hour >= 12, start.hour + 12 <= end.hour { start = start.afternoon() }
        if start.ambiguous, !end.ambiguous, end.hour < 12 { start = start.morning() }
        if !start.ambiguous, end.ambiguous, start.hour >= 12, end.hour + 12 > start.hour { end = end.afternoon() }
        return (SaidTimeRange(start: start, end: end), after)
    }

    // MARK: ranges

    private func rangeCandidates(at index: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        if let (range, afterRange) = timeRange(at: index) {
            emit(.timerange, afterRange, resolve.timeRangeValues(range))
            var position = afterRange
            if let (_, afterArticle) = words.articles.match(text, at: position) ?? words.dateJoiners.match(text, at: position)
                ?? words.timeDateJoiners.match(text, at: position) { position = afterArticle }
            // "de 5 a 7 aujourd'hui", "de 5 a 6pm 22 Avril", "de 3:00 au 4:00 lendemain", "de las 5 a las 6 de 22 de abril".
            if let (date, afterDate) = read.date(at: position) {
                emit(.datetimerange, afterDate, resolve.dateTimeRangeValues(date, range))
                // "de 3 a 8 p.m. ayer por la tarde".
                if let (part, afterPart) = partOfDay(at: afterDate, bare: true) {
                    emit(.datetimerange, afterPart, resolve.dateTimeRangeValues(date, range.within(part)))
                }
            } else if let (part, offset, afterPart) = partOfTheDay(at: afterRange)
                        ?? words.dayParts.match(text, at: afterRange).map({ ($0.0.part, $0.0.days, $0.1) }) {
                // "tussen 19.00 en 21.30 gisterenavond", "tussen 10 en 11.30 deze ochtend".
                emit(.datetimerange, afterPart, resolve.dateTimeRangeValues(SpokenDate(kind: .exact(today.adding(days: offset))), range.within(part)))
            }
        }
        if words.partOfDayAlone, let (part, afterPart) = words.partsOfDay.match(text, at: index) {
            emit(.timerange, afterPart, [partOfDayValue(part)])
        } else if !words.partOfDayAlone, let (part, afterPart) = partOfDay(at: index, bare: false) {
            emit(.timerange, afterPart, [partOfDayValue(part)])
        }
        // "Dienstagmorgen", "nächsten Montagnachmittag": a weekday's part of the day.
        var weekdayAt = index
        var weeks: Int?
        if let (relation, after) = words.relativeBefore.match(text, at: index) { (weeks, weekdayAt) = (relation, after) }
        else if let (_, after) = words.this.match(text, at: index) { (weeks, weekdayAt) = (0, after) }
        if let (said, afterPart) = words.weekdayParts.match(text, at: weekdayAt) {
            let date = SpokenDate(kind: weeks.map { .exact(read.relativeWeekday(said.weekday, $0)) } ?? .weekday(said.weekday))
            emit(.datetimerange, afterPart, resolve.partOfDayValues(date, said.part))
            // "maandagmorgen van 10:00 tot 12:00": the hours on that day, as said (the spec keeps both halves of "6-8").
            if let (range, afterRange) = timeRange(at: afterPart) {
                emit(.datetimerange, afterRange, resolve.dateTimeRangeValues(date, range))
            }
        }
        // "anoche", then "a las 8" or "van 15:00-20:00" in it.
        if let (said, afterPart) = words.dayParts.match(text, at: index) {
            let date = SpokenDate(kind: .exact(today.adding(days: said.days)))
            emit(.datetimerange, afterPart, resolve.partOfDayValues(date, said.part))
            if let lead = words.timeLeads.end(text, at: afterPart), let (time, afterTime) = read.time(at: lead, bare: true) {
                emit(.datetime, afterTime, resolve.dateTimeValues(date, time.within(said.part)))
            }
            if let (range, afterRange) = timeRange(at: afterPart) {
                emit(.datetimerange, afterRange, resolve.dateTimeRangeValues(date, range.within(said.part)))
            }
        }
        // "later in de middag" (14:00 to 16:00, Mod end), "vroeg deze avond": the first or the second half of a part of the day.
        if let (mod, afterHalf) = words.partOfDayHalves.match(text, at: index) {
            let thisOne = words.this.end(text, at: afterHalf)
            if let (part, afterPart) = words.partsOfDay.match(text, at: thisOne ?? afterHalf), !part.isMeal {
                var half = part
                let middle = (part.start.0 + part.end.0) / 2
                if mod == "start" { half.end = (middle, 0, 0) } else { half.start = (middle, 0, 0) }
                if thisOne != nil {
                    emit(.datetimerange, afterPart, resolve.partOfDayValues(SpokenDate(kind: .exact(today)), half, mod: mod))
                } else {
                    emit(.timerange, afterPart, [partOfDayValue(half, mod: mod)])
                }
            }
        }
        if let (part, offset, afterPart) = partOfTheDay(at: index) {
            if words.thisPartOfDayIsToday {
                emit(.datetimerange, afterPart, resolve.partOfDayValues(SpokenDate(kind: .exact(today.adding(days: offset))), part))
            } else {
                emit(.timerange, afterPart, [partOfDayValue(part)])
            }
        }
        LexiconDateRanges(read: read, resolve: resolve).ranges(at: index, emit: emit)
    }

    /// A part of no day in particular: "TMO", 08:00 to 12:00.
    private func partOfDayValue(_ part: DateTimeWords.PartOfDay, mod: String? = nil) -> DateTimeValue {
        DateTimeValue(timex: "T" + part.code, type: "timerange", start: Timex.clock(part.start.0, part.start.1, part.start.2),
                      end: Timex.clock(part.end.0, part.end.1, part.end.2), mod: mod)
    }

    // MARK: amounts of time

    private func amountCandidates(at index: Int, ledByTime: Bool, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        // "à 3 heures" is a time; "3 heures" an amount of hours.
        if let duration = read.duration(at: index), duration.seconds > 0, !(ledByTime && duration.timex.hasPrefix("PT") && duration.timex.hasSuffix("H")) {
            emit(.duration, duration.end, [DateTimeValue(timex: duration.timex, type: "duration", value: NumberValue.real(duration.seconds).text)])
        }
        // "plus de 3 jours", "menos de una semana".
        if let (mod, after) = words.durationModifiers.match(text, at: index), let duration = read.duration(at: after), duration.seconds > 0 {
            emit(.duration, duration.end, [DateTimeValue(timex: duration.timex, type: "duration", value: NumberValue.real(duration.seconds).text, mod: mod)])
        }
        // "dos días después de hoy", "tres semanas antes de ayer", "3 días a partir de hoy": a day that far from another.
        if let duration = read.duration(at: index),
           let (modifier, afterModifier) = words.modifiers.match(text, at: duration.end)
            ?? words.durationAnchors.match(text, at: duration.end).map({ (DateTimeModifier.since, $0.1) }),
           modifier == .after || modifier == .before || modifier == .since {
            let sign = modifier == .before ? -1 : 1
            if !duration.timex.contains("T"), let (day, end) = anchorDay(at: afterModifier),
               let moved = DateTimeValues(reference: ReferenceTime(date: day)).moment(after: duration, sign: sign)?.value {
                let text = String(moved.prefix(10))
                emit(.date, end, [DateTimeValue(timex: text, type: "date", value: text)])
            } else if duration.timex.contains("T"), let (_, end) = words.now.match(text, at: afterModifier),
                      let moment = resolve.moment(after: duration, sign: sign) {
                // "3 minutos a partir de ahora": that moment.
                emit(.datetime, end, [moment])
            }
        }
        // "30 minutos después", "3 semanas después": that far from now.
        if let duration = read.duration(at: index), duration.seconds > 0 {
            if let (_, end) = words.later.match(text, at: duration.end) { emitMoment(duration, sign: 1, end: end, emit: emit) }
            // "dois meses atrás": that far back.
            if let (_, end) = words.agoAfter.match(text, at: duration.end) { emitMoment(duration, sign: -1, end: end, emit: emit) }
        }
        // "dans trois ans", "dentro de 3 días", "il y a 30 minutes", "hace 2 semanas", "dentro de 3 minutos a partir de ahora".
        let future = words.inFuture.end(text, at: index), past = words.ago.end(text, at: index)
        guard let after = future ?? past, let duration = read.duration(at: after), duration.seconds > 0 else { return }
        var end = duration.end
        if future != nil, let (modifier, afterModifier) = words.modifiers.match(text, at: end), modifier == .since,
           let (_, afterNow) = words.now.match(text, at: afterModifier) {
            end = afterNow
        }
        emitMoment(duration, sign: future != nil ? 1 : -1, end: end, emit: emit)
    }

    /// The day an amount of time counts from: a date (its next occurrence when said without a year: "3 dagen vanaf
    /// dinsdag"), now, or a holiday's next occurrence ("2 weken voor Kerst").
    private func anchorDay(at index: Int) -> (CivilDate, Int)? {
        if let (date, end) = read.date(at: index) {
            if case .exact(let day) = date.kind { return (day, end) }
            return date.readings(today).last.map { ($0, end) }
        }
        if let (_, end) = words.now.match(text, at: index) { return (today, end) }
        guard let (values, end) = read.holiday(at: index), let said = values.last?.value, let day = CivilDate.parse(said) else { return nil }
        return (day, end)
    }

    /// The moment `duration` from now (a datetime) or the day it falls on (a date, for days and longer).
    private func emitMoment(_ duration: DurationParser.Duration, sign: Int, end: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        guard let moment = resolve.moment(after: duration, sign: sign), let value = moment.value else { return }
        if duration.timex.contains("T") {
            emit(.datetime, end, [moment])
        } else {
            let day = String(value.prefix(10))
            emit(.date, end, [DateTimeValue(timex: day, type: "date", value: day)])
        }
    }

    // MARK: repetitions

    private func repetitionCandidates(at index: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        if let (timex, end) = repetition(at: index) {
            emit(.set, end, [DateTimeValue(timex: timex, type: "set", value: "not resolved")])
        }
    }

    /// The time said after a repeated day: after a time lead ("à 9h", "om 16.00"), or a clock time on its own ("elke dag
    /// 15.00").
    private func timeAfter(_ index: Int) -> (SpokenTime, Int)? {
        if let lead = words.timeLeads.end(text, at: index) { return read.time(at: lead, bare: true) }
        guard let (time, end) = read.time(at: index, bare: false), time.precision > 1 else { return nil }
        return (time, end)
    }

    /// "chaque lundi", "tous les jours", "toutes les trois semaines", "cada dos días", "hebdomadaire".
    private func repetition(at index: Int) -> (String, Int)? {
        if let (timex, end) = words.repeatAdverbs.match(text, at: index) {
            // "Donderdagen om 17.30": that time every such day.
            if timex.hasPrefix("XXXX-WXX-"), let (time, afterTime) = timeAfter(end) { return (timex + time.timex(time.readings[0]), afterTime) }
            return (timex, end)
        }
        guard let (_, after) = words.each.match(text, at: index) else { return nil }
        var position = after
        var count = 1.0
        if let (amount, afterAmount) = read.amount(at: position), words.units.match(text, at: afterAmount) != nil || read.weekday(at: afterAmount) != nil {
            count = amount
            position = afterAmount
        }
        if let (weekday, end) = read.weekday(at: position) {
            // "cada lunes a las 4 p.m.", "chaque lundi à 9h".
            if let (time, afterTime) = timeAfter(end) {
                return ("XXXX-WXX-" + String(weekday) + time.timex(time.readings[0]), afterTime)
            }
            return ("XXXX-WXX-" + String(weekday), end)
        }
        // "jeden Tag um 3 Uhr Nachmittags", "jeden Abend um 19:13 Uhr": that time every day.
        if count == 1, let afterDay = words.units.match(text, at: position).flatMap({ $0.0.letter == "D" ? $0.1 : nil })
            ?? words.partsOfDay.match(text, at: position)?.1,
           let (time, afterTime) = timeAfter(afterDay) {
            return (time.timex(time.readings[0]), afterTime)
        }
        guard let (unit, end) = words.units.match(text, at: position) else { return nil }
        let total = count * Double(unit.multiple)
        return ((unit.base.isTime ? "PT" : "P") + NumberValue.real(total).text + unit.base.letter, end)
    }
}

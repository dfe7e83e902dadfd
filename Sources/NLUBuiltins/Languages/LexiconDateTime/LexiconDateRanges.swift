/// Spans of days in a language other than English, from its ``DateTimeLexicon``: a week, month or year named
/// from now ("la semaine prochaine", "el mes pasado", "cette année"), a month ("juillet", "cette décembre",
/// "juillet 98", "2015-3"), a year ("2020"), the next or last few units ("3 prochaines semaines", "los últimos
/// 3 meses", "13 dernières minutes"), days from one to another ("du 3 au 5 mars", "del 3 al 5 de marzo",
/// "novembre 19-20", "de 2010 à 2018") and seasons. Values as English writes them.
struct LexiconDateRanges {
    let read: LexiconDateTimeReader
    let resolve: DateTimeValues

    var text: DateTimeText { read.text }
    var words: DateTimeLexicon { read.words }
    var today: CivilDate { read.today }

    func ranges(at index: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        for reading in [spanWithToday(at: index), laterOrEarlierPart(at: index), namedPeriod(at: index), month(at: index), season(at: index), dayRange(at: index), monthRange(at: index),
                        partOfPeriod(at: index), decade(at: index), periodByPlace(at: index), weekPart(at: index),
                        letteredPeriod(at: index), specialYear(at: index)] {
            if let (values, end) = reading { emit(.daterange, end, values) }
        }
        if !words.quartersTakeNoModifier { quartersAndWeeks(at: index, emit: emit) }
        if let (values, end) = yearRange(at: index) ?? year(at: index) { emit(.daterange, end, values) }
        if let (type, values, end) = fewUnits(at: index) { emit(type, end, values) }
    }

    // MARK: weeks, months and years from now

    /// "la semaine prochaine", "cette semaine", "le mois dernier", "l'année prochaine", "la próxima semana",
    /// "el año pasado", "este mes", "la semana que viene".
    func namedPeriod(at index: Int) -> ([DateTimeValue], Int)? {
        read.periodRelation(at: index).map { (periodValues($0.0, moved: $0.1), $0.2) }
    }

    private func periodValues(_ unit: DateTimeWords.Unit, moved: Int) -> [DateTimeValue] {
        switch unit.letter {
        case "W":
            let start = today.weekStart.adding(days: 7 * moved)
            let week = start.isoWeek
            return [DateTimeValue(timex: Timex.pad(week.year, 4) + "-W" + Timex.pad(week.week, 2), type: "daterange",
                                  start: start.text, end: start.adding(days: 7).text)]
        case "M":
            let start = CivilDate.first(ofMonth: today.month, year: today.year).adding(months: moved)
            return [monthValue(start)]
        default:
            let year = today.year + moved
            return [DateTimeValue(timex: Timex.pad(year, 4), type: "daterange", start: Timex.pad(year, 4) + "-01-01",
                                  end: Timex.pad(year + 1, 4) + "-01-01")]
        }
    }

    private func monthValue(_ first: CivilDate, timex: String? = nil) -> DateTimeValue {
        DateTimeValue(timex: timex ?? String(first.text.prefix(7)), type: "daterange", start: first.text, end: first.adding(months: 1).text)
    }

    // MARK: months

    /// "juillet" (the last and the next July), "cette décembre", "juillet 98", "mars de 2024", "2015-3".
    private func month(at index: Int) -> ([DateTimeValue], Int)? {
        if let year = text.digits(index), text.tokens[index].text.count == 4, text.isSymbol(index + 1, "-"), text.touches(index + 1),
           text.touches(index + 2), let month = text.digits(index + 2, maxDigits: 2), (1...12).contains(month), year >= 1000,
           !text.isSymbol(index + 3, "-") {
            return ([monthValue(CivilDate.first(ofMonth: month, year: year))], index + 3)
        }
        var position = index
        var this = false
        if let (_, after) = words.this.match(text, at: position) {
            this = true
            position = after
        }
        // "aanstaande september": the next one only.
        if let (relation, after) = words.nearest.match(text, at: position), let (month, _, end) = read.monthWord(at: after) {
            let year = relation < 0 ? (month < today.month ? today.year : today.year - 1) : (month > today.month ? today.year : today.year + 1)
            return ([monthValue(CivilDate.first(ofMonth: month, year: year))], end)
        }
        // "2017 april": the year first.
        if !this, let (year, afterYear) = read.fourDigitYear(at: position), let (month, _, end) = read.monthWord(at: afterYear) {
            return ([monthValue(CivilDate.first(ofMonth: month, year: year))], end)
        }
        guard let (month, full, afterMonth) = read.monthWord(at: position) else { return nil }
        // "dec-2018", "dec/2018", "dec, 2018".
        if text.isSymbol(afterMonth, "-") || text.isSymbol(afterMonth, "/") || text.isSymbol(afterMonth, ","),
           text.touches(afterMonth), let (year, end) = read.fourDigitYear(at: afterMonth + 1), !text.isSymbol(end, "/"), !text.isSymbol(end, "-") {
            return ([monthValue(CivilDate.first(ofMonth: month, year: year))], end)
        }
        var yearPosition = afterMonth
        if let (_, after) = words.dateJoiners.match(text, at: yearPosition) ?? words.yearJoiners.match(text, at: yearPosition) { yearPosition = after }
        if let (year, end) = read.year(at: yearPosition), !text.isSymbol(end, "/"), !text.isSymbol(end, "-") {
            return ([monthValue(CivilDate.first(ofMonth: month, year: year))], end)
        }
        if this { return ([monthValue(CivilDate.first(ofMonth: month, year: today.year))], afterMonth) }
        guard full else { return nil }
        // The month before the reference and the one after it, as English resolves "May".
        let past = month < today.month ? today.year : today.year - 1
        let future = month > today.month ? today.year : today.year + 1
        let timex = "XXXX-" + Timex.pad(month, 2)
        return ([past, future].map { monthValue(CivilDate.first(ofMonth: month, year: $0), timex: timex) }, afterMonth)
    }

    // MARK: years

    /// A year alone in four digits, 1900 to 2099 ("en 2020", "avant 2000").
    private func year(at index: Int) -> ([DateTimeValue], Int)? {
        var position = index
        // "año 2008", "l'année 2020".
        if let (unit, after) = words.periods.match(text, at: index), unit.letter == "Y" { position = after }
        guard let token = text.tokens.token(position), token.isDigits, token.text.count == 4, let year = Int(token.text),
              (1900...2099).contains(year), !continuesNumber(after: position + 1) else { return nil }
        return ([yearValue(year)], position + 1)
    }

    private func yearValue(_ year: Int) -> DateTimeValue {
        DateTimeValue(timex: Timex.pad(year, 4), type: "daterange", start: Timex.pad(year, 4) + "-01-01", end: Timex.pad(year + 1, 4) + "-01-01")
    }

    /// Whether the token at `index` goes on with the digits before it ("2020-09", "2020.5", "1999 €").
    private func continuesNumber(after index: Int) -> Bool {
        guard let token = text.tokens.token(index) else { return false }
        return (token.kind == .symbol && !token.spaceBefore && !token.isSymbol(",") && !token.isSymbol("."))
            || (token.kind != .symbol && !token.spaceBefore) || token.isDigits
    }

    /// "de 2010 à 2018", "desde 2014 hasta 2018", "entre 2010 et 2018", "2014-2018", "2014 tot 2018" (not within a
    /// longer run of digits and dashes: "+86 138-2010-2015").
    private func yearRange(at index: Int) -> ([DateTimeValue], Int)? {
        let (between, start) = read.rangeStart(at: index)
        var position = start
        if let (unit, after) = words.periods.match(text, at: position), unit.letter == "Y", position > index { position = after }
        guard position > index || !text.touches(index), let (first, afterFirst) = read.fourDigitYear(at: position) else { return nil }
        guard let joined = (between ? words.betweenJoiners.end(text, at: afterFirst) : nil) ?? words.rangeJoiners.end(text, at: afterFirst),
              let (second, end) = read.fourDigitYear(at: joined), second > first else { return nil }
        if position == index, text.touches(end), text.isSymbol(end, "-") || text.tokens.token(end)?.kind != .symbol { return nil }
        return ([DateTimeValue(timex: "(" + Timex.pad(first, 4) + "-01-01," + Timex.pad(second, 4) + "-01-01,P" + String(second - first) + "Y)",
                               type: "daterange", start: Timex.pad(first, 4) + "-01-01", end: Timex.pad(second, 4) + "-01-01")], end)
    }

    /// "el próximo trimestre", "de week van 10 april": read with the other ranges, or on their own where a modifier
    /// before them is no modifier of theirs (``DateTimeLexicon/quartersTakeNoModifier``).
    func quartersAndWeeks(at index: Int, emit: (BuiltinEntityType, Int, [DateTimeValue]) -> Void) {
        for reading in [quarter(at: index), weekOfDate(at: index)] {
            if let (values, end) = reading { emit(.daterange, end, values) }
        }
    }

    // MARK: school and fiscal years

    /// "dit schooljaar" (SY2019), "vorig fiscaal jaar" (FY2018), "schooljaar 2008", "schooljaar '18", "fiscale jaar"
    /// (FYXXXX): not resolved, as the specs write them.
    func specialYear(at index: Int) -> ([DateTimeValue], Int)? {
        let before = read.relationBefore(at: index)
        guard let (prefix, afterName) = words.specialYears.match(text, at: before?.1 ?? index) else { return nil }
        let relation = before?.0
        var year = relation.map { today.year + $0 }
        var end = afterName
        if relation == nil, let (said, after) = read.fourDigitYear(at: afterName) {
            year = said
            end = after
        } else if relation == nil, text.folded(afterName) == "'", text.touches(afterName + 1),
                  let two = text.digits(afterName + 1, maxDigits: 2), text.tokens[afterName + 1].text.count == 2 {
            year = two < 50 ? 2000 + two : 1900 + two
            end = afterName + 2
        }
        return ([DateTimeValue(timex: prefix + (year.map { Timex.pad($0, 4) } ?? "XXXX"), type: "daterange", value: "not resolved")], end)
    }

    // MARK: seasons

    /// "été" (SU, not resolved), "cette été" (2016-SU).
    private func season(at index: Int) -> ([DateTimeValue], Int)? {
        var position = index
        var this = false
        if let (_, after) = words.this.match(text, at: position) { this = true; position = after }
        guard let (code, end) = words.seasons.match(text, at: position) else { return nil }
        return ([DateTimeValue(timex: (this ? Timex.pad(today.year, 4) + "-" : "") + code, type: "daterange", value: "not resolved")], end)
    }

    // MARK: days to days

    /// "du 3 au 5 mars", "del 3 al 5 de marzo de 2020", "entre 3 et 12 de Sept", "novembre 19-20",
    /// "de 26 Jun de 2020 a 28 Jun de 2020", "4-23 mois prochain", "28/2-1/3".
    private func dayRange(at index: Int) -> ([DateTimeValue], Int)? {
        let (between, start) = read.rangeStart(at: index)
        var position = start
        if let (_, after) = words.articles.match(text, at: position), position > index { position = after }
        // A month first: "novembre 19-20".
        if position == index, let (month, _, afterMonth) = read.monthWord(at: position), let (first, afterFirst) = read.integer(at: afterMonth, max: 31),
           text.isSymbol(afterFirst, "-"), let (second, end) = read.integer(at: afterFirst + 1, max: 31) {
            return openRange(month: month, first: first, endMonth: month, second: second, year: nil, end: end)
        }
        // Two whole dates: "de 26 Jun de 2020 a 28 Jun de 2020", "28/2-1/3", "10/1-11/2/2017", "van de 26e juni tot de 28e juni".
        if let (start, afterStart) = read.calendarDate(at: position), let joined = joiner(after: afterStart, between: between),
           let (finish, end) = read.calendarDate(at: joined) ?? (position > index ? words.articles.end(text, at: joined).flatMap(read.calendarDate) : nil) {
            return datesRange(start, finish, end: end)
        }
        // A day, then a day of a month: "du 3 au 5 mars".
        guard let (first, afterFirst) = read.integer(at: position, max: 31), first >= 1,
              let joined = joiner(after: afterFirst, between: between) else { return nil }
        var secondPosition = joined
        if let (_, after) = words.articles.match(text, at: secondPosition) { secondPosition = after }
        guard let (second, afterSecond) = read.integer(at: secondPosition, max: 31), second >= 1 else { return nil }
        var monthPosition = afterSecond
        if let (_, after) = words.dateJoiners.match(text, at: monthPosition) { monthPosition = after }
        if let (month, _, afterMonth) = read.monthWord(at: monthPosition) {
            var yearPosition = afterMonth
            if let (_, after) = words.dateJoiners.match(text, at: yearPosition) { yearPosition = after }
            if let (year, end) = read.year(at: yearPosition), text.tokens[yearPosition].isDigits == false || text.tokens[yearPosition].text.count == 4 {
                return openRange(month: month, first: first, endMonth: month, second: second, year: year, end: end)
            }
            return openRange(month: month, first: first, endMonth: month, second: second, year: nil, end: afterMonth)
        }
        // "4-23 mois prochain": days of a month named from now.
        if let (unit, afterUnit) = words.periods.match(text, at: afterSecond), unit.letter == "M", !unit.isTime,
           let (relation, end) = words.relativeAfter.match(text, at: afterUnit) {
            let month = CivilDate.first(ofMonth: today.month, year: today.year).adding(months: relation)
            return openRange(month: month.month, first: first, endMonth: month.month, second: second, year: month.year, end: end)
        }
        return nil
    }

    private func joiner(after index: Int, between: Bool) -> Int? {
        if between, let end = words.betweenJoiners.end(text, at: index) { return end }
        if let end = words.rangeJoiners.end(text, at: index) { return end }
        return text.isSymbol(index, "-") ? index + 1 : nil
    }

    /// Days of a month without a year read as the last and the next such span; with a year, that span.
    private func openRange(month: Int, first: Int, endMonth: Int, second: Int, year: Int?, end: Int) -> ([DateTimeValue], Int)? {
        if let year {
            guard let start = CivilDate(year: year, month: month, day: first), let finish = CivilDate(year: year, month: endMonth, day: second),
                  finish > start else { return nil }
            return ([spanValue(start, finish, startTimex: start.text, endTimex: finish.text)], end)
        }
        let start = SpokenDate(kind: .monthDay(month: month, day: first))
        let values = start.readings(today).compactMap { day -> DateTimeValue? in
            guard let finish = CivilDate(year: day.year, month: endMonth, day: second), finish > day else { return nil }
            return spanValue(day, finish, startTimex: start.timex, endTimex: SpokenDate(kind: .monthDay(month: endMonth, day: second)).timex)
        }
        return values.isEmpty ? nil : (values, end)
    }

    private func datesRange(_ start: SpokenDate, _ finish: SpokenDate, end: Int) -> ([DateTimeValue], Int)? {
        switch (start.kind, finish.kind) {
        case (.exact(let a), .exact(let b)) where b > a:
            return ([spanValue(a, b, startTimex: a.text, endTimex: b.text)], end)
        case (.monthDay, .monthDay(let month, let day)):
            guard let pastStart = start.readings(today).first, let futureStart = start.readings(today).last,
                  let futureEnd = finish.readings(today).last,
                  let pastEnd = (0...8).lazy.compactMap({ CivilDate(year: pastStart.year + $0, month: month, day: day) }).first(where: { $0 > pastStart })
            else { return nil }
            let values = Self.pastAndFutureSpans(pastStart: pastStart, pastEnd: pastEnd, future: (futureStart, futureEnd)).compactMap { span -> DateTimeValue? in
                span.1 > span.0 ? spanValue(span.0, span.1, startTimex: start.timex, endTimex: finish.timex) : nil
            }
            return values.isEmpty ? nil : (values, end)
        case (.monthDay(let m1, let d1), .exact(let b)):
            guard let a = CivilDate(year: b.year, month: m1, day: d1), b > a else { return nil }
            return ([spanValue(a, b, startTimex: a.text, endTimex: b.text)], end)
        default:
            return nil
        }
    }

    /// The last and the next span between two ends said without a year: the past span runs from the start's last
    /// occurrence to the end's first occurrence after it; the future span ends at the end's next occurrence and
    /// starts at the start's, or at its last one when that comes after the end (as Recognizers-Text merges two
    /// dates), so a span the reference falls in is read once.
    static func pastAndFutureSpans(pastStart: CivilDate, pastEnd: CivilDate, future: (CivilDate, CivilDate)) -> [(CivilDate, CivilDate)] {
        let futureSpan = (future.0 > future.1 ? pastStart : future.0, future.1)
        let pastSpan = (pastStart, pastEnd)
        return futureSpan == pastSpan ? [pastSpan] : [pastSpan, futureSpan]
    }

    private func spanValue(_ start: CivilDate, _ end: CivilDate, startTimex: String, endTimex: String) -> DateTimeValue {
        DateTimeValue(timex: "(" + startTimex + "," + endTimex + ",P" + String(start.days(until: end)) + "D)", type: "daterange",
                      start: start.text, end: end.text)
    }

    // MARK: the next or last few units

    /// "3 prochaines semaines", "dix derniers mois", "los próximos 3 días", "los últimos 3 meses", "2 próximos
    /// meses", "dernière minute", "13 dernières minutes": from tomorrow on, or up to today; clock units from now.
    private func fewUnits(at index: Int) -> (BuiltinEntityType, [DateTimeValue], Int)? {
        var amount = 1.0, position = index, relation: Int?, counted = false
        var fromToday = false
        if let (_, after) = words.within.match(text, at: position), let (said, afterAmount) = read.amount(at: after),
           words.units.match(text, at: afterAmount) != nil {
            // "dans les 2h", "dentro de 9 meses": from now on.
            (amount, relation, position, counted, fromToday) = (said, 1, afterAmount, true, true)
        } else if let (value, after) = words.relativeBefore.match(text, at: position) {
            relation = value
            position = after
            if let (said, afterAmount) = read.amount(at: position) { amount = said; position = afterAmount; counted = true }
        } else if let (said, afterAmount) = read.amount(at: position), let (value, after) = words.relativeAfter.match(text, at: afterAmount) {
            amount = said
            relation = value
            position = after
            counted = true
        } else if let (said, afterAmount) = read.amount(at: position), let (_, afterUnit) = words.units.match(text, at: afterAmount),
                  let (value, end) = words.relativeAfter.match(text, at: afterUnit) {
            // "los 2 días siguientes", "los 5 años pasados": the relation after the unit.
            guard let (type, values, _) = span(amount: said, relation: value, unitAt: afterAmount, fromToday: false, counted: true) else { return nil }
            return (type, values, end)
        } else if let (value, after) = words.relativeAfter.match(text, at: position) {
            relation = value
            position = after
        }
        guard let relation else { return nil }
        return span(amount: amount, relation: relation, unitAt: position, fromToday: fromToday, counted: counted)
    }

    /// `amount` units from now on (`relation` 1) or up to now (-1), the unit at `position`.
    private func span(amount: Double, relation: Int, unitAt position: Int, fromToday: Bool,
                      counted: Bool) -> (BuiltinEntityType, [DateTimeValue], Int)? {
        guard relation != 0, let (unit, end) = words.units.match(text, at: position), amount >= 1, amount < 10000,
              amount == amount.rounded(), unit.letter != "WE" else { return nil }
        let total = amount * Double(unit.multiple)
        let base = unit.base
        let durationTimex = (base.isTime ? "PT" : "P") + NumberValue.real(total).text + base.letter
        if base.isTime {
            let seconds = total * base.seconds
            guard let start = resolve.moment(after: relation > 0 ? 0 : -seconds), let finish = resolve.moment(after: relation > 0 ? seconds : 0),
                  let startValue = start.value, let endValue = finish.value else { return nil }
            return (.datetimerange, [DateTimeValue(timex: "(" + start.timex + "," + finish.timex + "," + durationTimex + ")", type: "datetimerange",
                                                   start: startValue, end: endValue)], end)
        }
        let count = Int(total)
        func moved(_ day: CivilDate, _ sign: Int) -> CivilDate? {
            switch base.letter {
            case "D": return day.adding(days: sign * count)
            case "W": return day.adding(days: sign * 7 * count)
            case "M": return day.addingIfInRange(months: sign * count)
            default: return day.addingIfInRange(months: sign * 12 * count)
            }
        }
        let start: CivilDate, finish: CivilDate
        if relation > 0 {
            start = fromToday ? today : today.adding(days: 1)
            guard let moved = moved(start, 1) else { return nil }
            finish = moved
        } else {
            finish = today
            guard let moved = moved(today, -1) else { return nil }
            start = moved
        }
        // "la semaine prochaine" is the calendar week, read by the named periods.
        guard counted else { return nil }
        return (.daterange, [DateTimeValue(timex: "(" + start.text + "," + finish.text + "," + durationTimex + ")", type: "daterange",
                                           start: start.text, end: finish.text)], end)
    }

    // MARK: months to months

    /// "de marzo a mayo", "entre agosto y octubre", "enero-febrero de 2017", "de abril a junio de 2017".
    private func monthRange(at index: Int) -> ([DateTimeValue], Int)? {
        let (between, position) = read.rangeStart(at: index)
        guard let (first, _, afterFirst) = read.monthWord(at: position) else { return nil }
        var startYear: Int?
        var joinAt = afterFirst
        if let (_, joined) = words.dateJoiners.match(text, at: joinAt) ?? words.yearJoiners.match(text, at: joinAt), let (year, end) = read.year(at: joined),
           text.tokens[joined].text.count == 4 {
            startYear = year
            joinAt = end
        }
        guard position > index || text.isSymbol(joinAt, "-"), let joined = joiner(after: joinAt, between: between),
              let (second, _, afterSecond) = read.monthWord(at: joined) else { return nil }
        var end = afterSecond
        var endYear: Int?
        var yearAt = afterSecond
        if let (_, after) = words.dateJoiners.match(text, at: yearAt) ?? words.yearJoiners.match(text, at: yearAt) { yearAt = after }
        else if text.isSymbol(yearAt, ",") { yearAt += 1 }
        if let (year, afterYear) = read.fourDigitYear(at: yearAt) { endYear = year; end = afterYear }
        let months = (second - first + 12) % 12
        guard months > 0 else { return nil }
        if let endYear {
            let start = CivilDate.first(ofMonth: first, year: startYear ?? (second > first ? endYear : endYear - 1))
            let finish = CivilDate.first(ofMonth: second, year: endYear)
            let count = (finish.year - start.year) * 12 + finish.month - start.month
            guard count > 0 else { return nil }
            return ([DateTimeValue(timex: "(" + start.text + "," + finish.text + ",P" + String(count) + "M)", type: "daterange",
                                   start: start.text, end: finish.text)], end)
        }
        // Each month is its last and next occurrence, this month being both last year's and this year's.
        func occurrences(_ month: Int) -> (CivilDate, CivilDate) {
            (CivilDate.first(ofMonth: month, year: month < today.month ? today.year : today.year - 1),
             CivilDate.first(ofMonth: month, year: month >= today.month ? today.year : today.year + 1))
        }
        let (pastStart, futureStart) = occurrences(first), futureEnd = occurrences(second).1
        let timex = "(XXXX-" + Timex.pad(first, 2) + "-01,XXXX-" + Timex.pad(second, 2) + "-01,P" + String(months) + "M)"
        let values = Self.pastAndFutureSpans(pastStart: pastStart, pastEnd: pastStart.adding(months: months), future: (futureStart, futureEnd)).map {
            DateTimeValue(timex: timex, type: "daterange", start: $0.0.text, end: $0.1.text)
        }
        return (values, end)
    }

    // MARK: quarters

    /// "este trimestre", "el próximo trimestre", "el trimestre pasado", "el primer trimestre de 2017".
    private func quarter(at index: Int) -> ([DateTimeValue], Int)? {
        var position = index
        if let (_, after) = words.articles.match(text, at: position) { position = after }
        let articled = position > index
        let thisQuarter = (today.month - 1) / 3
        var relation: Int?
        var ordinal: Int?
        if let (_, after) = words.this.match(text, at: position) { relation = 0; position = after }
        else if let (value, after) = words.relativeBefore.match(text, at: position) { relation = value; position = after }
        else if let (value, after) = read.integer(at: position, max: 4), value >= 1 { ordinal = value; position = after }
        guard let (_, afterQuarter) = words.quarters.match(text, at: position) else { return nil }
        var end = afterQuarter
        var year = today.year
        if relation == nil, ordinal == nil, let (value, after) = words.relativeAfter.match(text, at: afterQuarter) { relation = value; end = after }
        if let ordinal {
            var yearAt = afterQuarter
            if let (_, after) = words.dateJoiners.match(text, at: yearAt) { yearAt = after }
            if let (said, after) = read.fourDigitYear(at: yearAt) { year = said; end = after }
            return ([quarterValue(year: year, quarter: ordinal - 1)], end)
        }
        // "el próximo trimestre": the spec keeps the article with a numbered quarter only.
        guard let relation, !articled else { return nil }
        let total = year * 4 + thisQuarter + relation
        year = total / 4
        return ([quarterValue(year: year, quarter: total % 4)], end)
    }

    private func quarterValue(year: Int, quarter: Int) -> DateTimeValue {
        let start = CivilDate.first(ofMonth: quarter * 3 + 1, year: year), finish = start.adding(months: 3)
        return DateTimeValue(timex: "(" + start.text + "," + finish.text + ",P3M)", type: "daterange", start: start.text, end: finish.text)
    }

    // MARK: the start, middle or end of a period

    /// "principios de año" (Mod start), "mediados de 2000" (mid), "finales de este mes" (end), "fin de mes".
    private func partOfPeriod(at index: Int) -> ([DateTimeValue], Int)? {
        guard let (part, after) = words.periodParts.match(text, at: index) else { return nil }
        var position = after
        if let (_, afterArticle) = words.articles.match(text, at: position) { position = afterArticle }
        var letter: String, year = today.year, month = today.month, end: Int
        if let (said, afterYear) = read.fourDigitYear(at: position) {
            (letter, year, end) = ("Y", said, afterYear)
        } else if let (value, afterPeriod) = namedPeriod(at: position), let first = value.first, first.timex.count == 4 || first.timex.count == 7,
                  let start = first.start.flatMap(CivilDate.parse) {
            (letter, year, month, end) = (first.timex.count == 4 ? "Y" : "M", start.year, start.month, afterPeriod)
        } else if let (unit, afterUnit) = words.periods.match(text, at: position), unit.letter != "W" {
            (letter, end) = (unit.letter, afterUnit)
        } else if let (said, _, afterMonth) = read.monthWord(at: position) {
            // "half november", "eind juli 2018": a part of a month, of its year, or of the last and the next one.
            let yearAt = words.dateJoiners.end(text, at: afterMonth) ?? afterMonth
            if let (saidYear, afterYear) = read.fourDigitYear(at: yearAt) {
                (letter, year, month, end) = ("M", saidYear, said, afterYear)
            } else {
                let past = said < today.month ? today.year : today.year - 1, future = said > today.month ? today.year : today.year + 1
                let timex = "XXXX-" + Timex.pad(said, 2)
                return ([past, future].map { monthPart(CivilDate.first(ofMonth: said, year: $0), part: part, timex: timex) }, afterMonth)
            }
        } else {
            return nil
        }
        if letter == "Y" {
            let (from, to) = part == "start" ? (1, 7) : part == "mid" ? (5, 9) : (9, 13)
            let start = CivilDate.first(ofMonth: from, year: year)
            let finish = CivilDate.first(ofMonth: 1, year: year).adding(months: to - 1)
            return ([DateTimeValue(timex: Timex.pad(year, 4), type: "daterange", start: start.text, end: finish.text, mod: part)], end)
        }
        return ([monthPart(CivilDate.first(ofMonth: month, year: year), part: part, timex: nil)], end)
    }

    /// The first half of a month (Mod start), its middle days (mid) or its second half (end).
    private func monthPart(_ first: CivilDate, part: String, timex: String?) -> DateTimeValue {
        let (from, to) = part == "start" ? (0, 15) : part == "mid" ? (9, 20) : (15, first.days(until: first.adding(months: 1)))
        return DateTimeValue(timex: timex ?? String(first.text.prefix(7)), type: "daterange", start: first.adding(days: from).text,
                             end: first.adding(days: to).text, mod: part)
    }

    // MARK: decades

    /// "los años 90", "les années quatre-vingt-dix" (the 1990s and the 2090s: XX90), "la década de 1990".
    private func decade(at index: Int) -> ([DateTimeValue], Int)? {
        func span(_ first: Int, _ timexStart: String, _ timexEnd: String) -> DateTimeValue {
            DateTimeValue(timex: "(" + timexStart + "," + timexEnd + ",P10Y)", type: "daterange",
                          start: Timex.pad(first, 4) + "-01-01", end: Timex.pad(first + 10, 4) + "-01-01")
        }
        if let (_, after) = words.decadeOfYear.match(text, at: index), let (year, end) = read.fourDigitYear(at: after), year % 10 == 0 {
            return ([span(year, Timex.pad(year, 4) + "-01-01", Timex.pad(year + 10, 4) + "-01-01")], end)
        }
        guard let (_, afterWords) = words.decadesOf.match(text, at: index) else { return nil }
        // "de jaren '90".
        let after = text.folded(afterWords) == "'" && text.touches(afterWords + 1) ? afterWords + 1 : afterWords
        guard let (value, end) = read.integer(at: after, max: 90), value % 10 == 0, value >= 10 else { return nil }
        let next = (value + 10) % 100
        let timexStart = "XX" + Timex.pad(value, 2) + "-01-01", timexEnd = "XX" + Timex.pad(next, 2) + "-01-01"
        return ([span(1900 + value, timexStart, timexEnd), span(2000 + value, timexStart, timexEnd)], end)
    }
}

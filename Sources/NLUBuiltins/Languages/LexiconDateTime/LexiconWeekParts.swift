/// This week's weekend ("am Wochenende": Saturday to Monday, "2019-W32-WE") and its working days ("unter der
/// Woche": Monday to Saturday, "2019-W32"), as the German spec resolves them; "vor dem Wochenende" and "nach dem
/// Wochenende" are these with the lexicon's modifiers. And the week that holds a date ("de week van 10 april").
extension LexiconDateRanges {
    func weekPart(at index: Int) -> ([DateTimeValue], Int)? {
        let monday = today.weekStart
        let week = monday.isoWeek
        let timex = Timex.pad(week.year, 4) + "-W" + Timex.pad(week.week, 2)
        if let (_, end) = words.weekend.match(text, at: index) {
            return ([DateTimeValue(timex: timex + "-WE", type: "daterange", start: monday.adding(days: 5).text,
                                   end: monday.adding(days: 7).text)], end)
        }
        if let (_, end) = words.workingWeek.match(text, at: index) {
            return ([DateTimeValue(timex: timex, type: "daterange", start: monday.text, end: monday.adding(days: 5).text)], end)
        }
        return nil
    }

    /// "de week van 10 april", "de week beginnend op 4 feb.": the week, Monday to Monday, that holds the date (of the
    /// last and the next such date when it has no year), under the date's TIMEX.
    func weekOfDate(at index: Int) -> ([DateTimeValue], Int)? {
        guard let after = words.weekOf.end(text, at: index), let (date, end) = read.calendarDate(at: after) else { return nil }
        let values = date.readings(today).map { day in
            DateTimeValue(timex: date.timex(of: day), type: "daterange", start: day.weekStart.text, end: day.weekStart.adding(days: 7).text)
        }
        return values.isEmpty ? nil : (values, end)
    }
}

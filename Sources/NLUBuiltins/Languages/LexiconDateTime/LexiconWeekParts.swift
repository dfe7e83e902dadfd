/// This week's weekend ("am Wochenende": Saturday to Monday, "2019-W32-WE") and its working days ("unter der
/// Woche": Monday to Saturday, "2019-W32"), as the German spec resolves them; "vor dem Wochenende" and "nach dem
/// Wochenende" are these with the lexicon's modifiers.
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
}

/// Holidays said by name in a language other than English ("Ostermontag", "Heiligabend", "Tag der Arbeit"), from
/// the language's ``DateTimeLexicon/holidays``: the days of the same ``Holiday`` rules English uses.
///
/// As the language's spec resolves them: without a year, the last and the next one, under "XXXX-12-24" for a day
/// fixed in the calendar and "XXXX" for one that moves (Easter's, "der erste Sonntag im Oktober"); with a year
/// ("Pfingsten 2022", "Heilige Drei Könige im Jahr 2020", "Fastnachtssonntag im nächsten Jahr"), that year's day.
/// A holiday stands alone: a time after it is its own entity, as the spec reads "Ostermontag um 10:30 Uhr". After
/// "next" or "last" ("volgende Pasen", "vorige koningsdag") it is the next or the last one, written as that day.
extension LexiconDateTimeReader {
    func holiday(at index: Int) -> ([DateTimeValue], Int)? {
        // "volgende Pasen", "vorige koningsdag": the next or the last one.
        if let (relation, after) = words.relativeBefore.match(text, at: index), relation == 1 || relation == -1,
           let (holiday, end) = words.holidays.match(text, at: after) {
            let readings = SpokenDate(kind: .holiday(holiday, timex: "XXXX")).readings(today)
            guard let day = relation < 0 ? readings.first : readings.last else { return nil }
            return ([DateTimeValue(timex: day.text, type: "date", value: day.text)], end)
        }
        guard let (holiday, afterName) = words.holidays.match(text, at: index) else { return nil }
        if let (year, end) = holidayYear(at: afterName) {
            guard let day = holiday.date(in: year) else { return nil }
            return ([DateTimeValue(timex: day.text, type: "date", value: day.text)], end)
        }
        let timex: String
        if case .fixed = holiday, let open = holiday.openYearTimex { timex = open } else { timex = "XXXX" }
        let readings = SpokenDate(kind: .holiday(holiday, timex: timex)).readings(today)
        guard !readings.isEmpty else { return nil }
        return (readings.map { DateTimeValue(timex: timex, type: "date", value: $0.text) }, afterName)
    }

    /// The year said after a holiday's name: "2019", "im Jahr 2020", "im nächsten Jahr", "letzten Jahres".
    private func holidayYear(at index: Int) -> (Int, Int)? {
        var position = index
        if let (_, after) = words.holidayYearLeads.match(text, at: position) { position = after }
        if let found = fourDigitYear(at: position) { return found }
        guard let (unit, relation, end) = periodRelation(at: position), unit.letter == "Y" else { return nil }
        return (today.year + relation, end)
    }
}

/// The one place that keeps resolved date-times inside the years 1…9999.
///
/// Date arithmetic is exact and may step past those years ("tomorrow" on 9999-12-31, "last week" on 0001-01-01,
/// the exclusive end of "this year" in 9999); ISO 8601 and LUIS write a date with a four-digit year, so such a
/// date cannot be written without a malformed value ("10000-01-01", "0000-12-31"). Rather than teach every
/// pattern to stop at the edges, the recognizer asks here of every reading it is about to offer, and drops the
/// ones that would write one; a mention left with no reading is not offered at all, as "in 9000 years" is no date.
enum SupportedYearsCheck {
    /// Whether every date `value` writes (in its value, start and end) is in ``CivilDate/supportedYears``.
    static func writesOnlySupportedDates(_ value: DateTimeValue) -> Bool {
        [value.value, value.start, value.end].allSatisfy { field in field.map(isSupportedIfDate) ?? true }
    }

    /// A field that begins with a date ("2016-11-08", "2016-11-08 19:00:00") must have a four-digit year from
    /// 0001; anything else (a clock time "19:00:00", seconds "259200", "not resolved") has no date to check.
    /// Our dates come from ``CivilDate/text``, which pads the year to four digits and writes more for year 10000
    /// on and a sign or "0000" for year 0 and before: those are what this refuses.
    private static func isSupportedIfDate(_ field: String) -> Bool {
        let scalars = field.unicodeScalars
        var index = scalars.startIndex
        if index < scalars.endIndex, scalars[index] == "-" { index = scalars.index(after: index) }
        let digitsStart = index
        var year = 0, digits = 0
        while index < scalars.endIndex, TokenizedText.isDigit(scalars[index]) {
            year = min(year * 10 + Int(scalars[index].value - 48), 100_000)
            digits += 1
            index = scalars.index(after: index)
        }
        guard digits > 0, index < scalars.endIndex, scalars[index] == "-" else { return true }  // not a date
        return digitsStart == scalars.startIndex && digits == 4 && CivilDate.supportedYears.contains(year)
    }
}
